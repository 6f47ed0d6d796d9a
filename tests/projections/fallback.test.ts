/**
 * Reads that degrade: the breaker of src/adapters/fallback/ sends reads to the embedded engine while the primary
 * fails, says so, skips the primary during the cool-down, tries it again after, and never hides the caller's own
 * errors. Engines here are small in-memory fakes with a switch.
 */
import { describe, expect, test } from "bun:test";
import { FallbackRead } from "../../src/adapters/fallback/breaker.ts";
import { FallbackGraphStore } from "../../src/adapters/fallback/graph-store.ts";
import { FallbackVectorIndex } from "../../src/adapters/fallback/vector-index.ts";
import { PegasError } from "../../src/errors.ts";
import type { GraphStore, Subgraph } from "../../src/ports/projections/graph-store.ts";
import type { VectorIndex } from "../../src/ports/projections/vector-index.ts";
import { rejectsWith } from "../support/errors.ts";

function fakeIndex(name: string, atomId: number): VectorIndex & { down: boolean; calls: number } {
  return {
    name,
    model: "m",
    dim: 2,
    down: false,
    calls: 0,
    async count() {
      return 1;
    },
    async upsert() {},
    async delete() {},
    async search() {
      this.calls++;
      if (this.down) throw new PegasError("INDEX_UNAVAILABLE", `cannot reach ${name}`);
      return [{ atomId, score: 0.9 }];
    },
  };
}

function fakeGraph(name: string): GraphStore & { down: boolean } {
  const sub = (node: string): Subgraph => ({
    root: node,
    nodes: [{ id: node, label: "Atom", props: { atom_id: 1 }, distance: 0 }],
    edges: [],
    truncated: false,
  });
  return {
    name,
    down: false,
    async neighbours(q) {
      if (this.down) throw new PegasError("INDEX_UNAVAILABLE", `cannot reach ${name}`);
      if (q.node === "atom:404") throw new PegasError("NOT_FOUND", "no node atom:404");
      return sub(q.node);
    },
    async shortestPath() {
      if (this.down) throw new PegasError("INDEX_UNAVAILABLE", "down");
      return null;
    },
    async counters() {
      if (this.down) throw new PegasError("INDEX_UNAVAILABLE", "down");
      return { nodes: { Atom: 1 }, edges: {} };
    },
  };
}

describe("FallbackRead breaker", () => {
  test("falls back, skips the primary during the cool-down, then tries it again", async () => {
    let now = 1000;
    const primary = { up: false };
    const read = new FallbackRead(
      primary,
      { up: true },
      { primary: "p", fallback: "f" },
      () => false,
      30_000,
      () => now,
    );
    let primaryCalls = 0;
    const fn = async (e: { up: boolean }) => {
      if (e === primary) primaryCalls++;
      if (!e.up) throw new PegasError("INDEX_UNAVAILABLE", "p is down");
      return e === primary ? "primary" : "fallback";
    };
    expect(await read.run(fn)).toEqual({ value: "fallback", degraded: "p unavailable (p is down); answered by f" });
    now += 10_000;
    expect((await read.run(fn)).value).toBe("fallback");
    expect(primaryCalls).toBe(1);
    expect(read.degraded).toBe(true);
    primary.up = true;
    now += 25_000;
    expect(await read.run(fn)).toEqual({ value: "primary", degraded: null });
    expect(read.degraded).toBe(false);
  });

  test("without a fallback, and for CANCELLED or the caller's errors, the error propagates", async () => {
    const alone = new FallbackRead({}, null, { primary: "p", fallback: "none" }, () => false);
    await rejectsWith(
      alone.run(async () => {
        throw new PegasError("INDEX_UNAVAILABLE", "down");
      }),
      "INDEX_UNAVAILABLE",
    );
    const read = new FallbackRead({}, {}, { primary: "p", fallback: "f" }, (e) => e.code === "INVALID_INPUT");
    await rejectsWith(
      read.run(async () => {
        throw new PegasError("CANCELLED", "stop");
      }),
      "CANCELLED",
    );
    await rejectsWith(
      read.run(async () => {
        throw new PegasError("INVALID_INPUT", "bad id");
      }),
      "INVALID_INPUT",
    );
    expect(read.degraded).toBe(false);
  });
});

describe("FallbackVectorIndex and FallbackGraphStore", () => {
  test("a vector search answered by the embedded index says so; writes go to the primary only", async () => {
    const qdrant = fakeIndex("qdrant", 1);
    const embedded = fakeIndex("embedded-flat", 2);
    const index = new FallbackVectorIndex(qdrant, embedded);
    expect(await index.searchReporting(new Float32Array(2), 1)).toEqual({
      hits: [{ atomId: 1, score: 0.9 }],
      degraded: null,
    });
    qdrant.down = true;
    const r = await index.searchReporting(new Float32Array(2), 1);
    expect(r.hits).toEqual([{ atomId: 2, score: 0.9 }]);
    expect(r.degraded).toBe("qdrant unavailable (cannot reach qdrant); answered by embedded-flat");
    expect(index.name).toBe("qdrant");
  });

  test("graph reads go to SQL while Memgraph is down; NOT_FOUND is the caller's and is not hidden", async () => {
    const memgraph = fakeGraph("memgraph");
    const sql = fakeGraph("sql");
    const graph = new FallbackGraphStore(memgraph, sql);
    expect((await graph.neighbours({ node: "atom:1" })).degraded).toBeUndefined();
    await rejectsWith(graph.neighbours({ node: "atom:404" }), "NOT_FOUND");
    memgraph.down = true;
    expect((await graph.neighbours({ node: "atom:1" })).degraded).toContain("answered by sql");
    expect((await graph.counters()).degraded).toContain("memgraph unavailable");
    expect(await graph.shortestPath({ from: "atom:1", to: "atom:2" })).toBeNull();
  });
});
