/**
 * The Cypher of the graph reads. Traversal uses Memgraph's built-in breadth-first expansion
 * `(a)-[hops *BFS ..$depth (e, n | filter)]-(m)` (memgraph.com/docs/advanced-algorithms/deep-path-traversal): from
 * one source it yields each reachable node once, with a shortest list of relationships `hops`; its bounds are
 * evaluated at run time and must be Integers, so they are parameters. The filter lambda carries the kind and
 * inferred filters and keeps retracted atoms out, so they are never hops. Literals in the text: labels and key
 * properties (model.ts) and the arrow of the direction; everything else is a parameter.
 */
import type { Direction } from "../../ports/projections/graph-store.ts";
import { boltInt } from "./bolt-values.ts";
import type { Statement } from "./client.ts";
import type { NodeKey } from "./model.ts";

/** The edge filters of a query: an empty `kinds` allows every kind. */
export interface EdgeFilter {
  kinds: string[];
  includeInferred: boolean;
}

/** The columns every node read returns: typed id, labels, properties. */
const NODE_COLUMNS = (v: string) => `${v}.id AS id, labels(${v}) AS labels, properties(${v}) AS props`;

/** A map literal of an edge `e` from `a` to `b` as returned: key, ends, kind, confidence, inferred, source. */
const EDGE_MAP = (e: string, src: string, dst: string) =>
  `{key: ${e}.key, src: ${src}.id, dst: ${dst}.id, kind: ${e}.kind, confidence: ${e}.confidence, inferred: ${e}.inferred, source: ${e}.source}`;

const LIVE = (n: string) => `coalesce(${n}.status, '') <> 'retracted'`;

/** The edge conditions of a filter on relationship `e` (empty when every edge passes). */
function edgeConditions(e: string, f: EdgeFilter): string[] {
  return [
    ...(f.kinds.length > 0 ? [`${e}.kind IN $kinds`] : []),
    ...(f.includeInferred ? [] : [`${e}.inferred = false`]),
  ];
}

/** The parameters of a filter: `kinds` only when it restricts. */
function filterParams(f: EdgeFilter): Record<string, unknown> {
  return f.kinds.length > 0 ? { kinds: f.kinds } : {};
}

/** A relationship pattern in `direction` around `inner`: -[…]->, <-[…]- or -[…]-. */
function arrow(direction: Direction, inner: string): [string, string] {
  if (direction === "out") return ["-[", `${inner}]->`];
  if (direction === "in") return ["<-[", `${inner}]-`];
  return ["-[", `${inner}]-`];
}

/** `(<v>:Label {key: $<param>})` — a lookup by the label's key property. */
export function nodePattern(v: string, k: NodeKey, param: string): string {
  return `(${v}:${k.label} {${k.prop}: $${param}})`;
}

/** The BFS expansion from `a` to `m` within `$<bound>` hops under the filter. */
function bfs(direction: Direction, bound: string, f: EdgeFilter): string {
  const lambda = `(e, n | ${[...edgeConditions("e", f), LIVE("n")].join(" AND ")})`;
  const [open, close] = arrow(direction, `hops *BFS ..$${bound} ${lambda}`);
  return `(a)${open}${close}(m)`;
}

/** The node with key `k` if it exists and is live: one row of NODE_COLUMNS, or none. */
export function nodeLookup(k: NodeKey): Statement {
  return {
    text: `MATCH ${nodePattern("a", k, "key")}\nWHERE ${LIVE("a")}\nRETURN ${NODE_COLUMNS("a")}`,
    params: { key: k.key },
  };
}

/**
 * The nodes reached from `root` within `depth`, ordered by (distance, id) — Memgraph orders strings by their UTF-8
 * bytes, which is code-point order — and cut at `cut` rows (one more than kept tells truncation).
 */
export function reachStatement(
  root: NodeKey,
  direction: Direction,
  depth: number,
  f: EdgeFilter,
  cut: number,
): Statement {
  return {
    text: [
      `MATCH ${nodePattern("a", root, "key")}`,
      `MATCH ${bfs(direction, "depth", f)}`,
      `RETURN ${NODE_COLUMNS("m")}, size(hops) AS distance`,
      "ORDER BY distance, id",
      "LIMIT $cut",
    ].join("\n"),
    params: { key: root.key, depth: boltInt(depth), cut: boltInt(cut), ...filterParams(f) },
  };
}

