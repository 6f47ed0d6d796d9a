/** The EntityStore contract against the embedded PGlite (always runs). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { entityContract } from "./entities.contract.ts";

entityContract("pglite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pegas-entities-"));
  const db = await openPglite({ dataDir: dir });
  return {
    db,
    async dispose() {
      await db.close(0);
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
