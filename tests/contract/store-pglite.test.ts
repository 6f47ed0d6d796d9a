/** The CanonicalStore contract against the embedded PGlite (always runs). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { storeContract } from "./store.contract.ts";

storeContract("pglite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pegas-contract-"));
  const db = await openPglite({ dataDir: dir });
  return {
    db,
    async dispose() {
      await db.close(0);
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
