/**
 * memory_query_graph tool: neighbours and subgraphs of a node, a shortest path between two nodes, or the graph's
 * counters, over the one edge relation (atom links, atom–symbol links, code dependencies; extracted and inferred),
 * through the GraphStore port: Memgraph when configured (SQL when it is down, said in `degraded`), else SQL.
 */
import { z } from "zod";
import { invalidInput } from "../../../errors.ts";
import { oneLine } from "../../render.ts";
import { id, responseFormat } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { GRAPH_LIMITS, type Direction, type GraphEdge, type GraphNode, type Services } from "../../../core/services.ts";
import { conciseQueryGraph, DEFAULT_NODES, NODE_CLAIM_CHARS, renderQueryGraph } from "./render-graph.ts";

const nodeId = z.union([
  z
    .string()
    .min(3)
    .max(GRAPH_LIMITS.nameLength + 7),
  id,
]);
const node = z.object({
  id: z.string(),
  label: z.enum(["Atom", "CodeSymbol", "Document", "Entity", "Module", "Name"]),
  props: z
    .record(z.string(), z.union([z.string(), z.number(), z.null()]))
    .describe(
      "Atom {atom_id, type, status}; CodeSymbol {symbol_id, repo, path, name, kind}; Document {doc_id, uri}; Entity {entity_id, kind, name}; Module/Name {name}",
    ),
  claim: z.string().optional().describe("an atom's claim (at most 160 characters)"),
});
const edge = z.object({
  key: z.string().optional().describe("<origin table>:<row id>"),
  src: z.string(),
  dst: z.string(),
  kind: z.string(),
  confidence: z.number().optional(),
  inferred: z.boolean().optional().describe("derived by memory_infer"),
  source: z.string().optional(),
});

/** Input of the tool (see inputSchema). */
interface QueryGraphArgs {
  node?: string | number;
  from?: string | number;
  to?: string | number;
  kinds?: string[];
  direction?: Direction;
  depth?: number;
  include_inferred?: boolean;
  limit?: number;
}

const typed = (v: string | number): string => (typeof v === "number" ? `atom:${v}` : v);
const nodeOut = (n: GraphNode) => ({ id: n.id, label: n.label, props: n.props });
const edgeOut = (e: GraphEdge) => ({
  key: e.key,
  src: e.src,
  dst: e.dst,
  kind: e.kind,
  confidence: e.confidence,
  inferred: e.inferred,
  source: e.source,
});

/** `nodes` with the claims of their atoms (retracted atoms are not in the graph; a missing one keeps no claim). */
async function withClaims<N extends { id: string }>(
  services: Services,
  nodes: N[],
): Promise<Array<N & { claim?: string }>> {
  const ids = nodes.filter((n) => n.id.startsWith("atom:")).map((n) => Number(n.id.slice(5)));
  if (ids.length === 0) return nodes;
  const claims = new Map((await services.atomReads.atomsByIds(ids, 0)).map((a) => [`atom:${a.id}`, a.claim]));
  return nodes.map((n) => {
    const claim = claims.get(n.id);
    return claim ? { ...n, claim: oneLine(claim, NODE_CLAIM_CHARS) } : n;
  });
}

