/**
 * Graph reads of the Memgraph adapter against the Bolt stand-in: the Cypher sent for neighbours, shortestPath,
 * counters and counts (BFS bounds, LIMIT and keys as Integers, the direction's arrow, the filter lambda), and the
 * scripted records mapped back into the port's shapes (order by distance then code point, truncation, edges by key).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { BoltScriptEntry, RecordedRun } from "../support/bolt-standin.ts";
import { rejectsWith } from "../support/errors.ts";
import { int, toJs } from "../support/packstream.ts";
import { onlyRun, param, runsMatching, type StandinGraph, suiteStandinGraph } from "./support.ts";

const LOOKUP = /^MATCH \(a:\w+ \{\w+: \$key\}\)\nWHERE coalesce\(a\.status, ''\) <> 'retracted'\nRETURN a\.id AS id/;
const REACH = /\*BFS \.\.\$depth[\s\S]*ORDER BY distance, id\nLIMIT \$cut$/;
const INDUCED = /^UNWIND \$keys0 AS key/;

const atomRow = (id: number, extra: Record<string, unknown> = {}) => ({
  id: `atom:${id}`,
  labels: ["Atom"],
  props: { atom_id: id, type: "fact", status: "verified", id: `atom:${id}` },
  ...extra,
});
const nameRow = (name: string, distance: number) => ({
  id: `name:${name}`,
  labels: ["Name"],
  props: { name, id: `name:${name}` },
  distance,
});
const edgeMap = (key: string, src: string, dst: string, confidence: number = 0.5) => ({
  key,
  src,
  dst,
  kind: "reference",
  confidence,
  inferred: false,
  source: "extraction",
});
const keyOf = (run: RecordedRun) => toJs(run.params.key);
/** The node a lookup asks for: an atom for an Integer key, a module for a string key. */
const lookedUp = (run: RecordedRun) => {
  const key = keyOf(run);
  return typeof key === "string"
    ? { id: `module:${key}`, labels: ["Module"], props: { name: key } }
    : atomRow(Number(key));
};

const suite = suiteStandinGraph();
let t: StandinGraph;
beforeEach(() => {
  t = suite.current;
});

