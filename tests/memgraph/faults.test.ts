/**
 * Failure handling of the Memgraph adapter against the Bolt stand-in: Memgraph's write conflict retried (by the
 * driver when it comes as a TransientError, by the adapter when it comes as a ClientError as before Memgraph 2.12),
 * bounded; unreachable, refusing and hung servers fail fast as INDEX_UNAVAILABLE with the URL and what to do.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { CONFLICT_RETRY } from "../../src/adapters/memgraph/client.ts";
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { PegasError } from "../../src/errors.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import { closedPort, CONFLICT_FAILURE } from "../support/bolt-standin.ts";
import { rejectsWith } from "../support/errors.ts";
import { flow, openStandinGraph, runsMatching, type StandinGraph } from "./support.ts";

const change: ProjectionChange = {
  entity: "edge",
  key: "pm_atom_link:1",
  state: { src: "atom:1", dst: "atom:2", kind: "cause", confidence: 0.5, inferred: false, source: "extraction" },
};
const OLD_CONFLICT = { code: "Memgraph.ClientError.MemgraphError.MemgraphError", message: CONFLICT_FAILURE.message };

let t: StandinGraph | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Runs `fn`, returning its duration in ms. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

describe("write conflicts", () => {
  test("a TransientError conflict is retried by the driver, then the transaction commits", async () => {
    t = await openStandinGraph();
    t.standin.failNextRuns(1, CONFLICT_FAILURE, /MERGE/);
    await t.graph.apply([change]);
    expect(runsMatching(t.standin, /MERGE \(a\)-\[e/).length).toBe(2);
    const txs = flow(t.standin).filter((m) => ["BEGIN", "COMMIT", "ROLLBACK"].includes(m));
    expect(txs.filter((m) => m === "BEGIN").length).toBe(2);
    expect(txs.at(-1)).toBe("COMMIT");
  });

  test("the same conflict as a ClientError (Memgraph before 2.12) is retried by the adapter with backoff", async () => {
    t = await openStandinGraph();
    t.standin.failNextRuns(3, OLD_CONFLICT, /MERGE/);
    await t.graph.apply([change]);
    expect(runsMatching(t.standin, /MERGE \(a\)-\[e/).length).toBe(4);
    expect(flow(t.standin).filter((m) => m === "COMMIT").length).toBe(1);
  });

  test("a conflict that never clears ends after the bounded attempts as INDEX_UNAVAILABLE", async () => {
    t = await openStandinGraph();
    t.standin.failNextRuns(100, OLD_CONFLICT, /MERGE/);
    const err = await rejectsWith(t.graph.apply([change]), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("conflicting transactions");
    expect(err.cause).toBeDefined();
    expect(runsMatching(t.standin, /MERGE \(a\)-\[e/).length).toBe(CONFLICT_RETRY.attempts);
    expect(flow(t.standin)).not.toContain("COMMIT");
  });

  test("a query Memgraph rejects is not retried", async () => {
    t = await openStandinGraph([
      {
        match: /MERGE/,
        failure: { code: "Memgraph.ClientError.MemgraphError.MemgraphError", message: "Unbound variable: x" },
      },
    ]);
    const err = await rejectsWith(t.graph.apply([change]), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("rejected apply");
    expect(err.message).toContain("Unbound variable: x");
    expect(runsMatching(t.standin, /MERGE/).length).toBe(1);
  });
});

describe("unreachable", () => {
  // "At once": the timeout is ten minutes, so a call that waited for it would outlast the test's 30 s.
  test("nothing listening: INDEX_UNAVAILABLE at once, naming the URL and MEMGRAPH_URL", async () => {
    const url = `bolt://127.0.0.1:${await closedPort()}`;
    const graph = new MemgraphGraph({ url, timeoutMs: 600_000 });
    try {
      for (const call of [
        () => graph.neighbours({ node: "atom:1" }),
        () => graph.apply([change]),
        () => graph.prepare(),
        () => graph.counts(),
      ]) {
        const err = await rejectsWith(call(), "INDEX_UNAVAILABLE");
        expect(err.message).toContain(url);
        expect(err.hint).toContain("unset MEMGRAPH_URL to use SQL graph reads");
      }
    } finally {
      await graph.close();
    }
  }, 30_000);

  test("a server that drops connections fails fast; once it answers again, calls succeed", async () => {
    t = await openStandinGraph([{ match: /UNION ALL/, rows: [{ entity: "atom", count: 1 }] }], 600_000);
    t.standin.faults.refuse = true;
    await rejectsWith(t.graph.counts(), "INDEX_UNAVAILABLE"); // fast: waiting for the 10-minute timeout would fail the test
    t.standin.faults.refuse = false;
    expect((await t.graph.counts()).atom).toBe(1);
  }, 30_000);

  test("a server that goes away: the next call fails within the driver's retry window, later ones at once", async () => {
    t = await openStandinGraph([{ match: /UNION ALL/, rows: [{ entity: "atom", count: 1 }] }], 1_000);
    expect((await t.graph.counts()).atom).toBe(1);
    await t.standin.stop();
    await rejectsWith(t.graph.counts(), "INDEX_UNAVAILABLE");
    await rejectsWith(t.graph.counts(), "INDEX_UNAVAILABLE");
  }, 30_000);

  test("a server that never answers: INDEX_UNAVAILABLE after the timeout", async () => {
    t = await openStandinGraph([], 400);
    t.standin.faults.hang = true;
    let err: PegasError | undefined;
    const ms = await timed(async () => {
      err = await rejectsWith(t!.graph.neighbours({ node: "atom:1" }), "INDEX_UNAVAILABLE");
    });
    expect(err?.message).toContain("did not answer neighbours");
    expect(err?.hint).toContain("larger timeout");
    expect(ms).toBeGreaterThanOrEqual(350); // it waited for the timeout (a lower bound: a busy host only makes it later)
  });

  test("a URL that is not Bolt is INVALID_INPUT; memgraph:// is taken as bolt://", async () => {
    for (const url of ["http://127.0.0.1:7687", "127.0.0.1:7687", "", "bolt://a b"]) {
      expect(() => new MemgraphGraph({ url })).toThrow(PegasError);
    }
    expect(() => new MemgraphGraph({ url: "bolt://x", timeoutMs: 0 })).toThrow(/timeout/);
    t = await openStandinGraph([{ match: /UNION ALL/, rows: [{ entity: "edge", count: 3 }] }]);
    const aliased = new MemgraphGraph({ url: t.standin.url.replace("bolt://", "memgraph://") });
    try {
      expect((await aliased.counts()).edge).toBe(3);
    } finally {
      await aliased.close();
    }
  });
});
