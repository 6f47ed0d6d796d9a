/**
 * GraphStore contract: every graph adapter (recursive SQL, Memgraph) answers the same queries over the graph of
 * tests/support/graph-fixture.ts with exactly the same nodes, orders, edges and errors. Ids in the expectations are
 * the fixture's fixed ids (atoms A=1 … E=10, path atoms P1=11 … P7=17; see the fixture's header for the edges).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Database } from "../../src/adapters/sql/database.ts";
import type {
  GraphEdge,
  GraphNode,
  GraphStore,
  NeighbourQuery,
  ReachedNode,
  Subgraph,
} from "../../src/ports/projections/graph-store.ts";
import { contractSuite, type SkipReason } from "../support/contract.ts";
import { rejectsWith } from "../support/errors.ts";
import { openGraphTestDatabase, seedGraph, type SeededGraph } from "../support/graph-fixture.ts";

export type { SeededGraph } from "../support/graph-fixture.ts";

/** Gives the adapter under test over the seeded database (an external projection loads `seeded.changes`). */
export type OpenGraph = (db: Database, seeded: SeededGraph) => Promise<OpenedGraph>;

/** What `open` returns: the adapter under test, and how to release it (the database is the suite's). */
export type OpenedGraph = { graph: GraphStore; dispose(): Promise<void> };

/** The suite's state, set in beforeAll: the adapter under test and what the fixture seeded. */
type Ctx = { g: GraphStore; seeded: SeededGraph };

const L = (...ids: number[]) => ids.map((i) => `pm_atom_link:${i}`);
const AS = (...ids: number[]) => ids.map((i) => `pm_atom_symbol_link:${i}`);
const CD = (...ids: number[]) => ids.map((i) => `pm_code_dependency:${i}`);
/** Nodes as [id, distance] pairs, in order; edges as keys, in order. */
const reach = (s: Subgraph) => s.nodes.map((n) => [n.id, n.distance]);
const keys = (edges: GraphEdge[]) => edges.map((e) => e.key);
/** [id, distance] pairs: argument d lists the ids at distance d in their expected order. */
const levels = (...lv: string[][]) => lv.flatMap((ids, d) => ids.map((id) => [id, d]));

/** Helpers over the suite state: a neighbours call, and the fixture's own copy of an edge (read through pm_edge). */
function helpers(ctx: Ctx) {
  return {
    nb: (q: NeighbourQuery) => ctx.g.neighbours(q),
    edge: (key: string): GraphEdge => {
      const c = ctx.seeded.changes.find((x) => x.entity === "edge" && x.key === key);
      if (c?.entity !== "edge" || !c.state) throw new Error(`fixture has no live edge ${key}`);
      return { key, ...c.state };
    },
  };
}

/**
 * Registers the contract for one adapter on one backend: a fresh database of `backend` is migrated and seeded,
 * then `open(db, seeded)` gives the adapter (an external one loads `seeded.changes` first). `skip`, a probe's reason
 * (tests/support/contract.ts), skips the suite and prints why.
 */
export function graphStoreContract(
  name: string,
  backend: "postgres" | "pglite",
  open: OpenGraph,
  skip: SkipReason = null,
): void {
  contractSuite(`GraphStore contract: ${name} on ${backend}`, skip, () => {
    const ctx = {} as Ctx;
    let closeDb: () => Promise<void> = async () => {};
    let opened: OpenedGraph | undefined;
    beforeAll(async () => {
      const t = await openGraphTestDatabase(backend);
      closeDb = t.dispose;
      ctx.seeded = await seedGraph(t.db);
      opened = await open(t.db, ctx.seeded);
      ctx.g = opened.graph;
    }, 120_000);
    afterAll(async () => {
      await opened?.dispose();
      await closeDb();
    }, 60_000);
    shapeCases(ctx);
    directionCases(ctx);
    filterCases(ctx);
    visibilityCases(ctx);
    errorCases(ctx);
    pathCases(ctx);
    counterCases(ctx);
  });
}