describe("neighbours", () => {
  const script = (reach: Record<string, unknown>[], edges: Record<string, unknown>[] = []): BoltScriptEntry[] => [
    { match: LOOKUP, rows: (run) => [lookedUp(run)] },
    { match: REACH, rows: reach, fields: ["id", "labels", "props", "distance"] },
    { match: INDUCED, rows: edges.map((edge) => ({ edge })), fields: ["edge"] },
  ];

  test("BFS with Integer depth, cut and key; the filter lambda; induced edges looked up by key per label", async () => {
    t.standin.script = script([atomRow(2, { distance: 1 }), nameRow("json.loads", 2)]);
    await t.graph.neighbours({
      node: "atom:1",
      depth: 3,
      limit: 50,
      direction: "out",
      kinds: ["reference", "cause"],
      includeInferred: false,
    });
    const lookup = onlyRun(t.standin, LOOKUP);
    expect([lookup.types.key, param(lookup, "key")]).toEqual(["Integer", 1n]);
    const reach = onlyRun(t.standin, REACH);
    expect(reach.query).toContain(
      "MATCH (a:Atom {atom_id: $key})\nMATCH (a)-[hops *BFS ..$depth (e, n | e.kind IN $kinds AND e.inferred = false AND coalesce(n.status, '') <> 'retracted')]->(m)",
    );
    expect(reach.types).toEqual({ key: "Integer", depth: "Integer", cut: "Integer", kinds: ["String", "String"] });
    expect([param(reach, "depth"), param(reach, "cut")]).toEqual([3n, 50n]);
    const induced = onlyRun(t.standin, INDUCED);
    expect(induced.query.split("\nUNION ALL\n").length).toBe(2);
    expect(induced.query).toContain(
      "MATCH (a:Atom {atom_id: key})-[e]->(b)\nWHERE b.id IN $ids AND e.kind IN $kinds AND e.inferred = false",
    );
    expect(induced.query).toContain("UNWIND $keys1 AS key\nMATCH (a:Name {name: key})-[e]->(b)");
    expect(induced.types).toEqual({
      ids: ["String", "String", "String"],
      kinds: ["String", "String"],
      keys0: ["Integer", "Integer"],
      keys1: ["String"],
    });
    expect(t.standin.runs.every((r) => r.inTransaction)).toBe(true);
    expect(t.standin.messages.find((m) => m.name === "BEGIN")?.fields[0]).toMatchObject({ mode: "r" });
  });

  test("direction is the arrow; no filter means a plain node filter; defaults are depth 1, limit 100", async () => {
    t.standin.script = script([]);
    await t.graph.neighbours({ node: "module:app.main", direction: "in" });
    await t.graph.neighbours({ node: "atom:4" });
    const [inRun, bothRun] = runsMatching(t.standin, REACH);
    expect(inRun.query).toContain(
      "MATCH (a:Module {name: $key})\nMATCH (a)<-[hops *BFS ..$depth (e, n | coalesce(n.status, '') <> 'retracted')]-(m)",
    );
    expect(inRun.types).toEqual({ key: "String", depth: "Integer", cut: "Integer" });
    expect([param(inRun, "depth"), param(inRun, "cut")]).toEqual([1n, 100n]);
    expect(bothRun.query).toContain(
      "MATCH (a:Atom {atom_id: $key})\nMATCH (a)-[hops *BFS ..$depth (e, n | coalesce(n.status, '') <> 'retracted')]-(m)",
    );
  });

  test("records map to nodes ordered by distance then code point, cut at the limit, edges by key", async () => {
    t.standin.script = script(
      [nameRow("𝔸", 1), nameRow("ｚ", 1), atomRow(10, { distance: 1 }), atomRow(9, { distance: 2 })],
      [
        edgeMap("pm_atom_link:2", "atom:1", "atom:10", 1),
        edgeMap("pm_atom_link:12", "atom:10", "atom:1"),
        edgeMap("pm_atom_link:1", "atom:1", "name:ｚ"),
      ],
    );
    const s = await t.graph.neighbours({ node: "atom:1", depth: 2, limit: 4 });
    expect(s.root).toBe("atom:1");
    expect(s.nodes.map((n) => [n.id, n.distance])).toEqual([
      ["atom:1", 0],
      ["atom:10", 1],
      ["name:ｚ", 1],
      ["name:𝔸", 1],
    ]);
    expect(s.nodes[0]).toEqual({
      id: "atom:1",
      label: "Atom",
      props: { atom_id: 1, type: "fact", status: "verified" },
      distance: 0,
    });
    expect(s.nodes[2]).toEqual({ id: "name:ｚ", label: "Name", props: { name: "ｚ" }, distance: 1 });
    expect(s.truncated).toBe(true);
    expect(s.edges.map((e) => e.key)).toEqual(["pm_atom_link:1", "pm_atom_link:12", "pm_atom_link:2"]);
    expect(s.edges[2]).toEqual({
      key: "pm_atom_link:2",
      src: "atom:1",
      dst: "atom:10",
      kind: "reference",
      confidence: 1,
      inferred: false,
      source: "extraction",
    });
    expect(param(onlyRun(t.standin, INDUCED), "ids")).toEqual(["atom:1", "atom:10", "name:ｚ", "name:𝔸"]);
    const whole = await t.graph.neighbours({ node: "atom:1", depth: 2, limit: 5 });
    expect([whole.nodes.length, whole.truncated]).toEqual([5, false]);
  });

  test("limit 1 asks for one row and is truncated when the root has a neighbour", async () => {
    t.standin.script = script([atomRow(2, { distance: 1 })]);
    const s = await t.graph.neighbours({ node: "atom:1", limit: 1 });
    expect([s.nodes.map((n) => n.id), s.truncated]).toEqual([["atom:1"], true]);
    expect(param(runsMatching(t.standin, REACH)[0], "cut")).toBe(1n);
  });

  test("an unknown node is NOT_FOUND; bad input is INVALID_INPUT before anything is sent", async () => {
    t.standin.script = [{ match: LOOKUP, rows: [], fields: ["id", "labels", "props"] }];
    const err = await rejectsWith(t.graph.neighbours({ node: "doc:3" }), "NOT_FOUND");
    expect(err.message).toContain("doc:3");
    expect(runsMatching(t.standin, REACH)).toEqual([]);
    t.standin.clear();
    for (const q of [
      { node: "atom:01" },
      { node: "atom:1", depth: 6 },
      { node: "atom:1", limit: 1001 },
      { node: "atom:1", kinds: ["Bad"] },
      { node: "x:1" },
    ]) {
      await rejectsWith(t.graph.neighbours(q), "INVALID_INPUT");
    }
    expect(t.standin.runs).toEqual([]);
  });

  test("a node whose id does not fit its label is refused as a damaged projection", async () => {
    t.standin.script = [{ match: LOOKUP, rows: [{ id: "symbol:1", labels: ["Atom"], props: { atom_id: 1 } }] }];
    expect((await rejectsWith(t.graph.neighbours({ node: "atom:1" }), "INDEX_UNAVAILABLE")).message).toContain(
      '"symbol:1" and label Atom',
    );
  });

  test("an Integer beyond 2^53 coming back is refused by name and exact value", async () => {
    t.standin.script = [
      {
        match: LOOKUP,
        rows: [
          {
            id: "atom:1",
            labels: ["Atom"],
            props: { atom_id: int(9007199254740993n), type: "fact", status: "verified" },
          },
        ],
      },
    ];
    const err = await rejectsWith(t.graph.neighbours({ node: "atom:1" }), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("atom_id of atom:1 = 9007199254740993");
  });
});

describe("shortestPath", () => {
  const LEVEL = /\nWHERE size\(hops\) = \$depth\nRETURN m\.id AS id$/;
  const STEP = /^MATCH \(c:Atom \{atom_id: \$key\}\)/;
  const travel = (q: string) => (q.includes("<-[") ? "in" : q.includes("]->(") ? "out" : "both");
  // out: 1→2 (twice: keys 1 and 10), 1→3, 2→4, 3→4, 5→4. BFS levels: from 1 at depth 1 {2, 3}; from 4 against the
  // edges at depth 1 {3, 2, 5}.
  const levels: Record<string, string[]> = {
    "1:1:out": ["atom:2", "atom:3"],
    "4:1:in": ["atom:3", "atom:2", "atom:5"],
  };
  const steps: Record<string, Record<string, unknown>[]> = {
    "2:in": [
      { ...atomRow(1), edge: edgeMap("pm_atom_link:10", "atom:1", "atom:2") },
      { ...atomRow(1), edge: edgeMap("pm_atom_link:1", "atom:1", "atom:2") },
    ],
    "2:out": [
      { ...atomRow(5), edge: edgeMap("pm_atom_link:3", "atom:2", "atom:5") },
      { ...atomRow(4), edge: edgeMap("pm_atom_link:8", "atom:2", "atom:4") },
    ],
  };
  const script = (): BoltScriptEntry[] => [
    {
      match: LOOKUP,
      rows: (run) => (keyOf(run) === 99n ? [] : [atomRow(Number(keyOf(run)))]),
      fields: ["id", "labels", "props"],
    },
    {
      match: LEVEL,
      rows: (run) =>
        (levels[`${keyOf(run)}:${toJs(run.params.depth)}:${travel(run.query)}`] ?? []).map((id) => ({ id })),
      fields: ["id"],
    },
    {
      match: STEP,
      rows: (run) => steps[`${keyOf(run)}:${travel(run.query)}`] ?? [],
      fields: ["id", "labels", "props", "edge"],
    },
  ];

  test("bidirectional: the smaller frontier grows; the least meeting id; least id, then key, on the walk", async () => {
    t.standin.script = script();
    const path = await t.graph.shortestPath({ from: "atom:1", to: "atom:4", kinds: ["reference"] });
    expect(path?.nodes.map((n) => n.id)).toEqual(["atom:1", "atom:2", "atom:4"]);
    expect(path?.edges.map((e) => e.key)).toEqual(["pm_atom_link:1", "pm_atom_link:8"]);
    const lv = runsMatching(t.standin, LEVEL);
    expect(lv.map((r) => [param(r, "key"), param(r, "depth"), travel(r.query)])).toEqual([
      [1n, 1n, "out"],
      [4n, 1n, "in"],
    ]);
    expect(lv[0].query).toBe(
      "MATCH (a:Atom {atom_id: $key})\nMATCH (a)-[hops *BFS ..$depth (e, n | e.kind IN $kinds AND coalesce(n.status, '') <> 'retracted')]->(m)\nWHERE size(hops) = $depth\nRETURN m.id AS id",
    );
    expect(lv[1].types).toEqual({ key: "Integer", depth: "Integer", kinds: ["String"] });
    const st = runsMatching(t.standin, STEP);
    expect(st.map((r) => [param(r, "key"), travel(r.query)])).toEqual([
      [2n, "in"],
      [2n, "out"],
    ]);
    expect(st[0].query).toContain(
      "(c:Atom {atom_id: $key})<-[e]-(p)\nWHERE e.kind IN $kinds AND coalesce(p.status, '') <> 'retracted'",
    );
    expect(st[0].query).toContain("{key: e.key, src: startNode(e).id, dst: endNode(e).id");
    expect(runsMatching(t.standin, LOOKUP).map((r) => param(r, "key"))).toEqual([1n, 4n, 2n]);
  });

  test("direction in walks the same edges backwards, returned as stored", async () => {
    t.standin.script = script();
    const path = await t.graph.shortestPath({ from: "atom:4", to: "atom:1", direction: "in" });
    expect(path?.nodes.map((n) => n.id)).toEqual(["atom:4", "atom:2", "atom:1"]);
    expect(path?.edges.map((e) => [e.key, e.src, e.dst])).toEqual([
      ["pm_atom_link:8", "atom:2", "atom:4"],
      ["pm_atom_link:1", "atom:1", "atom:2"],
    ]);
    expect(runsMatching(t.standin, LEVEL).map((r) => [param(r, "key"), travel(r.query)])).toEqual([
      [4n, "in"],
      [1n, "out"],
    ]);
  });

  test("maxDepth bounds fd + bd; a side with nothing left ends the search: null", async () => {
    t.standin.script = script();
    expect(await t.graph.shortestPath({ from: "atom:1", to: "atom:4", maxDepth: 1 })).toBeNull();
    expect(runsMatching(t.standin, LEVEL).length).toBe(1);
    t.standin.clear();
    expect(await t.graph.shortestPath({ from: "atom:1", to: "atom:6" })).toBeNull();
    expect(runsMatching(t.standin, LEVEL).map((r) => [param(r, "key"), travel(r.query)])).toEqual([
      [1n, "out"],
      [6n, "in"],
    ]);
    expect(runsMatching(t.standin, STEP)).toEqual([]);
  });

  test("from = to is the node alone; an unknown end is NOT_FOUND; bad maxDepth is INVALID_INPUT", async () => {
    t.standin.script = script();
    expect(await t.graph.shortestPath({ from: "atom:4", to: "atom:4" })).toEqual({
      nodes: [{ id: "atom:4", label: "Atom", props: { atom_id: 4, type: "fact", status: "verified" } }],
      edges: [],
    });
    expect(runsMatching(t.standin, LEVEL)).toEqual([]);
    expect((await rejectsWith(t.graph.shortestPath({ from: "atom:1", to: "atom:99" }), "NOT_FOUND")).message).toContain(
      "atom:99",
    );
    await rejectsWith(t.graph.shortestPath({ from: "atom:1", to: "atom:4", maxDepth: 11 }), "INVALID_INPUT");
  });
});

describe("counters and counts", () => {
  test("counters: live nodes by label, edges by kind split by inferred", async () => {
    t.standin.script = [
      {
        match: /RETURN labels\(n\) AS labels, count\(n\) AS count/,
        rows: [
          { labels: ["Atom"], count: 16 },
          { labels: ["Name"], count: 6 },
          { labels: ["Other"], count: 3 },
        ],
      },
      {
        match: /RETURN e\.kind AS kind/,
        rows: [
          { kind: "calls", inferred: false, count: 4 },
          { kind: "calls", inferred: true, count: 1 },
          { kind: "inference", inferred: true, count: 1 },
        ],
      },
    ];
    expect(await t.graph.counters()).toEqual({
      nodes: { Atom: 16, Name: 6 },
      edges: { calls: { extracted: 4, inferred: 1 }, inference: { extracted: 0, inferred: 1 } },
    });
  });

  test("counts: one UNION ALL of five aggregates", async () => {
    t.standin.script = [
      {
        match: /UNION ALL MATCH \(\)-\[e\]->\(\)/,
        rows: [
          { entity: "atom", count: 16 },
          { entity: "document", count: 2 },
          { entity: "symbol", count: 0 },
          { entity: "entity", count: 3 },
          { entity: "edge", count: 31 },
        ],
      },
    ];
    expect(await t.graph.counts()).toEqual({ atom: 16, document: 2, symbol: 0, entity: 3, edge: 31 });
    expect(t.standin.runs[0].query.split("\n")).toEqual([
      "MATCH (n:Atom) RETURN 'atom' AS entity, count(n) AS count",
      "UNION ALL MATCH (n:Document) RETURN 'document' AS entity, count(n) AS count",
      "UNION ALL MATCH (n:CodeSymbol) RETURN 'symbol' AS entity, count(n) AS count",
      "UNION ALL MATCH (n:Entity) RETURN 'entity' AS entity, count(n) AS count",
      "UNION ALL MATCH ()-[e]->() RETURN 'edge' AS entity, count(e) AS count",
    ]);
  });
});
