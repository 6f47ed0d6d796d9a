/** SqlOutbox leases on PostgreSQL: claim, ack, fail with backoff, dead letters, retryDead, lease expiry, backlog. */
import { describe, expect, test } from "bun:test";
import { clipError, MAX_ERROR_CHARS } from "../../src/adapters/sql/outbox/outbox.ts";
import type { RetryPolicy } from "../../src/ports/projections/outbox.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import { backoffDelay, orderChanges } from "../../src/worker/outbox-batch.ts";
import { pgSkipReason } from "../support/pg.ts";
import type { OutboxEntity } from "../../src/ports/projections/outbox.ts";
import { enqueue, outboxHooks, type OutboxDb } from "./support.ts";

const skip = await pgSkipReason();
const POLICY: RetryPolicy = { maxAttempts: 3, baseMs: 10_000, maxMs: 25_000 };

describe("outbox helpers", () => {
  test("equal jitter: half the capped exponential delay plus a random half", () => {
    const p = { maxAttempts: 10, baseMs: 1000, maxMs: 300_000 };
    expect(backoffDelay(p, 1, () => 0)).toBe(500);
    expect(backoffDelay(p, 1, () => 0.999999)).toBeCloseTo(1000, 0);
    expect(backoffDelay(p, 4, () => 0.5)).toBe(6000);
    expect(backoffDelay(p, 30, () => 0)).toBe(150_000);
    expect(backoffDelay(p, 5000, () => 1)).toBe(300_000);
  });

  test("changes are ordered node upserts, edge upserts, edge removals, node removals", () => {
    const n = (entity: "atom" | "document", id: number, live: boolean) =>
      ({ entity, id, state: live ? ({} as never) : null }) as ProjectionChange;
    const e = (key: string, live: boolean) =>
      ({ entity: "edge", key, state: live ? ({} as never) : null }) as ProjectionChange;
    const order = orderChanges([
      e("x:1", false),
      n("atom", 1, false),
      n("atom", 2, true),
      e("x:2", true),
      n("document", 3, true),
    ]);
    expect(order.map((c) => ("key" in c ? c.key : `${c.entity}:${c.id}`))).toEqual([
      "atom:2",
      "document:3",
      "x:2",
      "x:1",
      "atom:1",
    ]);
  });

  test("errors are clipped without splitting a surrogate pair and without NUL", () => {
    expect(clipError("a\u0000b")).toBe("ab");
    const long = `${"x".repeat(MAX_ERROR_CHARS - 2)}😀😀😀`;
    const clipped = clipError(long);
    expect(clipped.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(clipped.endsWith("…")).toBe(true);
    expect(/[\uD800-\uDBFF]…$/.test(clipped)).toBe(false);
  });
});

describe.skipIf(skip !== null)("SqlOutbox leases (postgres)", () => {
  let t: OutboxDb;
  outboxHooks("postgres", (db) => (t = db));

  test("claims due rows in id order under a lease, attempts counted; leased rows are invisible to others", async () => {
    const ids = await enqueue(t.sql, "atom", [11, 12, 13, 14, 15]);
    const a = await t.outbox.claim(3, 60_000, "A");
    expect(a.map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(a[0]).toMatchObject({ entityType: "atom", entityId: "11", op: "upsert", attempts: 1 });
    expect(Math.abs(a[0].createdAt - Date.now())).toBeLessThan(60_000);
    const b = await t.outbox.claim(10, 60_000, "B");
    expect(b.map((r) => r.id)).toEqual(ids.slice(3));
    expect(await t.outbox.claim(10, 60_000, "C")).toEqual([]);
    const [lease] =
      await t.sql`SELECT claim_token, extract(epoch FROM available_at - now()) AS s FROM pm_outbox WHERE id = ${ids[0]}`;
    expect(lease.claim_token).toBe("A");
    expect(Number(lease.s)).toBeGreaterThan(59);
  });

  test("rows not yet due and entity types this build does not know stay pending", async () => {
    const later = await enqueue(t.sql, "atom", [21]);
    await t.sql`UPDATE pm_outbox SET available_at = now() + interval '1 hour' WHERE id = ${later[0]}`;
    // A newer build's reader of a type this build does not know (rows no reader reads are never stored).
    await t.outbox.registerReaders([{ name: "future-reader", entityTypes: ["future_entity" as OutboxEntity] }]);
    await enqueue(t.sql, "future_entity", [1]);
    expect(await t.outbox.claim(10, 60_000, "A")).toEqual([]);
    expect(await t.outbox.backlog()).toMatchObject({ pending: 2, dead: 0 });
  });

  test("one entity is held by one worker: its rows are claimed together, and not while another holds it", async () => {
    const [r1, r2] = await enqueue(t.sql, "atom", [31, 31]);
    const [other] = await enqueue(t.sql, "document", [5]);
    const a = await t.outbox.claim(10, 60_000, "A");
    expect(a.map((r) => r.id)).toEqual([r1, r2, other]);
    const [r3] = await enqueue(t.sql, "atom", [31]);
    expect(await t.outbox.claim(10, 60_000, "B")).toEqual([]); // atom 31 is leased by A
    expect(await t.outbox.ack([r1, r2, other], "A")).toBe(3);
    expect((await t.outbox.claim(10, 60_000, "B")).map((r) => r.id)).toEqual([r3]);
  });

  test("a limit never cuts a row off from the rows of its entity before it", async () => {
    const ids = await enqueue(t.sql, "atom", [41, 42, 41, 43]);
    expect((await t.outbox.claim(2, 60_000, "A")).map((r) => r.id)).toEqual(ids.slice(0, 2));
    // The third row (atom 41 again) waits behind the first: A still holds atom 41.
    expect((await t.outbox.claim(5, 60_000, "B")).map((r) => r.id)).toEqual([ids[3]]);
  });

  test("ack needs the lease token and counts once", async () => {
    const ids = await enqueue(t.sql, "atom", [51, 52]);
    await t.outbox.claim(10, 60_000, "A");
    expect(await t.outbox.ack(ids, "B")).toBe(0);
    expect(await t.outbox.ack(ids, "A")).toBe(2);
    expect(await t.outbox.ack(ids, "A")).toBe(0);
    expect(await t.outbox.ack([], "A")).toBe(0);
    expect(await t.outbox.backlog()).toEqual({ pending: 0, dead: 0, oldestPendingAgeS: null });
  });

  test("a lease that ran out passes the rows to another worker; the first one's ack is refused", async () => {
    const ids = await enqueue(t.sql, "atom", [61]);
    await t.outbox.claim(10, 50, "A");
    await Bun.sleep(120);
    const b = await t.outbox.claim(10, 60_000, "B");
    expect(b).toMatchObject([{ id: ids[0], attempts: 2 }]);
    expect(await t.outbox.ack(ids, "A")).toBe(0);
    expect(await t.outbox.ack(ids, "B")).toBe(1);
  });

  test("fail backs off with equal jitter per attempt, keeps the error, and dead-letters at maxAttempts", async () => {
    const ids = await enqueue(t.sql, "atom", [71, 72]);
    // The database's clock in ms, and each row's available_at on it: the delay fail() chose lies between
    // available_at − (the clock after the call) and available_at − (the clock before it), whatever the call took.
    const clock = async () => Number((await t.sql`SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms`)[0].ms);
    const availableAt = async () =>
      (await t.sql`SELECT extract(epoch FROM available_at) * 1000 AS ms FROM pm_outbox ORDER BY id`).map((r) =>
        Number(r.ms),
      );
    for (const attempt of [1, 2]) {
      await t.sql`UPDATE pm_outbox SET available_at = now()`;
      expect(await t.outbox.claim(10, 60_000, "A")).toHaveLength(2);
      expect(await t.outbox.fail(ids, "B", "not mine", POLICY)).toEqual({ retried: 0, dead: 0 });
      const before = await clock();
      expect(await t.outbox.fail(ids, "A", "qdrant: connection refused\u0000", POLICY)).toEqual({
        retried: 2,
        dead: 0,
      });
      const after = await clock();
      const d = Math.min(POLICY.maxMs, POLICY.baseMs * 2 ** (attempt - 1));
      for (const at of await availableAt()) {
        expect(at - before).toBeGreaterThanOrEqual(d / 2 - 1); // 1 ms: rounding of the timestamps
        expect(at - after).toBeLessThanOrEqual(d + 1);
      }
      expect(await t.outbox.claim(10, 60_000, "A")).toEqual([]); // backing off
    }
    const [row] = await t.sql`SELECT last_error, claim_token, attempts FROM pm_outbox WHERE id = ${ids[0]}`;
    expect(row).toEqual({ last_error: "qdrant: connection refused", claim_token: null, attempts: 2 });
    await t.sql`UPDATE pm_outbox SET available_at = now()`;
    await t.outbox.claim(10, 60_000, "A");
    expect(await t.outbox.fail(ids, "A", "x".repeat(10_000), POLICY)).toEqual({ retried: 0, dead: 2 });
    const [dead] =
      await t.sql`SELECT length(last_error) AS n, dead_at IS NOT NULL AS dead FROM pm_outbox WHERE id = ${ids[0]}`;
    expect(dead).toEqual({ n: MAX_ERROR_CHARS, dead: true });
    expect(await t.outbox.claim(10, 60_000, "A")).toEqual([]);
    expect(await t.outbox.backlog()).toEqual({ pending: 0, dead: 2, oldestPendingAgeS: null });
  });

  test("retryDead revives dead rows with a fresh count, all or of one entity type", async () => {
    const atoms = await enqueue(t.sql, "atom", [81]);
    const docs = await enqueue(t.sql, "document", [82]);
    await t.sql`UPDATE pm_outbox SET dead_at = now(), attempts = 10, last_error = 'boom'`;
    expect(await t.outbox.retryDead("document")).toBe(1);
    expect((await t.outbox.claim(10, 60_000, "A")).map((r) => [r.id, r.attempts])).toEqual([[docs[0], 1]]);
    expect(await t.outbox.retryDead()).toBe(1);
    expect((await t.outbox.claim(10, 60_000, "A")).map((r) => r.id)).toEqual(atoms);
    expect(await t.outbox.retryDead()).toBe(0);
  });

  test("backlog reports pending rows, dead letters and the age of the oldest pending row", async () => {
    await enqueue(t.sql, "atom", [91, 92]);
    await t.sql`UPDATE pm_outbox SET created_at = now() - interval '90 seconds' WHERE entity_id = '91'`;
    const b = await t.outbox.backlog();
    expect(b.pending).toBe(2);
    expect(b.oldestPendingAgeS).toBeGreaterThanOrEqual(90);
    expect(b.oldestPendingAgeS).toBeLessThan(100);
  });

  test("bad arguments are INVALID_INPUT", async () => {
    await expect(t.outbox.claim(0, 1000, "A")).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/outside/),
    });
    await expect(t.outbox.claim(1, 1000, "")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(t.outbox.fail([1], "A", "x", { maxAttempts: 3, baseMs: 10, maxMs: 5 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(t.outbox.snapshot("edge", "pm_nothing:1", 10, "m")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(t.outbox.snapshot("atom", "x", 10, "m")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(t.outbox.snapshot("atom", null, 0, "m")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
