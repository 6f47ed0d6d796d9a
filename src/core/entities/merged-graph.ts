/**
 * Graph reads that follow entity merges (issue 22): an entity merged into another is no graph node (its mentions are
 * edges of the root it was merged into), so a query naming it — an id kept from before the merge — is answered for
 * that root instead of NOT_FOUND: `memory_query_graph {node: "entity:5"}` after entity 5 was merged into entity 3
 * answers with root `entity:3`. Every other node id, and an unknown entity, goes to the graph as given.
 */
import { PegasError } from "../../errors.ts";
import type { EntityStore } from "../../ports/entities.ts";
import type {
  GraphCounters,
  GraphPath,
  GraphStore,
  NeighbourQuery,
  NodeId,
  PathQuery,
  Subgraph,
} from "../../ports/projections/graph-store.ts";

const ENTITY_ID = /^entity:([1-9]\d{0,14})$/u;

/** The root after merges of an `entity:<id>` node id; any other id (or an unknown entity) unchanged. */
async function rootNode(entities: Pick<EntityStore, "rootOf">, node: NodeId): Promise<NodeId> {
  const m = typeof node === "string" ? ENTITY_ID.exec(node) : null;
  if (!m) return node;
  try {
    return `entity:${await entities.rootOf(Number(m[1]))}`;
  } catch (err) {
    if (err instanceof PegasError && err.code === "NOT_FOUND") return node; // the graph says it is no node
    throw err;
  }
}

/** A GraphStore whose neighbourhood and path queries name root entities (see the module doc). */
class MergeFollowingGraph implements GraphStore {
  constructor(
    private readonly graph: GraphStore,
    private readonly entities: Pick<EntityStore, "rootOf">,
  ) {}

  get name(): string {
    return this.graph.name;
  }

  async neighbours(q: NeighbourQuery): Promise<Subgraph> {
    return this.graph.neighbours({ ...q, node: await rootNode(this.entities, q.node) });
  }

  async shortestPath(q: PathQuery): Promise<GraphPath | null> {
    const [from, to] = await Promise.all([rootNode(this.entities, q.from), rootNode(this.entities, q.to)]);
    return this.graph.shortestPath({ ...q, from, to });
  }

  counters(): Promise<GraphCounters> {
    return this.graph.counters();
  }
}

/**
 * `graph` answering for the root entity whenever a query names an entity merged into another (errors as the graph's,
 * and STORE_UNAVAILABLE when the entity tables cannot be read).
 */
export function followEntityMerges(graph: GraphStore, entities: Pick<EntityStore, "rootOf">): GraphStore {
  return new MergeFollowingGraph(graph, entities);
}
