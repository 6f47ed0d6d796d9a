/**
 * Durable commits on the embedded database (src/adapters/sql/pglite/durable-fs.ts): PostgreSQL runs with fsync on and
 * `wal_sync_method=fsync`, every COMMIT reaches NODEFS's fsync before it is acknowledged, and that fsync is the
 * host's fsync(2) (an error comes back as the syscall's errno).
 */
import { afterAll, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import {
  DURABLE_START_PARAMS,
  DurableNodeFS,
  enableNodefsFsync,
  SHARED_BUFFERS,
} from "../../src/adapters/sql/pglite/durable-fs.ts";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { migratedPgliteDir } from "../support/services.ts";

const root = mkdtempSync(join(tmpdir(), "pm-durable-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("the embedded database runs with fsync on, the WAL synced by fsync(2), synchronous commits", async () => {
  const dataDir = await migratedPgliteDir("pm-durable-db-");
  const db = await openPglite({ dataDir });
  try {
    const rows = await db.run(
      (sql) =>
        sql`SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'wal_sync_method', 'synchronous_commit') ORDER BY name`,
    );
    expect(rows.map((r) => [r.name, r.setting])).toEqual([
      ["fsync", "on"],
      ["synchronous_commit", "on"],
      ["wal_sync_method", "fsync"],
    ]);
  } finally {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);

test("every COMMIT goes through NODEFS's fsync; a read-only statement does not", async () => {
  const pg = await PGlite.create({
    fs: new DurableNodeFS(join(root, "direct")),
    startParams: [...DURABLE_START_PARAMS],
  });
  try {
    const ops = (pg as unknown as { mod: { NODEFS: { stream_ops: { fsync: (s: unknown) => number } } } }).mod.NODEFS
      .stream_ops;
    const real = ops.fsync;
    let calls = 0;
    ops.fsync = (stream) => {
      calls += 1;
      return real(stream);
    };
    await pg.exec("CREATE TABLE t (id int)");
    const before = calls;
    for (let i = 0; i < 5; i++) await pg.query("INSERT INTO t VALUES ($1)", [i]);
    expect(calls - before).toBeGreaterThanOrEqual(5);
    const afterWrites = calls;
    await pg.query("SELECT count(*) FROM t");
    expect(calls).toBe(afterWrites);
    // The smaller buffer pool of the start parameters is in force (its WebAssembly memory is never returned).
    const [row] = (await pg.query<{ shared_buffers: string }>("SHOW shared_buffers")).rows;
    expect(row.shared_buffers).toBe(SHARED_BUFFERS);
  } finally {
    await pg.close();
  }
}, 120_000);

test("NODEFS's fsync is the host's fsync(2): 0 on an open file, the errno of a failure", () => {
  const errors: unknown[] = [];
  const nodefs = {
    stream_ops: {} as { fsync?: (stream: { nfd?: number }) => number },
    tryFSOperation<T>(fn: () => T): T {
      try {
        return fn();
      } catch (err) {
        errors.push((err as { code?: string }).code);
        throw new Error("ErrnoError");
      }
    },
  };
  enableNodefsFsync(nodefs);
  const fd = openSync(join(root, "file"), "w");
  expect(nodefs.stream_ops.fsync!({ nfd: fd })).toBe(0);
  closeSync(fd);
  expect(() => nodefs.stream_ops.fsync!({ nfd: fd })).toThrow("ErrnoError");
  expect(errors).toEqual(["EBADF"]);
  expect(nodefs.stream_ops.fsync!({})).toBe(0); // a stream without a host descriptor (none in NODEFS) is left alone
});
