/**
 * End to end on the embedded PGlite: real ingests through the canonical store write outbox rows, `signalOutbox()`
 * wakes a following worker at once (its poll is a minute away), and both projections equal the canonical tables
 * after each write, including a re-ingest that stales atoms and a retraction.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SqlOutbox } from "../../src/adapters/sql/outbox/outbox.ts";
import { signalOutbox } from "../../src/adapters/sql/outbox/signal.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { samplePlan } from "../contract/store.contract.ts";
import { RecordingSink } from "../support/recording-sink.ts";
import { canonicalState, enqueue, openPgliteOutbox, type OutboxDb, rowCounts } from "./support.ts";

/** The model of samplePlan's vectors. */
const PLAN_MODEL = "contract-test-model";

describe("outbox end to end (pglite)", () => {
  let t: OutboxDb;
  let store: SqlCanonicalStore;
  const vector = new RecordingSink("vector", ["atom"]);
  const graph = new RecordingSink("graph");
  const ctl = new AbortController();
  let worker: OutboxWorker;
  let running: Promise<void>;

  beforeAll(async () => {
    t = await openPgliteOutbox();
    store = new SqlCanonicalStore(t.db);
    worker = new OutboxWorker({ outbox: t.outbox, sinks: [vector, graph], model: PLAN_MODEL, idleMs: 60_000 });
    running = worker.run(ctl.signal);
  }, 60_000);
  afterAll(async () => {
    ctl.abort();
    await running;
    await t?.dispose();
  }, 30_000);

  /** Signals the worker, waits until the outbox is drained, and returns how long that took (ms). */
  async function settle(): Promise<number> {
    const start = performance.now();
    signalOutbox();
    while ((await rowCounts(t.sql)).pending > 0) {
      if (performance.now() - start > 10_000) throw new Error("the worker did not drain the outbox");
      await Bun.sleep(5);
    }
    return performance.now() - start;
  }

  async function expectProjected(): Promise<void> {
    const canonical = await canonicalState(t.outbox, undefined, 500, PLAN_MODEL);
    expect(graph.state).toEqual(canonical);
    expect(vector.state.atom).toEqual(canonical.atom);
  }

  test("an ingest reaches both projections at once, and they equal the canonical tables", async () => {
    const first = await store.commitIngest(samplePlan("file:///e2e-a.txt"));
    expect(await settle()).toBeLessThan(2000);
    await expectProjected();
    expect(graph.state.document.get(first.docId)).toEqual({
      uri: "file:///e2e-a.txt",
      title: "Палата № 6",
      kind: "text",
    });
    expect(vector.state.atom.size).toBe(2);
    expect([...vector.state.atom.values()].every((a) => a.vector?.length === 8)).toBe(true);
  });

  test("a re-ingest that changes a chunk stales its atom; the projections follow", async () => {
    await store.commitIngest(samplePlan("file:///e2e-a.txt", " и покой"));
    await settle();
    await expectProjected();
    expect([...graph.state.atom.values()].map((a) => a.status).sort()).toContain("stale");
  });

  test("a retracted atom leaves both projections, with its edges", async () => {
    const [atom] = await t.sql`SELECT id FROM pm_atom ORDER BY id LIMIT 1`;
    const id = Number(atom.id);
    const [other] = await t.sql`SELECT id FROM pm_atom WHERE id <> ${id} ORDER BY id LIMIT 1`;
    const [link] =
      await t.sql`INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind) VALUES (${Number(other.id)}, ${id}, 'cause') RETURNING id`;
    await enqueue(t.sql, "atom_link", [Number(link.id)]);
    await settle();
    expect(graph.state.edge.has(`pm_atom_link:${link.id}`)).toBe(true);
    await t.sql.begin(async (tx) => {
      await tx`UPDATE pm_atom SET status = 'retracted' WHERE id = ${id}`;
      await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', ${String(id)}, 'delete'), ('atom_link', ${String(link.id)}, 'delete')`;
    });
    await settle();
    expect(graph.state.atom.has(id)).toBe(false);
    expect(vector.state.atom.has(id)).toBe(false);
    expect(graph.state.edge.has(`pm_atom_link:${link.id}`)).toBe(false);
    await expectProjected();
    expect(worker.stats).toMatchObject({ failed: 0, dead: 0 });
    expect(await t.outbox.backlog()).toEqual({ pending: 0, dead: 0, oldestPendingAgeS: null });
  });

  test("signalOutbox wakes a waiting outbox of this process at once; after close it only polls", async () => {
    const outbox = new SqlOutbox(t.db);
    const timed = async (p: Promise<void>) => {
      const start = performance.now();
      await p;
      return performance.now() - start;
    };
    await outbox.waitForWork(1000); // subscribes, and returns at once
    await outbox.claim(1, 1000, "probe");
    const waiting = outbox.waitForWork(600_000); // longer than the test's time limit: only the signal can end it
    await Bun.sleep(20);
    signalOutbox();
    await waiting;
    expect(await timed(outbox.waitForWork(100))).toBeGreaterThanOrEqual(90);
    await outbox.close();
    const after = outbox.waitForWork(100);
    signalOutbox();
    expect(await timed(after)).toBeGreaterThanOrEqual(80);
  }, 30_000);
});
