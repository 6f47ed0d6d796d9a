/**
 * Clean close of the embedded database: an in-flight transaction is rolled back within about the grace period,
 * PGlite shuts down cleanly, and the next open runs no crash recovery. Also: the first open's output never
 * reaches stdout.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { clusterState } from "../../src/adapters/sql/pglite/pg-control.ts";
import { setLogLevel } from "../../src/log.ts";

const root = mkdtempSync(join(tmpdir(), "pm-close-"));
const dataDir = join(root, "data");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `fn` with the logger at debug level and returns what was written to stderr and stdout meanwhile. */
async function capture(fn: () => Promise<void>): Promise<{ stderr: string; stdout: string }> {
  const out = { stderr: "", stdout: "" };
  const origErr = process.stderr.write.bind(process.stderr);
  const origOut = process.stdout.write.bind(process.stdout);
  process.stderr.write = ((chunk: string | Uint8Array) => (
    (out.stderr += String(chunk)), true
  )) as typeof process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => (
    (out.stdout += String(chunk)), true
  )) as typeof process.stdout.write;
  setLogLevel("debug");
  try {
    await fn();
  } finally {
    setLogLevel("info");
    process.stderr.write = origErr;
    process.stdout.write = origOut;
  }
  return out;
}

test("first open writes nothing to stdout; close rolls an in-flight transaction back", async () => {
  let inserted!: () => void;
  const insertedP = new Promise<void>((r) => (inserted = r));
  let txOutcome: Promise<unknown> | undefined;
  let closeMs = 0;
  const out = await capture(async () => {
    const db = await openPglite({ dataDir });
    expect(db.isOwner).toBe(true);
    await db.run((sql) => sql`CREATE TABLE t (x int)`);
    txOutcome = db.sql
      .begin(async (tx) => {
        await tx`INSERT INTO t VALUES (1)`;
        inserted();
        await new Promise((r) => setTimeout(r, 10_000)); // a transaction that would outlive the grace period
      })
      .then(
        () => "committed",
        (err: { code?: string }) => err.code ?? "error",
      );
    await insertedP;
    const started = performance.now();
    await db.close(1000);
    closeMs = performance.now() - started;
  });
  expect(out.stdout).toBe("");
  expect(out.stderr).toContain("pglite output"); // PGlite did talk, to the stderr logger
  expect(await txOutcome).not.toBe("committed");
  process.stderr.write(`close with a transaction in flight: ${closeMs.toFixed(0)} ms\n`);
  expect(clusterState(dataDir)).toBe("shut down");
}, 120_000);

test("reopen after a clean close: no crash recovery, and the rolled-back row is absent", async () => {
  let rows = -1;
  const out = await capture(async () => {
    const db = await openPglite({ dataDir });
    [{ n: rows }] = await db.run((sql) => sql`SELECT count(*)::int AS n FROM t`);
    const [r] = await db.run(
      (sql) =>
        sql`SELECT similarity('ёлка', 'ёлки') > 0.3 AS close, to_tsvector('russian', 'субботу') @@ plainto_tsquery('russian', 'суббота') AS stem`,
    );
    expect(r).toEqual({ close: true, stem: true });
    await db.close();
  });
  expect(rows).toBe(0);
  expect(out.stdout).toBe("");
  expect(out.stderr).not.toContain("not properly shut down");
  expect(out.stderr).not.toContain("redo starts");
  expect(out.stderr).not.toContain("crash recovery");
}, 120_000);