/**
 * Every edge the filter allows between two of `nodes` (found from its source, one UNION ALL branch per label
 * present, each an index lookup by key), as rows with one column `edge`; null when `nodes` is empty.
 */
export function inducedEdgesStatement(nodes: NodeKey[], f: EdgeFilter): Statement | null {
  const byLabel = new Map<string, NodeKey[]>();
  for (const k of nodes) byLabel.set(k.label, [...(byLabel.get(k.label) ?? []), k]);
  const params: Record<string, unknown> = { ids: nodes.map((k) => k.id), ...filterParams(f) };
  const branches = [...byLabel.values()].map((ks, i) => {
    params[`keys${i}`] = ks.map((k) => k.key);
    const where = ["b.id IN $ids", ...edgeConditions("e", f)].join(" AND ");
    return `UNWIND $keys${i} AS key\nMATCH (a:${ks[0].label} {${ks[0].prop}: key})-[e]->(b)\nWHERE ${where}\nRETURN ${EDGE_MAP("e", "a", "b")} AS edge`;
  });
  return branches.length === 0 ? null : { text: branches.join("\nUNION ALL\n"), params };
}

/**
 * One BFS level: the nodes exactly `depth` hops from `start` travelling `travel` under the filter (rows `id`).
 * Memgraph's BFS yields each node once at its least hop count, so filtering on the count gives the level.
 */
export function levelStatement(start: NodeKey, travel: Direction, depth: number, f: EdgeFilter): Statement {
  return {
    text: `MATCH ${nodePattern("a", start, "key")}\nMATCH ${bfs(travel, "depth", f)}\nWHERE size(hops) = $depth\nRETURN m.id AS id`,
    params: { key: start.key, depth: boltInt(depth), ...filterParams(f) },
  };
}

/**
 * The live neighbours `p` one step from `cur` travelling `travel` (`out`: along an edge, `in`: against one, `both`:
 * either), with the edge between them as stored (rows: NODE_COLUMNS of p, `edge`).
 */
export function stepStatement(cur: NodeKey, travel: Direction, f: EdgeFilter): Statement {
  const [open, close] = arrow(travel, "e");
  const where = [...edgeConditions("e", f), LIVE("p")].join(" AND ");
  return {
    text: `MATCH ${nodePattern("c", cur, "key")}${open}${close}(p)\nWHERE ${where}\nRETURN ${NODE_COLUMNS("p")}, ${EDGE_MAP("e", "startNode(e)", "endNode(e)")} AS edge`,
    params: { key: cur.key, ...filterParams(f) },
  };
}

/** Nodes by label set (rows `labels`, `count`), then live edges by kind and inferred (rows `kind`, `inferred`, `count`). */
export const COUNTER_STATEMENTS: Statement[] = [
  { text: `MATCH (n)\nWHERE ${LIVE("n")}\nRETURN labels(n) AS labels, count(n) AS count`, params: {} },
  {
    text: `MATCH (a)-[e]->(b)\nWHERE ${LIVE("a")} AND ${LIVE("b")}\nRETURN e.kind AS kind, coalesce(e.inferred, false) AS inferred, count(e) AS count`,
    params: {},
  },
];

/** What the projection holds per entity (rows `entity`, `count`): one aggregate per branch, so zero rows count 0. */
export const COUNTS_STATEMENT: Statement = {
  text: [
    "MATCH (n:Atom) RETURN 'atom' AS entity, count(n) AS count",
    "UNION ALL MATCH (n:Document) RETURN 'document' AS entity, count(n) AS count",
    "UNION ALL MATCH (n:CodeSymbol) RETURN 'symbol' AS entity, count(n) AS count",
    "UNION ALL MATCH (n:Entity) RETURN 'entity' AS entity, count(n) AS count",
    "UNION ALL MATCH ()-[e]->() RETURN 'edge' AS entity, count(e) AS count",
  ].join("\n"),
  params: {},
};