/** Cases: the fixture as projection changes, cycles, code-point order. */
function shapeCases(ctx: Ctx): void {
  const { nb, edge } = helpers(ctx);
  test("seeded changes hold every live node and edge, nothing retracted", () => {
    const count = (e: string) => ctx.seeded.changes.filter((c) => c.entity === e).length;
    expect([count("atom"), count("document"), count("symbol"), count("edge")]).toEqual([16, 2, 4, 31]);
    expect(edge("pm_atom_link:4")).toEqual({
      key: "pm_atom_link:4",
      src: "atom:3",
      dst: "atom:4",
      kind: "depends_on",
      confidence: 0.5,
      inferred: true,
      source: "inference",
    });
    expect(ctx.seeded.changes.find((c) => c.entity === "atom" && c.id === 1)).toEqual({
      entity: "atom",
      id: 1,
      state: { type: "text", status: "verified", docId: 1, confidence: 0.625, lang: "ru", vector: null },
    });
  });

  test("cycles terminate: every node once, at its least distance", async () => {
    const s = await nb({ node: "symbol:1", direction: "out", depth: 5 });
    expect(reach(s)).toEqual(levels(["symbol:1"], ["name:json.loads", "symbol:2"], ["symbol:3"], ["name:Дом.строить"]));
    expect(keys(s.edges)).toEqual(CD(1, 2, 4, 5, 7));
    const all = await nb({ node: "atom:1", depth: 5 });
    expect([all.nodes.length, reach(all).slice(13)]).toEqual([
      15,
      [
        ["name:os.path", 4],
        ["name:Дом.строить", 4],
      ],
    ]);
  });

  test("ordering is by code point, not UTF-16 unit (U+FF5A before U+1D538)", async () => {
    const s = await nb({ node: "module:app.util", direction: "out" });
    expect(s.nodes).toEqual([
      { id: "module:app.util", label: "Module", props: { name: "app.util" }, distance: 0 },
      { id: "name:parse", label: "Name", props: { name: "parse" }, distance: 1 },
      { id: "name:ｚ", label: "Name", props: { name: "ｚ" }, distance: 1 },
      { id: "name:𝔸", label: "Name", props: { name: "𝔸" }, distance: 1 },
    ]);
    expect(keys(s.edges)).toEqual(CD(10, 8, 9));
  });
}

