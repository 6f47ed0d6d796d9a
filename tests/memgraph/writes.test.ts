/**
 * What the Memgraph adapter sends for prepare, apply and reset, as the Bolt stand-in receives it through the real
 * neo4j-driver: statement text (MERGE on stable keys, UNWIND batches, one transaction per apply) and the PackStream
 * type of every parameter (ids and limits are Integers, confidence a Float even when it is 1).
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { OPTIONAL_SCHEMA, REQUIRED_SCHEMA } from "../../src/adapters/memgraph/schema.ts";
import { RESET_BATCH } from "../../src/adapters/memgraph/graph.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import { rejectsWith } from "../support/errors.ts";
import { flow, onlyRun, param, runsMatching, type StandinGraph, suiteStandinGraph } from "./support.ts";

const atom = (id: number, status = "verified"): ProjectionChange => ({
  entity: "atom",
  id,
  state: { type: "fact", status: status as never, docId: 1, confidence: 0.5, lang: "en", vector: null },
});
const link = (key: string, src: string, dst: string, kind = "reference", confidence = 0.5): ProjectionChange => ({
  entity: "edge",
  key,
  state: { src, dst, kind, confidence, inferred: false, source: "extraction" },
});

const suite = suiteStandinGraph();
let t: StandinGraph;
beforeEach(() => {
  t = suite.current;
});

describe("prepare", () => {
  test("creates key indexes, label indexes, uniqueness constraints and the optional edge indexes, each auto-commit", async () => {
    await t.graph.prepare();
    const texts = t.standin.runs.map((r) => r.query);
    expect(texts).toEqual([...REQUIRED_SCHEMA, ...OPTIONAL_SCHEMA].map((s) => s.text));
    expect(texts).toContain("CREATE INDEX ON :Atom(atom_id)");
    expect(texts).toContain("CREATE CONSTRAINT ON (n:CodeSymbol) ASSERT n.symbol_id IS UNIQUE");
    expect(texts).toContain("CREATE INDEX ON :Module(name)");
    expect(texts).toContain("CREATE GLOBAL EDGE INDEX ON :(key)");
    expect(t.standin.runs.every((r) => !r.inTransaction)).toBe(true);
    expect(flow(t.standin)).not.toContain("BEGIN");
  });

  test("is idempotent: 'already exists' is no error, a refused optional index is skipped, a refused required one fails", async () => {
    t.standin.script = [
      {
        match: /^CREATE INDEX ON :Atom\(atom_id\)$/,
        failure: {
          code: "Memgraph.ClientError.MemgraphError.MemgraphError",
          message: "Index on :Atom(atom_id) already exists.",
        },
      },
      {
        match: /GLOBAL EDGE INDEX/,
        failure: {
          code: "Memgraph.ClientError.MemgraphError.MemgraphError",
          message: "line 1:8 mismatched input 'GLOBAL'",
        },
      },
    ];
    await t.graph.prepare();
    expect(t.standin.runs.length).toBe(REQUIRED_SCHEMA.length + OPTIONAL_SCHEMA.length);
    t.standin.script = [
      {
        match: /^CREATE INDEX ON :Document\(doc_id\)$/,
        failure: { code: "Memgraph.ClientError.MemgraphError.MemgraphError", message: "no permission" },
      },
    ];
    const err = await rejectsWith(t.graph.prepare(), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("no permission");
    expect(err.message).toContain(t.standin.url);
  });
});

describe("apply", () => {
  test("node upserts: one UNWIND MERGE per entity on its key, Integer keys, one transaction", async () => {
    await t.graph.apply([
      atom(5),
      { entity: "document", id: 2, state: { uri: "file:///a.txt", title: null, kind: "text" } },
      { entity: "symbol", id: 3, state: { repo: "r", path: "src/a.py", name: "parse", kind: "function" } },
    ]);
    expect(flow(t.standin)).toEqual(["BEGIN", "RUN", "PULL", "RUN", "PULL", "RUN", "PULL", "COMMIT"]);
    const a = onlyRun(t.standin, /MERGE \(n:Atom \{atom_id: row\.key\}\)/);
    expect(a.query).toBe("UNWIND $rows AS row\nMERGE (n:Atom {atom_id: row.key})\nSET n += row.props");
    expect(a.types.rows).toEqual([{ key: "Integer", props: { id: "String", type: "String", status: "String" } }]);
    expect(param(a, "rows")).toEqual([{ key: 5n, props: { id: "atom:5", type: "fact", status: "verified" } }]);
    const d = onlyRun(t.standin, /MERGE \(n:Document \{doc_id: row\.key\}\)/);
    expect(param(d, "rows")).toEqual([
      { key: 2n, props: { id: "doc:2", uri: "file:///a.txt", title: null, kind: "text" } },
    ]);
    const s = onlyRun(t.standin, /MERGE \(n:CodeSymbol \{symbol_id: row\.key\}\)/);
    expect(s.types.rows).toEqual([
      { key: "Integer", props: { id: "String", repo: "String", path: "String", name: "String", kind: "String" } },
    ]);
    expect(t.standin.runs.every((r) => r.inTransaction)).toBe(true);
  });

  test("edge upsert: stale same-key edges removed first, both ends MERGEd by key, the edge MERGEd on key", async () => {
    await t.graph.apply([
      link("pm_atom_link:7", "atom:1", "atom:2", "cause", 1),
      link("pm_atom_symbol_link:2", "atom:1", "symbol:3"),
    ]);
    const removal = onlyRun(t.standin, /DELETE e/);
    expect(removal.query).toContain("WHERE e.key IN $keys AND NOT [e.key, type(e), a.id, b.id] IN $keep");
    expect(param(removal, "keys")).toEqual(["pm_atom_link:7", "pm_atom_symbol_link:2"]);
    expect(param(removal, "keep")).toEqual([
      ["pm_atom_link:7", "RELATES", "atom:1", "atom:2"],
      ["pm_atom_symbol_link:2", "RELATES", "atom:1", "symbol:3"],
    ]);
    const aa = onlyRun(t.standin, /MERGE \(b:Atom/);
    expect(aa.query).toContain("MERGE (a:Atom {atom_id: row.src}) ON CREATE SET a.id = row.src_id");
    expect(aa.query).toContain("MERGE (a)-[e:`RELATES` {key: row.key}]->(b)");
    expect(aa.types.rows).toEqual([
      {
        key: "String",
        src: "Integer",
        src_id: "String",
        dst: "Integer",
        dst_id: "String",
        kind: "String",
        confidence: "Float",
        inferred: "Boolean",
        source: "String",
      },
    ]);
    expect(param(aa, "rows")).toEqual([
      {
        key: "pm_atom_link:7",
        src: 1n,
        src_id: "atom:1",
        dst: 2n,
        dst_id: "atom:2",
        kind: "cause",
        confidence: 1,
        inferred: false,
        source: "extraction",
      },
    ]);
    const as = onlyRun(t.standin, /MERGE \(b:CodeSymbol \{symbol_id: row\.dst\}\)/);
    expect(as.query).toContain("[e:`RELATES` {key: row.key}]");
    expect(runsMatching(t.standin, /UNWIND \$names/)).toEqual([]);
    expect(flow(t.standin).filter((m) => m === "BEGIN" || m === "COMMIT")).toEqual(["BEGIN", "COMMIT"]);
  });

  test("code dependencies: the type is the kind in upper case; module and name ends are keyed by name", async () => {
    await t.graph.apply([
      link("pm_code_dependency:9", "module:app.main", "name:json.loads", "imports"),
      link("pm_code_dependency:4", "symbol:1", "symbol:2", "calls"),
      link("pm_code_dependency:5", "symbol:2", "symbol:3", "depends_on"),
    ]);
    const imports = onlyRun(t.standin, /`IMPORTS`/);
    expect(imports.query).toContain("MERGE (a:Module {name: row.src}) ON CREATE SET a.id = row.src_id");
    expect(imports.query).toContain("MERGE (b:Name {name: row.dst}) ON CREATE SET b.id = row.dst_id");
    expect(imports.types.rows).toEqual([expect.objectContaining({ src: "String", dst: "String" })]);
    expect(onlyRun(t.standin, /`CALLS`/).types.rows).toEqual([
      expect.objectContaining({ src: "Integer", dst: "Integer" }),
    ]);
    expect(onlyRun(t.standin, /`DEPENDS_ON`/).query).toContain("MERGE (a:CodeSymbol {symbol_id: row.src})");
  });

  test("an atom id beyond 2^53 in an edge end arrives as the exact 64-bit Integer", async () => {
    await t.graph.apply([link("pm_atom_link:1", "atom:9007199254740993", "atom:9223372036854775807")]);
    const run = onlyRun(t.standin, /MERGE \(a\)-\[e/);
    expect(run.params.rows).toMatchObject({ type: "List" });
    const row = param(run, "rows") as Array<Record<string, unknown>>;
    expect(row[0].src).toBe(9007199254740993n);
    expect(row[0].dst).toBe(2n ** 63n - 1n);
    expect(run.types.rows).toEqual([expect.objectContaining({ src: "Integer", dst: "Integer" })]);
  });

  test("removals: edges by key, nodes by DETACH DELETE on their key; Module/Name nodes that lost edges are swept", async () => {
    t.standin.script = [
      { match: /DELETE e\nRETURN a\.id AS src/, rows: [{ src: "module:app.main", dst: "name:json.loads" }] },
      { match: /RETURN DISTINCT x\.id AS id/, rows: [{ id: "name:os.path" }, { id: "module:app.main" }] },
    ];
    await t.graph.apply([
      { entity: "edge", key: "pm_code_dependency:9", state: null },
      { entity: "atom", id: 4, state: null },
      atom(6, "retracted"),
      { entity: "symbol", id: 3, state: null },
      { entity: "document", id: 8, state: null },
    ]);
    const removal = onlyRun(t.standin, /DELETE e/);
    expect([param(removal, "keys"), param(removal, "keep")]).toEqual([["pm_code_dependency:9"], []]);
    const atoms = onlyRun(t.standin, /MATCH \(n:Atom \{atom_id: key\}\)\nDETACH DELETE n/);
    expect([atoms.types.keys, param(atoms, "keys")]).toEqual([
      ["Integer", "Integer"],
      [4n, 6n],
    ]);
    expect(param(onlyRun(t.standin, /MATCH \(n:CodeSymbol \{symbol_id: key\}\)\nDETACH DELETE n/), "keys")).toEqual([
      3n,
    ]);
    expect(param(onlyRun(t.standin, /MATCH \(n:Document \{doc_id: key\}\)\nDETACH DELETE n/), "keys")).toEqual([8n]);
    const ends = onlyRun(t.standin, /RETURN DISTINCT x\.id/);
    expect(t.standin.runs.indexOf(ends)).toBeLessThan(
      t.standin.runs.indexOf(runsMatching(t.standin, /CodeSymbol.*\n?DETACH DELETE/s)[0]),
    );
    expect(param(onlyRun(t.standin, /MATCH \(n:Module \{name: name\}\)/), "names")).toEqual(["app.main"]);
    const names = onlyRun(t.standin, /MATCH \(n:Name \{name: name\}\)/);
    expect(names.query).toContain("WHERE degree = 0\nDELETE n");
    expect(param(names, "names")).toEqual(["json.loads", "os.path"]);
  });

  test("a batch naming one entity twice applies its last state; an empty batch sends nothing", async () => {
    await t.graph.apply([atom(5), { entity: "atom", id: 5, state: null }]);
    expect(runsMatching(t.standin, /MERGE/)).toEqual([]);
    expect(param(onlyRun(t.standin, /DETACH DELETE/), "keys")).toEqual([5n]);
    t.standin.clear();
    await t.graph.apply([]);
    expect(t.standin.messages).toEqual([]);
  });

  test("a change that does not fit is INVALID_INPUT before anything is sent", async () => {
    const bad: ProjectionChange[][] = [
      [link("pm_atom_link:x", "atom:1", "atom:2")],
      [link("pm_atom_link:1", "atom:1", "atom:2", "Bad-Kind")],
      [link("pm_atom_link:1", "atom:01", "atom:2")],
      [link("pm_atom_link:1", "atom:1", "node:2")],
      [link("pm_atom_link:1", "atom:1", "atom:99999999999999999999")],
      [link("pm_atom_link:1", "atom:1", "atom:2", "cause", Number.NaN)],
      [{ entity: "atom", id: 1.5, state: null }],
      [{ entity: "atom", id: 0, state: null }],
      [{ entity: "symbol", id: 2, state: { repo: 1 as never, path: "p", name: "n", kind: "k" } }],
    ];
    for (const changes of bad) await rejectsWith(t.graph.apply(changes), "INVALID_INPUT");
    expect(t.standin.runs).toEqual([]);
  });
});

describe("reset", () => {
  test("deletes relationships, then nodes, in batches with an Integer LIMIT until a short batch; then prepares", async () => {
    let edgeBatches = 0;
    t.standin.script = [
      {
        match: /MATCH \(\)-\[e\]->\(\)\nWITH e LIMIT \$batch/,
        rows: () => [{ deleted: ++edgeBatches < 3 ? RESET_BATCH : 7 }],
      },
      { match: /MATCH \(n\)\nWITH n LIMIT \$batch\nDETACH DELETE n/, rows: [{ deleted: 0 }] },
    ];
    await t.graph.reset();
    const edgeRuns = runsMatching(t.standin, /WITH e LIMIT \$batch/);
    expect(edgeRuns.length).toBe(3);
    expect(
      edgeRuns.every(
        (r) => r.inTransaction && r.types.batch === "Integer" && param(r, "batch") === BigInt(RESET_BATCH),
      ),
    ).toBe(true);
    expect(runsMatching(t.standin, /WITH n LIMIT \$batch/).length).toBe(1);
    const last = t.standin.runs.at(-1);
    expect(last?.query).toBe(OPTIONAL_SCHEMA.at(-1)?.text);
    expect(t.standin.runs.indexOf(runsMatching(t.standin, /WITH n LIMIT/)[0])).toBeLessThan(
      t.standin.runs.findIndex((r) => r.query.startsWith("CREATE INDEX")),
    );
  });
});
