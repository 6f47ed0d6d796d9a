/**
 * Shortest paths with exactly the SQL adapter's answer, ties included (src/adapters/sql/graph/path.ts): a bounded
 * bidirectional breadth-first search that, each round, grows by one BFS level the side with the smaller frontier
 * (forward from `from` along the direction, backward from `to` against it; forward on equal sizes) and stops when the
 * new level meets the other side's frontier, at `maxDepth` = fd + bd, or when a side has nothing left. The meeting
 * node is the least id of the meeting set in code-point order; the path is walked from it down both sides' levels,
 * taking the least id (then the least edge key) wherever there is a choice. Each level is one Memgraph BFS
 * (reads.ts), each walk step one neighbour lookup; all reads share one transaction, so they see one state.
 */
import type { ManagedTransaction } from "neo4j-driver";
import { PegasError } from "../../errors.ts";
import type { Direction, GraphEdge, GraphNode, GraphPath } from "../../ports/projections/graph-store.ts";
import type { ValidPathQuery } from "../../ports/projections/graph-ids.ts";
import { nodeNotFound } from "../../ports/projections/graph-ids.ts";
import type { Statement } from "./client.ts";
import { codePointCompare, endpointKey, keyOf, toGraphEdge, toGraphNode, type NodeKey } from "./model.ts";
import { levelStatement, nodeLookup, stepStatement } from "./reads.ts";

const REVERSE: Record<Direction, Direction> = { out: "in", in: "out", both: "both" };

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

/** Where the two searches met: the meeting node, the depth reached on each side and each side's levels. */
interface Meeting {
  meet: string;
  fd: number;
  bd: number;
  forward: string[][];
  backward: string[][];
}

/** The bidirectional search; null when the sides do not meet within `maxDepth`. */
async function search(tx: ManagedTransaction, v: ValidPathQuery, from: NodeKey, to: NodeKey): Promise<Meeting | null> {
  const forward = [[from.id]];
  const backward = [[to.id]];
  let fd = 0;
  let bd = 0;
  while (fd + bd < v.maxDepth && forward[fd].length > 0 && backward[bd].length > 0) {
    const ahead = forward[fd].length <= backward[bd].length;
    const st = ahead
      ? levelStatement(from, v.direction, fd + 1, v)
      : levelStatement(to, REVERSE[v.direction], bd + 1, v);
    const level = (await rows(tx, st)).map((r) => String(r.id));
    const other = new Set(ahead ? backward[bd] : forward[fd]);
    if (ahead) forward[++fd] = level;
    else backward[++bd] = level;
    const meeting = level.filter((id) => other.has(id)).sort(codePointCompare);
    if (meeting.length > 0) return { meet: meeting[0], fd, bd, forward, backward };
  }
  return null;
}

/** From `start` at level `depth` of `levels` down to level 0, travelling `travel`: each step's node and edge. */
async function walk(
  tx: ManagedTransaction,
  start: NodeKey,
  depth: number,
  levels: string[][],
  travel: Direction,
  v: ValidPathQuery,
) {
  const steps: Array<{ node: GraphNode; edge: GraphEdge }> = [];
  let cur = start;
  for (let d = depth; d > 0; d--) {
    const below = new Set(levels[d - 1]);
    const [best] = (await rows(tx, stepStatement(cur, travel, v)))
      .filter((r) => below.has(String(r.id)))
      .map((r) => ({
        node: toGraphNode(r.id, r.labels, r.props as Record<string, unknown>),
        edge: toGraphEdge(r.edge as Record<string, unknown>),
      }))
      .sort((x, y) => codePointCompare(x.node.id, y.node.id) || codePointCompare(x.edge.key, y.edge.key));
    if (!best) {
      throw new PegasError(
        "INDEX_UNAVAILABLE",
        `Memgraph's BFS put a node next to ${cur.id} on level ${d - 1}, but no edge leads there`,
        {
          hint: "the projection changed under the read or the server's BFS disagrees with its edges; retry",
        },
      );
    }
    steps.push(best);
    cur = endpointKey(best.node.id);
  }
  return steps;
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
  const hit = await search(tx, v, from, to);
  if (!hit) return null;
  const meetKey = endpointKey(hit.meet);
  const meet = hit.meet === from.id ? start : hit.meet === to.id ? end : await liveNode(tx, meetKey);
  const toStart = (await walk(tx, meetKey, hit.fd, hit.forward, REVERSE[v.direction], v)).reverse();
  const toEnd = await walk(tx, meetKey, hit.bd, hit.backward, v.direction, v);
  return {
    nodes: [...toStart.map((s) => s.node), meet, ...toEnd.map((s) => s.node)],
    edges: [...toStart.map((s) => s.edge), ...toEnd.map((s) => s.edge)],
  };
}
