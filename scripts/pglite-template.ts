/**
 * `npm run build`'s first step (npm `prebuild`): makes dist/pglite-template.tar.gz, the migrated PGlite cluster
 * that the executable embeds and unpacks at a first start instead of running initdb and the migrations
 * (src/adapters/sql/pglite/template.ts). The cluster is made the way a first start makes one — PGlite's initdb in a
 * fresh data dir, pg_trgm, then every migration of this build — and closed cleanly before it is packed.
 *
 * A template already there is kept when its manifest fits this build and holds all of its migrations (a change of
 * a migration or of PGlite makes a new one). Never committed: dist/ is ignored.
 *
 * Usage: bun scripts/pglite-template.ts [--out FILE] [--force]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MIGRATIONS } from "../src/adapters/sql/migrations.ts";
import { openPglite } from "../src/adapters/sql/pglite/open.ts";
import {
  packTemplate,
  readTemplateManifest,
  type TemplateMigration,
  templateMismatch,
} from "../src/adapters/sql/pglite/template.ts";
import { SqlCanonicalStore } from "../src/adapters/sql/store.ts";
import { setLogLevel } from "../src/log.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Where `npm run build` expects the template (src/platform/pglite-template-file.ts imports it). */
export const TEMPLATE_PATH = join(ROOT, "dist", "pglite-template.tar.gz");

/** True when the template at `path` fits this build and holds every one of its migrations. */
export async function templateIsCurrent(path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  try {
    const manifest = readTemplateManifest(readFileSync(path));
    return templateMismatch(manifest) === null && manifest.migrations.length === MIGRATIONS.length;
  } catch {
    return false; // unreadable: make it again
  }
}

/**
 * Makes the template: a fresh PGlite cluster (initdb) in a temp dir, migrated, closed, packed to `out` (written
 * atomically). Resolves to the archive's size in bytes.
 */
export async function makeTemplate(out: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "pegas-template-"));
  try {
    const dataDir = join(dir, "data");
    const db = await openPglite({ dataDir });
    let applied: TemplateMigration[];
    try {
      await new SqlCanonicalStore(db).migrate();
      const rows = await db.sql`SELECT version, name, checksum FROM pm_schema_migrations ORDER BY version`;
      applied = rows.map((r) => ({ version: Number(r.version), name: String(r.name), checksum: String(r.checksum) }));
    } finally {
      await db.close();
    }
    const bytes = await packTemplate(dataDir, applied);
    const temp = `${out}.${process.pid}.tmp`;
    writeFileSync(temp, bytes);
    renameSync(temp, out);
    return bytes.byteLength;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" }, force: { type: "boolean" } } });
  const out = resolve(values.out ?? TEMPLATE_PATH);
  setLogLevel("warn");
  if (!values.force && (await templateIsCurrent(out))) {
    process.stderr.write(`pglite-template: ${out} is current\n`);
  } else {
    mkdirSync(dirname(out), { recursive: true });
    const started = performance.now();
    const bytes = await makeTemplate(out);
    const s = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`pglite-template: wrote ${out} (${(bytes / 2 ** 20).toFixed(1)} MiB) in ${s} s\n`);
  }
}
