/**
 * Several OS processes open one embedded data dir at once: no row may be lost, and when the owner dies
 * (SIGKILL) or exits cleanly, a survivor takes the data dir over without losing an acknowledged insert.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clusterState } from "../../src/adapters/sql/pglite/pg-control.ts";
import { pgliteTemplate, seededDataDir } from "../support/services.ts";
import { acked, killAll, startWorker } from "./fixtures/spawn.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pm-mp-"));
  dirs.push(dir);
  return join(dir, "data");
}

// The data dir template (initdb and migrations, once per run) is made here, not inside a test's time limit.
beforeAll(() => pgliteTemplate().then(() => {}), 120_000);

afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("two processes insert 500 rows each at once into a fresh data dir: 1000 rows, seen by both", async () => {
  const dataDir = tempDir();
  const a = startWorker(dataDir, "a", 500);
  const b = startWorker(dataDir, "b", 500);
  // The first open runs initdb (≈ 11 CPU-seconds): two minutes, not 30 s, so that a loaded host does not fail it.
  const [openA, openB] = await Promise.all([
    a.waitFor((e) => e.ev === "open", 120_000),
    b.waitFor((e) => e.ev === "open", 120_000),
  ]);
  expect([openA.owner, openB.owner].sort()).toEqual([false, true]);
  await Promise.all([a.waitFor((e) => e.ev === "done"), b.waitFor((e) => e.ev === "done")]);
  a.send("count");
  b.send("count");
  const [countA, countB] = await Promise.all([a.waitFor((e) => e.ev === "count"), b.waitFor((e) => e.ev === "count")]);
  expect([countA.total, countA.mine, countB.total, countB.mine]).toEqual([1000, 500, 1000, 500]);
  for (const w of [a, b]) expect(w.events.filter((e) => e.ev === "stdout-noise")).toEqual([]);
  a.send("close");
  b.send("close");
  expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  expect(clusterState(dataDir)).toBe("shut down");
}, 240_000);

/**
 * Starts an owner that inserts slowly and a client that inserts 500 rows; returns both once both are writing. The
 * data dir is created beforehand (the first start is the first test's subject, not these).
 */
async function ownerAndWriter(dataDir: string) {
  await seededDataDir(dataDir);
  const owner = startWorker(dataDir, "owner", 100_000, 1);
  expect((await owner.waitFor((e) => e.ev === "open")).owner).toBe(true);
  const writer = startWorker(dataDir, "writer", 500, 4);
  expect((await writer.waitFor((e) => e.ev === "open")).owner).toBe(false);
  await writer.waitFor((e) => e.ev === "ack" && e.n >= 100);
  return { owner, writer };
}

test("the owner is SIGKILLed mid-insert: the writer takes over and every acknowledged insert survives", async () => {
  const dataDir = tempDir();
  const { owner, writer } = await ownerAndWriter(dataDir);
  owner.child.kill("SIGKILL");
  await owner.exited;
  const ownerAcked = acked(owner);
  const writerAckedAtKill = acked(writer);
  expect(writerAckedAtKill).toBeLessThan(500); // the kill really happened mid-insert
  await writer.waitFor((e) => e.ev === "done");
  writer.send("count");
  const count = await writer.waitFor((e) => e.ev === "count");
  expect(count.owner).toBe(true);
  expect(count.mine).toBe(500);
  expect(acked(writer)).toBe(500);
  // Rows the killed owner had acknowledged were committed to its WAL before the ack: all must be there.
  expect(count.total - count.mine).toBeGreaterThanOrEqual(ownerAcked);
  expect(count.total - count.mine).toBeLessThanOrEqual(ownerAcked + 1);
  writer.send("close");
  expect(await writer.exited).toBe(0);
}, 60_000);

test("the owner closes cleanly mid-insert: the writer takes over without crash recovery", async () => {
  const dataDir = tempDir();
  const { owner, writer } = await ownerAndWriter(dataDir);
  owner.send("close");
  expect(await owner.exited).toBe(0);
  const ownerAcked = acked(owner);
  await writer.waitFor((e) => e.ev === "done");
  writer.send("count");
  const count = await writer.waitFor((e) => e.ev === "count");
  expect([count.owner, count.mine, count.total - count.mine]).toEqual([true, 500, ownerAcked]);
  expect(writer.stderr()).not.toContain("crash recovery");
  writer.send("close");
  expect(await writer.exited).toBe(0);
  expect(clusterState(dataDir)).toBe("shut down");
}, 60_000);
