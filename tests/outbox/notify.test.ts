/**
 * Wake-ups on PostgreSQL: LISTEN/NOTIFY (an insert from another connection wakes a waiting worker at once), the
 * polling timeout, abort, and notifications that arrive while the worker is busy. PGlite's in-process signal is
 * tested in pglite-e2e.test.ts (one embedded database per file is enough).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { pgSkipReason } from "../support/pg.ts";
import { RecordingSink } from "../support/recording-sink.ts";
import { MODEL, openPgOutbox, type OutboxDb, seedAtoms } from "./support.ts";

const skip = await pgSkipReason();

/** ms from `start` until `p` settles. */
async function timed(p: Promise<unknown>, start: number): Promise<number> {
  await p;
  return performance.now() - start;
}

/** A wait longer than any test's time limit: a worker that is not woken by a notification fails the test. */
const FOREVER_MS = 600_000;

describe.skipIf(skip !== null)("outbox wake-ups (postgres)", () => {
  let t: OutboxDb;
  let other: postgres.Sql;
  beforeAll(async () => {
    const opened = await openPgOutbox();
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
    other = postgres(t.url!, { max: 1, onnotice: () => {} });
    await t.outbox.waitForWork(1000); // subscribes (and returns at once: rows may predate the subscription)
  }, 60_000);
  afterAll(async () => {
    await other?.end({ timeout: 1 });
    await t?.dispose();
  }, 30_000);

  test("an insert on another connection wakes a waiting worker", async () => {
    for (let round = 0; round < 3; round++) {
      await t.outbox.claim(1, 1000, "probe"); // a claim consumes earlier notifications
      const waiting = t.outbox.waitForWork(FOREVER_MS);
      await Bun.sleep(20);
      await other`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', '1', 'upsert')`;
      await waiting;
    }
  }, 30_000);

  test("a notification that came while the worker was busy is not lost; without one, the wait polls", async () => {
    await t.outbox.claim(1, 1000, "probe");
    await other`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', '2', 'upsert')`;
    await Bun.sleep(50);
    await t.outbox.waitForWork(FOREVER_MS); // the notification that came meanwhile ends it
    const start = performance.now();
    expect(await timed(t.outbox.waitForWork(120), start)).toBeGreaterThanOrEqual(110);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 30);
    await t.outbox.waitForWork(FOREVER_MS, ctl.signal); // an abort ends it
  }, 30_000);

  test("a following worker applies a row committed by another connection without waiting for its poll", async () => {
    await t.sql`DELETE FROM pm_outbox`;
    const sink = new RecordingSink();
    const worker = new OutboxWorker({ outbox: t.outbox, sinks: [sink], model: MODEL, idleMs: FOREVER_MS });
    const ctl = new AbortController();
    const running = worker.run(ctl.signal);
    await Bun.sleep(100);
    const [atom] = await seedAtoms(other, 1);
    await other`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', ${String(atom)}, 'upsert')`;
    // Its poll is ten minutes away: the row is applied within the test's 30 s only if the notification woke it.
    while (!sink.state.atom.has(atom)) await Bun.sleep(2);
    ctl.abort();
    await running;
    expect(worker.stats).toMatchObject({ applied: 1, failed: 0, dead: 0 });
  }, 30_000);
});