/** Cases: depth 1–3 in each direction, with node properties and induced edges. */
function directionCases(ctx: Ctx): void {
  const { nb, edge } = helpers(ctx);
  test("depth 1, 2, 3 out: nodes by distance, then id in code-point order; induced edges by key", async () => {
    const d1 = await nb({ node: "atom:1", direction: "out" });
    expect(d1).toEqual({
      root: "atom:1",
      nodes: [
        { id: "atom:1", label: "Atom", props: { atom_id: 1, type: "text", status: "verified" }, distance: 0 },
        { id: "atom:2", label: "Atom", props: { atom_id: 2, type: "definition", status: "candidate" }, distance: 1 },
        { id: "atom:3", label: "Atom", props: { atom_id: 3, type: "fact", status: "contested" }, distance: 1 },
      ],
      edges: [edge("pm_atom_link:1"), edge("pm_atom_link:12"), edge("pm_atom_link:2")],
      truncated: false,
    });
    const d2 = await nb({ node: "atom:1", direction: "out", depth: 2 });
    expect(reach(d2)).toEqual(levels(["atom:1"], ["atom:2", "atom:3"], ["atom:4", "symbol:2"]));
    expect(keys(d2.edges)).toEqual([...L(1, 12, 2, 3, 4, 5), ...AS(2)]);
    const d3 = await nb({ node: "atom:1", direction: "out", depth: 3 });
    expect(reach(d3)).toEqual(levels(["atom:1"], ["atom:2", "atom:3"], ["atom:4", "symbol:2"], ["atom:5", "symbol:3"]));
    expect(keys(d3.edges)).toEqual([...L(1, 12, 2, 3, 4, 5, 9), ...AS(2), ...CD(2)]);
    expect(d3.nodes.at(-1)).toEqual({
      id: "symbol:3",
      label: "CodeSymbol",
      distance: 3,
      props: { symbol_id: 3, repo: "parser", path: "src/лексер.py", name: "tokenize", kind: "method" },
    });
  });

  test("depth 1, 2, 3 in", async () => {
    const d1 = await nb({ node: "atom:1", direction: "in" });
    expect(reach(d1)).toEqual(levels(["atom:1"], ["atom:10", "atom:4"]));
    expect(keys(d1.edges)).toEqual(L(5, 6));
    const d2 = await nb({ node: "atom:1", direction: "in", depth: 2 });
    expect(reach(d2)).toEqual(levels(["atom:1"], ["atom:10", "atom:4"], ["atom:2", "atom:3", "atom:9"]));
    expect(keys(d2.edges)).toEqual(L(1, 12, 13, 2, 3, 4, 5, 6));
    const d3 = await nb({ node: "atom:1", direction: "in", depth: 3 });
    expect(reach(d3)).toEqual(levels(["atom:1"], ["atom:10", "atom:4"], ["atom:2", "atom:3", "atom:9"], ["atom:8"]));
    expect(keys(d3.edges)).toEqual(L(1, 11, 12, 13, 2, 3, 4, 5, 6));
  });

  test("depth 1, 2, 3 both (the default direction), across labels", async () => {
    const d1 = await nb({ node: "atom:1" });
    expect(reach(d1)).toEqual(levels(["atom:1"], ["atom:10", "atom:2", "atom:3", "atom:4"]));
    expect(keys(d1.edges)).toEqual(L(1, 12, 2, 3, 4, 5, 6));
    const d2 = await nb({ node: "atom:1", direction: "both", depth: 2 });
    expect(reach(d2)).toEqual(
      levels(["atom:1"], ["atom:10", "atom:2", "atom:3", "atom:4"], ["atom:5", "atom:9", "symbol:1", "symbol:2"]),
    );
    expect(keys(d2.edges)).toEqual([...L(1, 12, 13, 2, 3, 4, 5, 6, 9), ...AS(1, 2), ...CD(1)]);
    const d3 = await nb({ node: "atom:1", depth: 3 });
    const d3levels = [
      ["atom:5", "atom:9", "symbol:1", "symbol:2"],
      ["atom:8", "module:app.main", "name:json.loads", "symbol:3"],
    ];
    expect(reach(d3)).toEqual(levels(["atom:1"], ["atom:10", "atom:2", "atom:3", "atom:4"], ...d3levels));
    expect(keys(d3.edges)).toEqual([...L(1, 10, 11, 12, 13, 2, 3, 4, 5, 6, 9), ...AS(1, 2), ...CD(1, 2, 3, 4, 7)]);
    const main: ReachedNode = { id: "module:app.main", label: "Module", props: { name: "app.main" }, distance: 3 };
    expect([d3.nodes.find((n) => n.id === "module:app.main"), d3.truncated]).toEqual([main, false]);
  });
}

