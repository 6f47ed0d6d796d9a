/**
 * Safety of the data dir itself: never write a cluster into a foreign directory, and make the first start
 * (initdb) atomic, so that an owner killed during it leaves nothing a later start would mistake for a database.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";

/** Where a first start builds the cluster before moving it into place. */
const BUILD_DIR = ".initdb-build";
/** Present while the built cluster is being moved into place; PG_VERSION moves last. */
const MOVING_MARKER = ".initdb-moving";
/** Entries of a data dir that are ours, not PostgreSQL's. */
const OWN_ENTRIES = new Set([".cache", BUILD_DIR, MOVING_MARKER]);

/**
 * Warns when other users can enter `dataDir` (PGlite creates its files world-writable, so the dir's mode is their
 * only guard) and refuses a dir that holds files but no database.
 * @throws PegasError INVALID_INPUT when the dir holds foreign files and no PG_VERSION.
 */
export function checkDataDir(dataDir: string): void {
  if ((statSync(dataDir).mode & 0o077) !== 0) {
    log.warn("the embedded data dir is open to other users; PGlite's files in it are world-writable", {
      dataDir,
      hint: `run: chmod 700 '${dataDir}'`,
    });
  }
  if (existsSync(join(dataDir, "PG_VERSION")) || existsSync(join(dataDir, MOVING_MARKER))) return;
  const foreign = readdirSync(dataDir).filter((name) => !OWN_ENTRIES.has(name) && !name.startsWith(".s.PGSQL."));
  if (foreign.length) {
    throw new PegasError(
      "INVALID_INPUT",
      `data dir '${dataDir}' is not empty and holds no database (found '${foreign[0]}')`,
      {
        hint: "point the data dir at an empty or new directory",
      },
    );
  }
}

/**
 * Creates the cluster when `dataDir` has none: `build(dir)` runs PGlite (initdb) on a build dir inside it and closes
 * it cleanly; the result is then moved into place with PG_VERSION last, under a marker, so a start interrupted at
 * any point is either redone from scratch or finished. Call only while holding the ownership lock.
 */
export async function ensureCluster(dataDir: string, build: (dir: string) => Promise<void>): Promise<void> {
  const buildDir = join(dataDir, BUILD_DIR);
  const marker = join(dataDir, MOVING_MARKER);
  if (existsSync(marker)) {
    log.info("finishing an interrupted first start of the embedded database", { dataDir });
    moveIntoPlace(buildDir, dataDir);
    rmSync(marker);
  }
  if (existsSync(join(dataDir, "PG_VERSION"))) {
    rmSync(buildDir, { recursive: true, force: true }); // emptied by a move that died just before removing it
    return;
  }
  rmSync(buildDir, { recursive: true, force: true }); // an earlier build that died before it finished
  const started = performance.now();
  await build(buildDir);
  writeFileSync(marker, "");
  moveIntoPlace(buildDir, dataDir);
  rmSync(marker);
  rmSync(buildDir, { recursive: true, force: true });
  log.info("created the embedded database", { dataDir, ms: Math.round(performance.now() - started) });
}

/** Moves every entry of `from` into `to`, PG_VERSION last; entries already moved are skipped. */
function moveIntoPlace(from: string, to: string): void {
  if (!existsSync(from)) return;
  const names = readdirSync(from).filter((name) => name !== "PG_VERSION");
  for (const name of names) renameSync(join(from, name), join(to, name));
  if (existsSync(join(from, "PG_VERSION"))) renameSync(join(from, "PG_VERSION"), join(to, "PG_VERSION"));
}
