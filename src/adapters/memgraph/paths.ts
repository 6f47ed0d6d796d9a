/**
 * Shortest paths with the same answer as the SQL adapter (src/adapters/sql/graph-path.ts), ties included: Memgraph's
 * BFS between the two ends gives the length L; a BFS from `from` within L − 1 gives every node's distance; then a
 * walk back from `to` picks, at each step, the predecessor at distance k − 1 with the least id in code-point order
 * and, between parallel edges, the least key. All reads share one transaction, so they see one state.
 */
import type { ManagedTransaction } from "neo4j-driver";
import { PegasError } from "../../errors.ts";
import type { GraphEdge, GraphNode, GraphPath } from "../../ports/graph-store.ts";
import type { ValidPathQuery } from "../sql/graph-ids.ts";
import { nodeNotFound } from "../sql/graph-ids.ts";
import { toSafeNumber } from "./bolt-values.ts";
import type { Statement } from "./client.ts";
import { codePointCompare, endpointKey, keyOf, toGraphEdge, toGraphNode, type NodeKey } from "./model.ts";
import { levelsStatement, nodeLookup, pathLengthStatement, predecessorsStatement } from "./reads.ts";

/** Rows of one statement as plain objects (driver values kept: Integers, lists, maps). */
export async function rows(tx: ManagedTransaction, st: Statement): Promise<Record<string, unknown>[]> {
  const result = await tx.run(st.text, st.params);
  return result.records.map((r) => r.toObject() as Record<string, unknown>);
}

/** The live node with key `k`, or NOT_FOUND naming it. */
export async function liveNode(tx: ManagedTransaction, k: NodeKey): Promise<GraphNode> {
  const [r] = await rows(tx, nodeLookup(k));
  if (!r) throw nodeNotFound(k.id);
  return toGraphNode(r.id, r.labels, r.props as Record<string, unknown>);
}

/** Distance from `from` of every node within `depth` (`from` itself at 0). */
async function distances(tx: ManagedTransaction, from: NodeKey, v: ValidPathQuery, depth: number): Promise<Map<string, number>> {
  const dist = new Map<string, number>([[from.id, 0]]);
  if (depth < 1) return dist;
  for (const r of await rows(tx, levelsStatement(from, v.direction, depth, v))) {
    dist.set(String(r.id), toSafeNumber(r.distance, "a BFS distance"));
  }
  return dist;
}

/** The predecessor of `cur` at distance `k` from the start, least id first, then least edge key. */
async function stepBack(tx: ManagedTransaction, cur: NodeKey, v: ValidPathQuery, dist: Map<string, number>, k: number) {
  const candidates = (await rows(tx, predecessorsStatement(cur, v.direction, v)))
    .filter((r) => dist.get(String(r.id)) === k)
    .map((r) => ({ node: toGraphNode(r.id, r.labels, r.props as Record<string, unknown>), edge: toGraphEdge(r.edge as Record<string, unknown>) }))
    .sort((x, y) => codePointCompare(x.node.id, y.node.id) || codePointCompare(x.edge.key, y.edge.key));
  if (candidates.length === 0) {
    throw new PegasError("INDEX_UNAVAILABLE", `Memgraph found a path to ${cur.id} but no step back to distance ${k}`, {
      hint: "the projection changed under the read or the server's BFS disagrees; retry",
    });
  }
  return candidates[0];
}

/**
 * One shortest path from `v.from` to `v.to` within `v.maxDepth`, or null; from = to is the one node. Both ends
 * must be live nodes. @throws PegasError NOT_FOUND naming the end that is not.
 */
export async function shortestPathIn(tx: ManagedTransaction, v: ValidPathQuery): Promise<GraphPath | null> {
  const from = keyOf(v.from);
  const to = keyOf(v.to);
  const start = await liveNode(tx, from);
  const end = await liveNode(tx, to);
  if (from.id === to.id) return { nodes: [start], edges: [] };
  const [found] = await rows(tx, pathLengthStatement(from, to, v.direction, v.maxDepth, v));
  if (!found) return null;
  const length = toSafeNumber(found.length, "a path length");
  const dist = await distances(tx, from, v, length - 1);
  const nodes: GraphNode[] = [end];
  const edges: GraphEdge[] = [];
  let cur = to;
  for (let k = length - 1; k >= 0; k--) {
    const step = await stepBack(tx, cur, v, dist, k);
    nodes.unshift(step.node);
    edges.unshift(step.edge);
    cur = endpointKey(step.node.id);
  }
  return { nodes, edges };
}