/** Cases: kinds, inferred and limit filters. */
function filterCases(ctx: Ctx): void {
  const { nb } = helpers(ctx);
  test("kinds filter: only edges of those kinds are followed and returned", async () => {
    const ref = await nb({ node: "atom:1", depth: 2, kinds: ["reference"] });
    expect(reach(ref)).toEqual(levels(["atom:1"], ["atom:10", "atom:2"], ["atom:9"]));
    expect(keys(ref.edges)).toEqual(L(1, 13, 6));
    const two = await nb({ node: "atom:1", depth: 3, kinds: ["contradicts", "cause"] });
    expect(reach(two)).toEqual(levels(["atom:1"], ["atom:3", "atom:4"]));
    expect(keys(two.edges)).toEqual(L(2, 5));
    expect(reach(await nb({ node: "atom:1", kinds: [] }))).toEqual(reach(await nb({ node: "atom:1" })));
  });

  test("includeInferred false drops inferred edges from the walk and from the induced edges", async () => {
    const withInf = await nb({ node: "atom:3", direction: "out" });
    expect(reach(withInf)).toEqual(levels(["atom:3"], ["atom:4", "symbol:2"]));
    expect(keys(withInf.edges)).toEqual([...L(4), ...AS(2)]);
    const noInf = await nb({ node: "atom:3", direction: "out", includeInferred: false });
    expect(reach(noInf)).toEqual(levels(["atom:3"], ["symbol:2"]));
    expect(keys(noInf.edges)).toEqual(AS(2));
    const d2 = await nb({ node: "atom:1", direction: "out", depth: 2, includeInferred: false });
    expect(reach(d2)).toEqual(levels(["atom:1"], ["atom:2", "atom:3"], ["atom:4", "symbol:2"]));
    expect(keys(d2.edges)).toEqual([...L(1, 2, 3, 5), ...AS(2)]);
  });

  test("limit cuts the ordered nodes and sets truncated; edges only between kept nodes", async () => {
    const three = await nb({ node: "atom:1", depth: 2, limit: 3 });
    expect(reach(three)).toEqual(levels(["atom:1"], ["atom:10", "atom:2"]));
    expect([keys(three.edges), three.truncated]).toEqual([L(1, 6), true]);
    expect((await nb({ node: "atom:1", depth: 2, limit: 9 })).truncated).toBe(false);
    const eight = await nb({ node: "atom:1", depth: 2, limit: 8 });
    expect([eight.truncated, eight.nodes.at(-1)?.id]).toEqual([true, "symbol:1"]);
    const four = await nb({ node: "atom:1", depth: 3, limit: 4 });
    expect([reach(four), four.truncated]).toEqual([levels(["atom:1"], ["atom:10", "atom:2", "atom:3"]), true]);
    const five = await nb({ node: "atom:1", depth: 3, limit: 5 });
    expect([reach(five), five.truncated]).toEqual([
      levels(["atom:1"], ["atom:10", "atom:2", "atom:3", "atom:4"]),
      true,
    ]);
    const one = await nb({ node: "atom:1", limit: 1 });
    expect([reach(one), one.edges, one.truncated]).toEqual([[["atom:1", 0]], [], true]);
  });
}

