/** The CanonicalStore contract against a PostgreSQL server (skipped, with the reason, when none answers). */
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";
import { postgresSkipReason } from "../support/contract.ts";
import { createTempPgDatabase } from "../support/pg.ts";
import { storeContract } from "./store.contract.ts";

const skip = await postgresSkipReason();

storeContract(
  "postgres",
  async () => {
    const tmp = await createTempPgDatabase();
    if (typeof tmp === "string") return tmp;
    const db = openPostgres(tmp.url);
    return {
      db,
      async dispose() {
        await db.close(0);
        await tmp.drop();
      },
    };
  },
  skip,
);
