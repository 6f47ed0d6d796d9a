/**
 * GraphStore port: read queries over the one edge relation of DESIGN.md (atom links, atom–symbol links, code
 * dependencies) on typed node ids. Adapters: recursive SQL over the canonical tables (src/adapters/sql/graph/graph.ts,
 * the embedded default) and Memgraph over Bolt (src/adapters/memgraph/). Both answer the same queries with the same
 * results (tests/contract/graph-store.contract.ts). Retracted atoms are not nodes, and their edges are not edges.
 * Errors: PegasError INVALID_INPUT (bad node id, depth, limit), NOT_FOUND (unknown node), INDEX_UNAVAILABLE
 * (Memgraph unreachable), STORE_UNAVAILABLE.
 */

/**
 * A typed node id: `atom:<id>`, `symbol:<id>`, `doc:<id>`, `module:<name>` (a dependency's source module) or
 * `name:<name>` (an unresolved dependency target).
 */
export type NodeId = string;

/** Node labels; `Atom`, `CodeSymbol` and `Document` are the Memgraph labels of the issue. */
export type NodeLabel = "Atom" | "CodeSymbol" | "Document" | "Entity" | "Module" | "Name";

/**
 * A node with the properties both adapters return: Atom {atom_id, type, status}; CodeSymbol {symbol_id, repo, path,
 * name, kind}; Document {doc_id, uri}; Entity {entity_id, kind, name}; Module and Name {name}.
 */
export interface GraphNode {
  id: NodeId;
  label: NodeLabel;
  props: Record<string, string | number | null>;
}

/** Properties of an edge (`:RELATES {kind, confidence, inferred, source}` in Memgraph). */
export interface GraphEdgeState {
  kind: string;
  confidence: number;
  inferred: boolean;
  source: string;
}

/** An edge: its stable key (`<origin table>:<row id>`), endpoints and properties. */
export interface GraphEdge extends GraphEdgeState {
  key: string;
  src: NodeId;
  dst: NodeId;
}

/** Which way edges are followed from a node. */
export type Direction = "out" | "in" | "both";

/** A neighbourhood query. Defaults: direction both, depth 1 (max 5), inferred edges included, limit 100 (max 1000). */
export interface NeighbourQuery {
  node: NodeId;
  kinds?: string[];
  direction?: Direction;
  depth?: number;
  includeInferred?: boolean;
  limit?: number;
}

/** A node reached from the root and its hop count. */
export interface ReachedNode extends GraphNode {
  distance: number;
}

/**
 * The nodes reached from `root` within the depth (the root itself at distance 0), ordered by (distance, id in
 * code-point order) and cut at `limit` (then `truncated`), with every edge between two returned nodes that the
 * query's kind and inferred filters allow (the induced subgraph), ordered by key.
 */
export interface Subgraph {
  root: NodeId;
  nodes: ReachedNode[];
  edges: GraphEdge[];
  truncated: boolean;
  /** Set by the fallback reader when SQL answered because the primary engine failed: the reason. */
  degraded?: string;
}

/** A shortest-path query; `maxDepth` defaults to 6 (max 10); direction defaults to `out`. */
export interface PathQuery {
  from: NodeId;
  to: NodeId;
  kinds?: string[];
  direction?: Direction;
  includeInferred?: boolean;
  maxDepth?: number;
}

/** A shortest path: its nodes from `from` to `to` and the edges between consecutive ones. */
export interface GraphPath {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** As in {@link Subgraph.degraded}. */
  degraded?: string;
}

/** Counters: nodes by label, edges by kind split into extracted and inferred. */
export interface GraphCounters {
  nodes: Partial<Record<NodeLabel, number>>;
  edges: Record<string, { extracted: number; inferred: number }>;
  /** As in {@link Subgraph.degraded}. */
  degraded?: string;
}

/** Graph reads. */
export interface GraphStore {
  /** `sql` or `memgraph`. */
  readonly name: string;
  /** The neighbourhood of a node. NOT_FOUND when the node does not exist. */
  neighbours(q: NeighbourQuery): Promise<Subgraph>;
  /** One shortest path (fewest edges), or null when none within `maxDepth`. NOT_FOUND for an unknown endpoint. */
  shortestPath(q: PathQuery): Promise<GraphPath | null>;
  /** Nodes by label and edges by kind. */
  counters(): Promise<GraphCounters>;
}