/** Graph queries: neighbours (`node`), shortest path (`from` + `to`), counters (neither). */
export const memoryQueryGraph: ToolDef = {
  name: "memory_query_graph",
  title: "Query the graph",
  description:
    "Walk the graph of atoms, entities and code symbols: {node} a neighbourhood, {from, to} a shortest path, {} counts.",
  details:
    "Query the graph of atoms, code symbols and documents. Three modes: `{node}` returns the node's neighbourhood " +
    `(depth 1..${GRAPH_LIMITS.depth.max}, default 1; direction out|in|both, default both; at most \`limit\` nodes, ` +
    `default ${DEFAULT_NODES}) with every edge between the returned nodes; \`{from, to}\` returns one ` +
    `shortest path (fewest edges, up to ${GRAPH_LIMITS.maxDepth.max} hops, direction default out) or null; \`{}\` ` +
    "returns counters: nodes by label, edges by kind split into extracted and inferred. `kinds` filters edge kinds " +
    "(contradicts, supports, depends_on, imports, calls, defines, …); `include_inferred: false` hides edges derived " +
    "by memory_infer. Retracted atoms are not in the graph. A node is an atom id (a number or atom:<id>), a code " +
    "symbol (symbol:<id>, from memory_search_code) or an entity (entity:<id>, from memory_get {entity}): an entity's " +
    "`mentions` edges lead to the atoms that name it, depth 2 to the entities named beside it. An atom has one " +
    "`mentions` edge per entity it names (keyed by its first mention), however often and under whichever merged " +
    "names; an entity merged into another is no node: its mentions are the other's, and naming it queries that " +
    "entity (`root` says which). Undoing the merge gives both their own mentions again.",
  fieldDetails: {
    from: "path mode: the start",
    to: "path mode: the end",
    direction: "follow edges out of, into, or both ways (default both; out for a path)",
    include_inferred: "follow inferred edges too (default true)",
    limit: "most nodes in a neighbourhood",
  },
  inputSchema: {
    node: nodeId.optional().describe("atom id, or symbol|doc|entity:<id>, module|name:<name>"),
    from: nodeId.optional(),
    to: nodeId.optional(),
    kinds: z.array(z.string()).max(GRAPH_LIMITS.kinds).optional().describe("edge kinds; default all"),
    direction: z.enum(["out", "in", "both"]).optional(),
    depth: z
      .number()
      .int()
      .min(1)
      .max(GRAPH_LIMITS.maxDepth.max)
      .optional()
      .describe(`neighbourhood ≤ ${GRAPH_LIMITS.depth.max}`),
    include_inferred: z.boolean().optional(),
    limit: z.number().int().min(1).max(GRAPH_LIMITS.limit.max).optional(),
    response_format: responseFormat,
  },
  outputSchema: {
    mode: z.enum(["neighbours", "path", "counters"]),
    root: z.string().optional(),
    nodes: z.array(node.extend({ distance: z.number().int().optional() })).optional(),
    edges: z.array(edge).optional(),
    edges_total: z.number().int().optional().describe("edges in all when the list is cut (concise: 50)"),
    truncated: z.boolean().optional().describe("neighbourhood cut at `limit`"),
    found: z.boolean().optional().describe("path mode: whether a path exists within the depth"),
    counters: z
      .object({
        nodes: z.record(z.string(), z.number().int()),
        edges: z.record(z.string(), z.object({ extracted: z.number().int(), inferred: z.number().int() })),
      })
      .optional(),
    degraded: z.string().optional().describe("present when the configured graph engine was down and SQL answered"),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, raw) => {
    const a = raw as QueryGraphArgs;
    const filters = { kinds: a.kinds, direction: a.direction, includeInferred: a.include_inferred };
    if (a.node !== undefined) {
      if (a.from !== undefined || a.to !== undefined)
        throw invalidInput(
          "give either `node` or `from` and `to`, not both",
          "node = neighbourhood; from + to = shortest path",
        );
      const g = await services.graph.neighbours({
        node: typed(a.node),
        ...filters,
        depth: a.depth,
        limit: a.limit ?? DEFAULT_NODES,
      });
      return {
        mode: "neighbours",
        root: g.root,
        nodes: await withClaims(
          services,
          g.nodes.map((n) => ({ ...nodeOut(n), distance: n.distance })),
        ),
        edges: g.edges.map(edgeOut),
        truncated: g.truncated,
        ...(g.degraded ? { degraded: g.degraded } : {}),
      };
    }
    if (a.from !== undefined || a.to !== undefined) {
      if (a.from === undefined || a.to === undefined) throw invalidInput("a path needs both `from` and `to`");
      if (a.limit !== undefined) throw invalidInput("`limit` applies to a neighbourhood, not to a path");
      const p = await services.graph.shortestPath({
        from: typed(a.from),
        to: typed(a.to),
        ...filters,
        maxDepth: a.depth,
      });
      return {
        mode: "path",
        found: p !== null,
        nodes: await withClaims(services, p?.nodes.map(nodeOut) ?? []),
        edges: p?.edges.map(edgeOut) ?? [],
        ...(p?.degraded ? { degraded: p.degraded } : {}),
      };
    }
    if (a.kinds || a.direction || a.depth !== undefined || a.include_inferred !== undefined || a.limit !== undefined) {
      throw invalidInput("counters take no filters", "give `node` for a neighbourhood or `from` and `to` for a path");
    }
    const c = await services.graph.counters();
    return {
      mode: "counters",
      counters: { nodes: c.nodes as Record<string, number>, edges: c.edges },
      ...(c.degraded ? { degraded: c.degraded } : {}),
    };
  },
  render: renderQueryGraph,
  concise: conciseQueryGraph,
};