/** Cases: retracted and unknown nodes, names and modules. */
function visibilityCases(ctx: Ctx): void {
  const { nb } = helpers(ctx);
  test("retracted atoms and documents are no nodes, not even as intermediate hops", async () => {
    const all = await nb({ node: "atom:1", depth: 5, limit: 1000 });
    for (const hidden of ["atom:6", "atom:7"]) expect(all.nodes.map((n) => n.id)).not.toContain(hidden);
    expect(keys(all.edges)).not.toContain("pm_atom_link:7");
    const g7: ReachedNode = {
      id: "atom:7",
      label: "Atom",
      props: { atom_id: 7, type: "text", status: "candidate" },
      distance: 0,
    };
    expect(await nb({ node: "atom:7", depth: 5 })).toEqual({
      root: "atom:7",
      nodes: [g7],
      edges: [],
      truncated: false,
    });
    const s3 = await nb({ node: "symbol:3", direction: "in" });
    expect([reach(s3), keys(s3.edges)]).toEqual([levels(["symbol:3"], ["symbol:2"]), CD(2)]);
    const doc: ReachedNode = {
      id: "doc:1",
      label: "Document",
      props: { doc_id: 1, uri: "file:///notes/ward6.txt" },
      distance: 0,
    };
    expect((await nb({ node: "doc:1", depth: 3 })).nodes).toEqual([doc]);
    for (const node of ["atom:6", "atom:18", "doc:3"]) await rejectsWith(nb({ node }), "NOT_FOUND");
  });

  test("names and modules: resolved endpoints are symbols, not names", async () => {
    const s = await nb({ node: "name:json.loads", direction: "in", depth: 2 });
    expect(reach(s)).toEqual(levels(["name:json.loads"], ["symbol:1"], ["atom:10", "module:app.main", "symbol:3"]));
    expect(keys(s.edges)).toEqual([...AS(1), ...CD(3, 4, 7)]);
    const parse = await nb({ node: "name:parse", direction: "in", depth: 2 });
    expect([reach(parse), keys(parse.edges)]).toEqual([levels(["name:parse"], ["module:app.util"]), CD(10)]);
    const main = await nb({ node: "module:app.main", direction: "out" });
    expect([reach(main), keys(main.edges)]).toEqual([
      levels(["module:app.main"], ["name:os.path", "symbol:1"]),
      CD(3, 6),
    ]);
    expect((await nb({ node: "symbol:4" })).nodes.map((n) => n.id)).toEqual(["symbol:4"]);
    for (const node of ["module:app.parse", "name:Лексер"]) await rejectsWith(nb({ node }), "NOT_FOUND");
  });

  test("unknown nodes are NOT_FOUND", async () => {
    for (const node of ["atom:999", "symbol:999", "doc:999", "module:nope", "name:nope"])
      await rejectsWith(nb({ node }), "NOT_FOUND");
    await rejectsWith(ctx.g.shortestPath({ from: "atom:11", to: "atom:999" }), "NOT_FOUND");
    await rejectsWith(ctx.g.shortestPath({ from: "atom:18", to: "atom:14" }), "NOT_FOUND");
  });
}

/** Cases: input validation. */
function errorCases(ctx: Ctx): void {
  const { nb } = helpers(ctx);
  test("malformed ids, depth, limit, maxDepth, kinds, direction are INVALID_INPUT", async () => {
    const badIds = [
      "",
      "atom",
      "atom:",
      "atom:abc",
      "atom:0",
      "atom:01",
      "atom:-1",
      "atom:1.5",
      "atom:99999999999999999999",
      "Atom:1",
      "node:1",
      "module:",
      "name:",
    ];
    for (const node of badIds) await rejectsWith(nb({ node }), "INVALID_INPUT");
    const badQueries: Partial<NeighbourQuery>[] = [
      { depth: 0 },
      { depth: 6 },
      { depth: 1.5 },
      { limit: 0 },
      { limit: 1001 },
      { limit: 2.5 },
      { kinds: ["Cause"] },
      { kinds: ["a-b"] },
      { kinds: [""] },
      { kinds: ["x".repeat(65)] },
      { direction: "up" as never },
    ];
    for (const q of badQueries) await rejectsWith(nb({ node: "atom:1", ...q }), "INVALID_INPUT");
    for (const maxDepth of [0, 11, 2.5])
      await rejectsWith(ctx.g.shortestPath({ from: "atom:11", to: "atom:14", maxDepth }), "INVALID_INPUT");
    await rejectsWith(ctx.g.shortestPath({ from: "atom:x", to: "atom:14" }), "INVALID_INPUT");
    await rejectsWith(ctx.g.shortestPath({ from: "atom:11", to: "atom:14", kinds: ["BAD"] }), "INVALID_INPUT");
  });
}

