/**
 * The first start is atomic: an owner killed while building the cluster, or while moving it into place, leaves a
 * data dir that the next start repairs instead of mistaking for a database or refusing.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { resolvePaths } from "../../src/adapters/sql/pglite/paths.ts";
import { clusterState } from "../../src/adapters/sql/pglite/pg-control.ts";

const root = mkdtempSync(join(tmpdir(), "pm-datadir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function openQueryClose(dataDir: string): Promise<number> {
  const db = await openPglite({ dataDir });
  const [{ n }] = await db.run((sql) => sql`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`);
  await db.close();
  return n;
}

test("a build dir left by an owner killed during initdb is discarded and the cluster is built again", async () => {
  const dataDir = join(root, "killed-in-initdb");
  mkdirSync(join(dataDir, ".initdb-build", "base"), { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, ".initdb-build", "base", "junk"), "half-written");
  expect(await openQueryClose(dataDir)).toBe(1);
  expect(readdirSync(dataDir)).not.toContain(".initdb-build");
  expect(clusterState(dataDir)).toBe("shut down");
}, 120_000);

test("a move into place interrupted halfway is finished, PG_VERSION last", async () => {
  const dataDir = join(root, "killed-in-move");
  const build = join(dataDir, ".initdb-build");
  mkdirSync(dataDir, { mode: 0o700 });
  const pg = await PGlite.create({ dataDir: build });
  await pg.close();
  const names = readdirSync(build).filter((n) => n !== "PG_VERSION");
  writeFileSync(join(dataDir, ".initdb-moving"), "");
  for (const name of names.slice(0, Math.floor(names.length / 2))) renameSync(join(build, name), join(dataDir, name));
  expect(await openQueryClose(dataDir)).toBe(1);
  expect(readdirSync(dataDir).filter((n) => n.startsWith(".initdb"))).toEqual([]);
  expect(clusterState(dataDir)).toBe("shut down");
}, 120_000);

test("a non-empty dir without a database is refused with a hint", async () => {
  const foreign = join(root, "foreign");
  mkdirSync(foreign, { mode: 0o700 });
  writeFileSync(join(foreign, "notes.txt"), "not a database");
  const err = await openPglite({ dataDir: foreign }).catch((e) => e);
  expect(err.code).toBe("INVALID_INPUT");
  expect(err.message).toContain("notes.txt");
  expect(readdirSync(foreign)).toEqual(["notes.txt"]); // nothing was written into it
}, 120_000);

test("a data dir whose socket path would pass 100 bytes gets its socket in a private runtime dir", () => {
  const deep = join(root, "a".repeat(60), "b".repeat(40));
  const paths = resolvePaths(deep);
  expect(paths.socketPath.startsWith(paths.dataDir)).toBe(false);
  expect(Buffer.byteLength(paths.socketPath)).toBeLessThanOrEqual(100);
  expect(statSync(dirname(paths.socketPath)).mode & 0o777).toBe(0o700);
  expect(resolvePaths(`${deep}/.`).socketPath).toBe(paths.socketPath); // same dir, same names
  rmSync(dirname(paths.socketPath), { recursive: true, force: true });
});
