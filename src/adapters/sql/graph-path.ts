/**
 * Shortest paths of the SQL GraphStore: a breadth-first search from `from` that stops at the level where `to` first
 * appears (or at `maxDepth`), then a walk back from `to` that picks, at each level, the predecessor with the least id
 * in code-point order (and, between parallel edges, the least key), so that ties resolve the same way every time.
 */
import type { Row } from "postgres";
import type { Direction } from "../../ports/graph-store.ts";
import type { SqlLike } from "./database.ts";
import { formatNodeId, type ValidPathQuery } from "./graph-ids.ts";
import { nodePropsColumnsSql, nodePropsJoinSql, stepSql } from "./graph-sql.ts";

const REVERSE: Record<Direction, Direction> = { out: "in", in: "out", both: "both" };

/**
 * Rows of one shortest path from `v.from` to `v.to`, in path order: each row has the node (`id` and the columns of
 * nodePropsColumnsSql) and the edge (`key`, `src`, `dst`, `kind`, `confidence`, `inferred`, `source`) leading to the
 * next node, NULL on the last row. No row when no path is within `v.maxDepth`; both endpoints must be live nodes.
 */
export async function shortestPathRows(tx: SqlLike, v: ValidPathQuery): Promise<readonly Row[]> {
  const from = formatNodeId(v.from);
  const to = formatNodeId(v.to);
  const forward = stepSql(tx, tx`b.frontier`, v.direction, v);
  const backward = stepSql(tx, tx`ARRAY[k.id]`, REVERSE[v.direction], v);
  return tx`
    WITH RECURSIVE bfs(depth, frontier, seen) AS (
      SELECT 0, ARRAY[${from}::text], ARRAY[${from}::text]
      UNION ALL
      SELECT b.depth + 1, nx.f, b.seen || nx.f
        FROM bfs b CROSS JOIN LATERAL (
          SELECT array_agg(x.n) AS f FROM (SELECT e.n FROM ${forward} e EXCEPT SELECT unnest(b.seen)) x) nx
       WHERE b.depth < ${v.maxDepth} AND NOT (${to}::text = ANY(b.frontier)) AND nx.f IS NOT NULL
    ), back(depth, id, key, src, dst, kind, confidence, inferred, source) AS (
      SELECT depth, ${to}::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::real, NULL::boolean, NULL::text
        FROM bfs WHERE ${to}::text = ANY(frontier)
      UNION ALL
      SELECT k.depth - 1, s.n, s.key, s.src, s.dst, s.kind, s.confidence, s.inferred, s.source
        FROM back k CROSS JOIN LATERAL (
          SELECT e.* FROM ${backward} e
           WHERE EXISTS (SELECT 1 FROM bfs p WHERE p.depth = k.depth - 1 AND e.n = ANY(p.frontier))
           ORDER BY e.n COLLATE "C", e.key COLLATE "C" LIMIT 1) s
       WHERE k.depth > 0
    )
    SELECT r.id, r.key, r.src, r.dst, r.kind, r.confidence, r.inferred, r.source, ${nodePropsColumnsSql(tx)}
      FROM back r ${nodePropsJoinSql(tx)}
     ORDER BY r.depth`;
}