/** Cases: shortest paths. */
function pathCases(ctx: Ctx): void {
  const { edge } = helpers(ctx);
  test("shortest path: fewest edges, the filters respected, retracted shortcuts never used", async () => {
    const p = (...ids: number[]) => ids.map((i) => `atom:${i}`);
    const path = await ctx.g.shortestPath({ from: "atom:11", to: "atom:14" });
    expect(path?.nodes.map((n) => n.id)).toEqual(p(11, 12, 14));
    expect(path?.edges).toEqual([edge("pm_atom_link:14"), edge("pm_atom_link:23")]);
    expect(path?.nodes[2]).toEqual({
      id: "atom:14",
      label: "Atom",
      props: { atom_id: 14, type: "fact", status: "verified" },
    });
    const ext = await ctx.g.shortestPath({ from: "atom:11", to: "atom:14", includeInferred: false });
    expect([ext?.nodes.map((n) => n.id), ext && keys(ext.edges)]).toEqual([p(11, 12, 13, 14), L(14, 15, 16)]);
    const cause = await ctx.g.shortestPath({ from: "atom:11", to: "atom:14", kinds: ["cause"] });
    expect([cause?.nodes.map((n) => n.id), cause && keys(cause.edges)]).toEqual([
      p(11, 15, 16, 17, 14),
      L(17, 18, 19, 20),
    ]);
    const back = await ctx.g.shortestPath({ from: "atom:14", to: "atom:11", direction: "in" });
    expect([back?.nodes.map((n) => n.id), back?.edges]).toEqual([
      p(14, 12, 11),
      [edge("pm_atom_link:23"), edge("pm_atom_link:14")],
    ]);
  });

  test("shortest path across labels and directions", async () => {
    const code = await ctx.g.shortestPath({ from: "atom:10", to: "name:Дом.строить" });
    expect(code?.nodes.map((n) => n.id)).toEqual(["atom:10", "symbol:1", "symbol:2", "symbol:3", "name:Дом.строить"]);
    expect(code && keys(code.edges)).toEqual([...AS(1), ...CD(1, 2, 5)]);
    expect(code?.nodes[2].props).toEqual({
      symbol_id: 2,
      repo: "parser",
      path: "src/лексер.py",
      name: "Лексер",
      kind: "class",
    });
    const both = await ctx.g.shortestPath({ from: "module:app.main", to: "atom:10", direction: "both" });
    expect([both?.nodes.map((n) => n.id), both && keys(both.edges)]).toEqual([
      ["module:app.main", "symbol:1", "atom:10"],
      [...CD(3), ...AS(1)],
    ]);
  });

  test("shortest path: none within maxDepth or no path is null; from = to is one node", async () => {
    expect(await ctx.g.shortestPath({ from: "atom:11", to: "atom:14", kinds: ["cause"], maxDepth: 3 })).toBeNull();
    expect(
      await ctx.g.shortestPath({ from: "atom:11", to: "atom:14", includeInferred: false, maxDepth: 2 }),
    ).toBeNull();
    expect(await ctx.g.shortestPath({ from: "atom:14", to: "atom:11" })).toBeNull();
    expect(await ctx.g.shortestPath({ from: "atom:7", to: "atom:1", direction: "both", maxDepth: 10 })).toBeNull();
    const p13: GraphNode = { id: "atom:13", label: "Atom", props: { atom_id: 13, type: "fact", status: "candidate" } };
    expect(await ctx.g.shortestPath({ from: "atom:13", to: "atom:13" })).toEqual({ nodes: [p13], edges: [] });
    expect((await ctx.g.shortestPath({ from: "atom:11", to: "atom:14", maxDepth: 2 }))?.nodes.length).toBe(3);
  });
}

/** Cases: counters. */
function counterCases(ctx: Ctx): void {
  test("counters: live nodes by label, live edges by kind split extracted / inferred", async () => {
    expect(await ctx.g.counters()).toEqual({
      nodes: { Atom: 16, Document: 2, CodeSymbol: 4, Module: 2, Name: 6 },
      edges: {
        calls: { extracted: 4, inferred: 1 },
        cause: { extracted: 6, inferred: 0 },
        contradicts: { extracted: 1, inferred: 0 },
        defines: { extracted: 1, inferred: 0 },
        depends_on: { extracted: 2, inferred: 1 },
        imports: { extracted: 4, inferred: 0 },
        inference: { extracted: 0, inferred: 1 },
        inherits: { extracted: 1, inferred: 0 },
        reference: { extracted: 8, inferred: 1 },
      },
    });
  });
}
