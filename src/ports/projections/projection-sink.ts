/**
 * ProjectionSink port: an external projection fed by the outbox worker (Qdrant for vectors, Memgraph for the graph).
 * The worker hands it the CURRENT canonical state of each changed entity (null when the entity is gone or retracted),
 * never the event's own payload, so applying is idempotent and order-insensitive: a replay, a duplicate or an
 * out-of-order event leaves the projection equal to the canonical tables. Errors are PegasError INDEX_UNAVAILABLE
 * (unreachable: the worker retries with backoff) or INVALID_INPUT (a contract violation such as a dimension
 * mismatch, which retrying cannot fix).
 */
import type { AtomPayload } from "./vector-index.ts";
import type { GraphEdgeState, NodeId } from "./graph-store.ts";

/** An atom as projected: its payload and its vector of the sink's model (null when it has none yet). */
export interface AtomState extends AtomPayload {
  vector: Float32Array | null;
}

/** A document node. */
export interface DocumentState {
  uri: string;
  title: string | null;
  kind: string;
}

/** A code symbol node (issue 6 fills the table). */
export interface SymbolState {
  repo: string;
  path: string;
  name: string;
  kind: string;
}

/**
 * An entity node (issue 22): a root entity. One merged into another is no node (its state is null); its mentions are
 * edges to the root.
 */
export interface EntityState {
  kind: string;
  name: string;
  key: string;
}

/**
 * One resolved change: the entity's key and its current state, or null to remove it. Edge keys are
 * `<origin table>:<row id>` as in the `pm_edge` view (`pm_atom_link:12`); an edge whose endpoint atom is retracted
 * resolves to null.
 */
export type ProjectionChange =
  | { entity: "atom"; id: number; state: AtomState | null }
  | { entity: "document"; id: number; state: DocumentState | null }
  | { entity: "symbol"; id: number; state: SymbolState | null }
  | { entity: "entity"; id: number; state: EntityState | null }
  | { entity: "edge"; key: string; state: (GraphEdgeState & { src: NodeId; dst: NodeId }) | null };

/** Entity counts a projection holds, by the same names as {@link ProjectionChange.entity} (drift = canonical − these). */
export type ProjectionCounts = Partial<Record<ProjectionChange["entity"], number>>;

/** An external projection. */
export interface ProjectionSink {
  /** `qdrant` or `memgraph`, for stats, logs and dead-letter messages. */
  readonly name: string;
  /** Which entities it projects (the worker skips the others for it). */
  readonly entities: ReadonlySet<ProjectionChange["entity"]>;
  /** Readies the target (collection, indexes, constraints); idempotent. A dimension mismatch is INVALID_INPUT. */
  prepare(): Promise<void>;
  /**
   * Applies resolved changes idempotently. The worker orders them: node upserts, edge upserts, edge removals, node
   * removals; a sink may batch within that order.
   */
  apply(changes: ProjectionChange[]): Promise<void>;
  /** Removes everything it holds and prepares again (for `rebuild`). */
  reset(): Promise<void>;
  /** What it holds, per entity kind it projects. */
  counts(): Promise<ProjectionCounts>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** A sink that projects edges is a graph projection; one that projects only atoms is a vector projection. */
export function isGraphSink(sink: Pick<ProjectionSink, "entities">): boolean {
  return sink.entities.has("edge");
}

/**
 * The canonical counts a sink should hold, from OutboxStore.canonicalCounts: per entity it projects, with atoms of a
 * vector projection counted only when they have a vector of its model (`atom_vectors`).
 */
export function expectedCounts(
  sink: Pick<ProjectionSink, "entities">,
  canonical: Record<string, number>,
): ProjectionCounts {
  const out: ProjectionCounts = {};
  for (const e of sink.entities) out[e] = e === "atom" && !isGraphSink(sink) ? canonical.atom_vectors : canonical[e];
  return out;
}
