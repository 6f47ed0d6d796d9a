/** The EntityStore contract against a PostgreSQL server (skipped, with the reason, when none answers). */
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";
import { postgresSkipReason } from "../support/contract.ts";
import { createTempPgDatabase } from "../support/pg.ts";
import { entityContract } from "./entities.contract.ts";

const skip = await postgresSkipReason();

entityContract(
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
