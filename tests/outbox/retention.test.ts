/**
 * Retention of processed outbox rows (SqlOutbox.prune, OutboxWorker.pruneIfDue) on PostgreSQL and PGlite: only rows
 * processed longer ago than the retention go — pending, dead and recently processed rows stay — in batches, and a
 * worker prunes at most once per PRUNE_EVERY_MS, never when the retention is 0.
 */
import { describe, expect, test } from "bun:test";
import type { PegasError } from "../../src/errors.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { pgSkipReason } from "../support/pg.ts";
import { enqueue, MODEL, outboxHooks, type OutboxDb } from "./support.ts";

const skip = await pgSkipReason();
const HOUR_S = 3600;

/** Marks rows processed `hoursAgo` hours ago; `dead` marks them dead instead. */
async function age(t: OutboxDb, ids: number[], hoursAgo: number, dead = false): Promise<void> {
  const at = `${hoursAgo} hours`;
  if (dead) await t.sql`UPDATE pm_outbox SET dead_at = now() - ${at}::interval WHERE id = ANY(${ids}::bigint[])`;
  else await t.sql`UPDATE pm_outbox SET processed_at = now() - ${at}::interval WHERE id = ANY(${ids}::bigint[])`;
}

async function remaining(t: OutboxDb): Promise<number[]> {
  return (await t.sql`SELECT id FROM pm_outbox ORDER BY id`).map((r) => Number(r.id));
}

for (const backend of ["postgres", "pglite"] as const) {
  describe.skipIf(backend === "postgres" && skip !== null)(`outbox retention (${backend})`, () => {
    let t: OutboxDb;
    outboxHooks(backend, (db) => (t = db));

    test("prune deletes only rows processed before the cutoff, oldest first, at most `limit`", async () => {
      const old = await enqueue(t.sql, "atom", [1, 2, 3, 4]);
      const recent = await enqueue(t.sql, "atom", [5]);
      const pending = await enqueue(t.sql, "atom", [6]);
      const dead = await enqueue(t.sql, "atom", [7]);
      await age(t, old, 48);
      await age(t, recent, 1);
      await age(t, dead, 48, true);
      expect(await t.outbox.prune(24 * HOUR_S, 3)).toBe(3);
      expect(await remaining(t)).toEqual([old[3], ...recent, ...pending, ...dead]);
      expect(await t.outbox.prune(24 * HOUR_S, 3)).toBe(1);
      expect(await t.outbox.prune(24 * HOUR_S, 3)).toBe(0);
      expect(await remaining(t)).toEqual([...recent, ...pending, ...dead]);
      expect(await t.outbox.prune(0, 10)).toBe(1); // retention 0 s: every processed row
      expect(await remaining(t)).toEqual([...pending, ...dead]);
    });

    test("bad arguments are INVALID_INPUT", async () => {
      for (const [s, n, what] of [
        [-1, 10, "retention"],
        [Number.NaN, 10, "retention"],
        [10, 0, "limit"],
      ] as const) {
        const err = await t.outbox.prune(s, n).then(
          () => null,
          (e: unknown) => e as PegasError,
        );
        expect(err?.code).toBe("INVALID_INPUT");
        expect(err?.message).toContain(what);
      }
    });

    test("a worker prunes on its first pass, then not again within PRUNE_EVERY_MS; retention 0 keeps everything", async () => {
      const ids = await enqueue(
        t.sql,
        "atom",
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
      await age(t, ids, 200);
      const keep = new OutboxWorker({ outbox: t.outbox, sinks: [], model: MODEL, retentionMs: 0 });
      expect(await keep.pruneIfDue()).toBe(0);
      expect((await remaining(t)).length).toBe(25);
      const w = new OutboxWorker({ outbox: t.outbox, sinks: [], model: MODEL, retentionMs: 168 * HOUR_S * 1000 });
      expect(await w.pruneIfDue()).toBe(25);
      const more = await enqueue(t.sql, "atom", [99]);
      await age(t, more, 200);
      expect(await w.pruneIfDue()).toBe(0); // too soon after the last pass
      expect(await remaining(t)).toEqual(more);
    });
  });
}
