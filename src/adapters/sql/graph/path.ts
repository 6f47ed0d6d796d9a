/**
 * Shortest paths of the SQL GraphStore: a bounded bidirectional breadth-first search in one recursive query. Each
 * round expands, by one level, the side with the smaller frontier (forward from `from` along the direction, backward
 * from `to` against it) and intersects its new nodes with the other side's frontier. With both balls disjoint up to
 * depths fd and bd, every path is longer than fd + bd, so the first meeting gives the fewest edges; the search stops
 * there, at `maxDepth` = fd + bd, or when a side has nothing left to reach. Explored balls have about half the radius
 * of a one-sided search. The path is then walked back from the meeting node to both ends, level by level, taking
 * the least id in code-point order (then the least edge key) wherever there is a choice, so ties resolve the same
 * way every time.
 */
import type { Fragment, Row } from "postgres";
import type { Direction } from "../../../ports/projections/graph-store.ts";
import type { SqlLike } from "../database.ts";
import { formatNodeId, type ValidPathQuery } from "../../../ports/projections/graph-ids.ts";
import { nodePropsColumnsSql, nodePropsJoinSql, stepSql } from "./sql.ts";

const REVERSE: Record<Direction, Direction> = { out: "in", in: "out", both: "both" };

/**
 * Rows of one shortest path from `v.from` to `v.to`, in path order: each row has the node (`id` and the columns of
 * nodePropsColumnsSql) and, except on the meeting node's row, the edge (`key`, `src`, `dst`, `kind`, `confidence`,
 * `inferred`, `source`) between it and its neighbour on the path (the next node before the meeting node, the previous
 * one after it), so the non-NULL edges in row order are the path's edges in order. No row when no path is within
 * `v.maxDepth`. Both endpoints must be live nodes.
 */
export async function shortestPathRows(tx: SqlLike, v: ValidPathQuery): Promise<readonly Row[]> {
  return tx`
    WITH RECURSIVE ${searchCte(tx, v)},
    hit AS (SELECT fd, bd, (SELECT min(id COLLATE "C") FROM unnest(meet) AS id) COLLATE "default" AS m FROM s WHERE cardinality(meet) > 0),
    fl AS (SELECT DISTINCT ON (fd) fd AS d, ff AS front FROM s ORDER BY fd),
    bl AS (SELECT DISTINCT ON (bd) bd AS d, bf AS front FROM s ORDER BY bd),
    ${walkCte(tx, "fw", "fl", tx`fd`, stepSql(tx, tx`ARRAY[k.id]`, REVERSE[v.direction], v))},
    ${walkCte(tx, "bw", "bl", tx`bd`, stepSql(tx, tx`ARRAY[k.id]`, v.direction, v))},
    path AS (
      SELECT fw.d AS pos, fw.* FROM fw
      UNION ALL
      SELECT h.fd + h.bd - bw.d, bw.* FROM bw CROSS JOIN hit h WHERE bw.d < h.bd
    )
    SELECT r.id, r.key, r.src, r.dst, r.kind, r.confidence, r.inferred, r.source, ${nodePropsColumnsSql(tx)}
      FROM path r ${nodePropsJoinSql(tx)}
     ORDER BY r.pos`;
}

/**
 * The search `s(fd, bd, ff, fs, bf, bs, meet)`: depths, frontiers and seen sets of the forward and backward sides,
 * and the nodes where they met (empty until they do). One row per round.
 */
function searchCte(tx: SqlLike, v: ValidPathQuery): Fragment {
  const from = formatNodeId(v.from);
  const to = formatNodeId(v.to);
  const forward = stepSql(tx, tx`s.ff`, v.direction, v);
  const backward = stepSql(tx, tx`s.bf`, REVERSE[v.direction], v);
  return tx`s(fd, bd, ff, fs, bf, bs, meet) AS (
      SELECT 0, 0, ARRAY[${from}::text], ARRAY[${from}::text], ARRAY[${to}::text], ARRAY[${to}::text],
             CASE WHEN ${from}::text = ${to}::text THEN ARRAY[${from}::text] ELSE '{}'::text[] END
      UNION ALL
      SELECT s.fd + w.f::int, s.bd + (NOT w.f)::int,
             CASE WHEN w.f THEN nx.n ELSE s.ff END, CASE WHEN w.f THEN s.fs || nx.n ELSE s.fs END,
             CASE WHEN w.f THEN s.bf ELSE nx.n END, CASE WHEN w.f THEN s.bs ELSE s.bs || nx.n END, mt.m
        FROM s
        CROSS JOIN LATERAL (SELECT cardinality(s.ff) <= cardinality(s.bf) AS f) w
        CROSS JOIN LATERAL (
          SELECT COALESCE(array_agg(x.n), '{}'::text[]) AS n FROM (
            (SELECT e.n FROM ${forward} e WHERE w.f UNION ALL SELECT e.n FROM ${backward} e WHERE NOT w.f)
            EXCEPT SELECT unnest(CASE WHEN w.f THEN s.fs ELSE s.bs END)) x) nx
        CROSS JOIN LATERAL (
          SELECT COALESCE(array_agg(y.id), '{}'::text[]) AS m FROM (
            SELECT unnest(nx.n) INTERSECT SELECT unnest(CASE WHEN w.f THEN s.bf ELSE s.ff END)) y(id)) mt
       WHERE cardinality(s.meet) = 0 AND s.fd + s.bd < ${v.maxDepth}
         AND cardinality(s.ff) > 0 AND cardinality(s.bf) > 0
    )`;
}

/**
 * A walk `name(d, id, key, src, dst, kind, confidence, inferred, source)` from the meeting node (at level
 * `hit.<depthCol>` of its side) down to level 0 (that side's end): at each level the node's neighbour by `step`
 * that lies on the level below, with the edge between them.
 */
function walkCte(tx: SqlLike, name: "fw" | "bw", levels: "fl" | "bl", depthCol: Fragment, step: Fragment): Fragment {
  const self = tx.unsafe(name);
  const lv = tx.unsafe(levels);
  return tx`${self}(d, id, key, src, dst, kind, confidence, inferred, source) AS (
      SELECT ${depthCol}, m, NULL::text, NULL::text, NULL::text, NULL::text, NULL::real, NULL::boolean, NULL::text FROM hit
      UNION ALL
      SELECT k.d - 1, e.n, e.key, e.src, e.dst, e.kind, e.confidence, e.inferred, e.source
        FROM ${self} k CROSS JOIN LATERAL (
          SELECT e.* FROM ${step} e
           WHERE EXISTS (SELECT 1 FROM ${lv} WHERE ${lv}.d = k.d - 1 AND e.n = ANY(${lv}.front))
           ORDER BY e.n COLLATE "C", e.key COLLATE "C" LIMIT 1) e
       WHERE k.d > 0
    )`;
}
