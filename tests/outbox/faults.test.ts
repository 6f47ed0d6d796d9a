/**
 * Fault tests of the outbox worker on PostgreSQL: an unreachable projection (backlog held, nothing lost, catch-up),
 * a crash between apply and ack (the lease ends, another worker re-applies), replays twice and out of order, a
 * refused rows isolated by bisection, dead-lettered and retried, a sink that cannot be prepared treated as an outage, and a stop request honoured after the current batch. After each, every
 * projection equals the canonical tables as `snapshot()` reads them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { PegasError } from "../../src/errors.ts";
import { setLogLevel } from "../../src/log.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { pgSkipReason } from "../support/pg.ts";
import { RecordingSink } from "../support/recording-sink.ts";
import {
  canonicalState,
  enqueue,
  makeDue,
  MODEL,
  openPgOutbox,
  type OutboxDb,
  rowCounts,
  seedWorld,
} from "./support.ts";

const skip = await pgSkipReason();
const SLOW = { maxAttempts: 5, baseMs: 60_000, maxMs: 60_000 };

describe.skipIf(skip !== null)("outbox worker faults (postgres)", () => {
  let t: OutboxDb;
  let vector: RecordingSink;
  let graph: RecordingSink;
  const worker = (opts: Partial<ConstructorParameters<typeof OutboxWorker>[0]> = {}) =>
    new OutboxWorker({ outbox: t.outbox, sinks: [vector, graph], model: MODEL, batchSize: 50, policy: SLOW, ...opts });

  /** Both projections equal the canonical state: the graph holds everything, the vector sink the atoms. */
  async function expectProjected(): Promise<void> {
    const canonical = await canonicalState(t.outbox);
    expect(graph.state).toEqual(canonical);
    expect(vector.state.atom).toEqual(canonical.atom);
    expect(vector.state.edge.size + vector.state.document.size + vector.state.symbol.size).toBe(0);
    const counts = await t.outbox.canonicalCounts(MODEL);
    expect(await graph.counts()).toEqual({
      atom: counts.atom,
      document: counts.document,
      symbol: counts.symbol,
      edge: counts.edge,
    });
  }

  beforeAll(async () => {
    setLogLevel("error"); // the failures below are expected; their warnings would only clutter the output
    const opened = await openPgOutbox();
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
  }, 60_000);
  afterAll(async () => {
    setLogLevel("info");
    await t?.dispose();
  }, 30_000);
  beforeEach(async () => {
    await t.sql`TRUNCATE pm_outbox, pm_document, pm_atom, pm_code_symbol RESTART IDENTITY CASCADE`;
    vector = new RecordingSink("vector", ["atom"]);
    graph = new RecordingSink("graph");
  });

  test("an unreachable projection holds the backlog, loses nothing, and catches up to equal state when healed", async () => {
    await seedWorld(t.sql, 120);
    const total = (await rowCounts(t.sql)).pending;
    graph.setUnreachable();
    const w = worker();
    for (let round = 0; round < 3; round++) {
      const r = await w.runOnce();
      // One failed batch stops the drain: the rest of the backlog keeps its attempts for when the sink is back.
      expect(r).toEqual({ applied: 0, failed: 50, dead: 0, batches: 1 });
      await makeDue(t.sql);
    }
    expect(await t.outbox.backlog()).toMatchObject({ pending: total, dead: 0 });
    const [err] = await t.sql`SELECT last_error FROM pm_outbox WHERE last_error IS NOT NULL LIMIT 1`;
    expect(err.last_error).toBe("graph: graph unreachable during prepare");
    expect(w.stats).toMatchObject({
      applied: 0,
      failed: 150,
      batches: 3,
      lastError: "graph: graph unreachable during prepare",
    });
    graph.heal();
    await makeDue(t.sql);
    const r = await w.runOnce();
    expect(r).toMatchObject({ applied: total, failed: 0, dead: 0 });
    expect(await rowCounts(t.sql)).toEqual({ pending: 0, processed: total, dead: 0 });
    await expectProjected();
    expect(w.stats.lastError).toBeNull();
    // Within every batch: node upserts, edge upserts, edge removals, node removals.
    const rank = (c: ProjectionChange) => (c.entity === "edge" ? (c.state ? 1 : 2) : c.state ? 0 : 3);
    for (const batch of graph.batches) expect(batch.map(rank)).toEqual(batch.map(rank).sort());
  });

  test("a crash between apply and ack: the lease ends, another worker re-applies, the projection equals canonical", async () => {
    const atoms = await seedWorld(t.sql, 60);
    await worker().runOnce();
    const crashed = graph.crashAfterNextApply();
    const more = await seedWorld(t.sql, 40);
    // A's lease outlasts what B does meanwhile even on a loaded machine (at 300 ms it ran out under a full CI run).
    const a = worker({ leaseMs: 2000, token: "A" });
    void a.runOnce(); // never returns: its process "died" after apply
    await crashed;
    // While A's lease runs, its atoms change again; their new rows wait behind A's lease (head of line).
    await t.sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ANY(${more.slice(0, 3)}::bigint[])`;
    await t.sql`UPDATE pm_atom SET status = 'verified' WHERE id = ${atoms[0]}`;
    await enqueue(t.sql, "atom", [...more.slice(0, 3), atoms[0]]);
    const b = worker({ token: "B" });
    await b.runOnce();
    const leased =
      await t.sql`SELECT count(*)::int AS n FROM pm_outbox WHERE claim_token = 'A' AND processed_at IS NULL`;
    expect(leased[0].n).toBe(50);
    expect((await rowCounts(t.sql)).pending).toBeGreaterThanOrEqual(50);
    await Bun.sleep(2050);
    await b.runOnce();
    expect(await rowCounts(t.sql)).toMatchObject({ pending: 0, dead: 0 });
    const [reclaimed] = await t.sql`SELECT count(*)::int AS n FROM pm_outbox WHERE claim_token = 'B' AND attempts = 2`;
    expect(reclaimed.n).toBe(50);
    await expectProjected();
    expect(graph.state.atom.get(atoms[0])?.status).toBe("verified");
    expect(graph.state.atom.has(more[0])).toBe(false);
  });

  test("the outbox replayed twice and out of order leaves counts and state unchanged", async () => {
    await seedWorld(t.sql, 80);
    const w = worker();
    await w.runOnce();
    await expectProjected();
    const before = structuredClone(graph.state);
    // Replay 1: every row processed again.
    await t.sql`UPDATE pm_outbox SET processed_at = NULL, claim_token = NULL, attempts = 0, available_at = now()`;
    await w.runOnce();
    // Replay 2: every row inserted again, shuffled (and with the opposite op on half of them).
    const rows = await t.sql`SELECT entity_type, entity_id, op FROM pm_outbox`;
    const shuffled = rows
      .map((r) => ({ r, k: Math.random() }))
      .sort((x, y) => x.k - y.k)
      .map(({ r }, i) => ({
        entity_type: r.entity_type,
        entity_id: r.entity_id,
        op: i % 2 ? r.op : r.op === "upsert" ? "delete" : "upsert",
      }));
    for (let i = 0; i < shuffled.length; i += 500) {
      await t.sql`INSERT INTO pm_outbox ${t.sql(shuffled.slice(i, i + 500) as any, "entity_type", "entity_id", "op")}`;
    }
    await w.runOnce();
    expect(await rowCounts(t.sql)).toMatchObject({ pending: 0, dead: 0 });
    expect(graph.state).toEqual(before);
    await expectProjected();
  });

  test("rows a sink refuses are isolated by bisection and dead-lettered at maxAttempts; the rest apply; retryDead once fixed", async () => {
    await seedWorld(t.sql, 20);
    const atomRows = Number((await t.sql`SELECT count(*) AS n FROM pm_outbox WHERE entity_type = 'atom'`)[0].n);
    const pending = (await rowCounts(t.sql)).pending;
    vector.apply = async () => {
      throw new PegasError("INVALID_INPUT", "vector of dimension 4 where the collection holds 768");
    };
    const w = worker({ batchSize: 500, policy: { maxAttempts: 3, baseMs: 1, maxMs: 2 } });
    let dead = 0;
    for (let i = 0; i < 3; i++) {
      dead += (await w.runOnce()).dead;
      await Bun.sleep(5);
    }
    // Only the atom rows reach the refusing sink; documents and links are applied to the graph and acked.
    expect(dead).toBe(atomRows);
    expect(await t.outbox.backlog()).toMatchObject({ pending: 0, dead: atomRows });
    expect(pending).toBeGreaterThan(atomRows);
    const [row] = await t.sql`SELECT last_error FROM pm_outbox WHERE dead_at IS NOT NULL LIMIT 1`;
    expect(row.last_error).toBe("vector: vector of dimension 4 where the collection holds 768");
    vector = new RecordingSink("vector", ["atom"]);
    const fixed = worker({ batchSize: 500 });
    expect(await t.outbox.retryDead()).toBe(atomRows);
    expect(await fixed.runOnce()).toMatchObject({ applied: atomRows, dead: 0 });
    expect(vector.state.atom).toEqual((await canonicalState(t.outbox, ["atom"])).atom);
    await expectProjected();
  });

  test("one poison row among many: only it backs off toward the dead letter; a sink that cannot be prepared dead-letters nothing", async () => {
    await seedWorld(t.sql, 40);
    const [poison] = (await t.sql`SELECT min(id)::int + 7 AS id FROM pm_atom`) as any;
    const apply = vector.apply.bind(vector);
    vector.apply = async (changes) => {
      if (changes.some((c) => c.entity === "atom" && c.id === poison.id))
        throw new PegasError("INVALID_INPUT", `atom ${poison.id} has a NaN component`);
      return apply(changes);
    };
    const w = worker({ batchSize: 500, policy: { maxAttempts: 1, baseMs: 1, maxMs: 2 } });
    const r = await w.runOnce();
    expect(r.dead).toBe(1);
    const [deadRow] = await t.sql`SELECT entity_id FROM pm_outbox WHERE dead_at IS NOT NULL`;
    expect(deadRow.entity_id).toBe(String(poison.id));
    expect((await t.outbox.backlog()).pending).toBe(0);

    // A sink whose prepare fails (misconfigured, another dimension) is an outage: with maxAttempts 1, nothing dies.
    await seedWorld(t.sql, 5, 1);
    const broken = new RecordingSink("broken", ["atom"]);
    broken.prepare = async () => {
      throw new PegasError("INVALID_INPUT", "collection holds vectors of dimension 1024");
    };
    const w2 = worker({ sinks: [broken], batchSize: 500, policy: { maxAttempts: 1, baseMs: 1, maxMs: 2 } });
    expect((await w2.runOnce()).dead).toBe(0);
    expect((await t.outbox.backlog()).dead).toBe(1);
  });

  test("run() follows the outbox, pauses after failures, and on abort ends after its current batch", async () => {
    graph.failNext(2);
    await seedWorld(t.sql, 30);
    const w = worker({ idleMs: 20, policy: { maxAttempts: 10, baseMs: 5, maxMs: 20 } });
    const ctl = new AbortController();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const apply = graph.apply.bind(graph);
    const running = w.run(ctl.signal);
    let leased: number[] = [];
    try {
      while ((await rowCounts(t.sql)).pending > 0) await Bun.sleep(10);
      expect(w.stats.failed).toBeGreaterThan(0);
      await expectProjected();
      // A new batch starts; abort while the sink is inside apply: the batch still completes and is acked.
      graph.apply = async (changes) => {
        await gate;
        return apply(changes);
      };
      await seedWorld(t.sql, 5, 1);
      while (!leased.length) {
        leased = (await t.sql`SELECT id FROM pm_outbox WHERE claim_token IS NOT NULL AND processed_at IS NULL`).map(
          (r) => Number(r.id),
        );
        await Bun.sleep(5);
      }
    } finally {
      ctl.abort();
      release();
      await running;
    }
    const [done] =
      await t.sql`SELECT bool_and(processed_at IS NOT NULL) AS all FROM pm_outbox WHERE id = ANY(${leased}::bigint[])`;
    expect(done.all).toBe(true);
    await w.runOnce(); // what was written after the stop is still there for the next run
    expect(await rowCounts(t.sql)).toMatchObject({ pending: 0, dead: 0 });
    await expectProjected();
  });
});
