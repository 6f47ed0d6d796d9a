/**
 * SQL building blocks of the SQL GraphStore: one step of the edge relation from a frontier of typed ids, node
 * liveness and node properties. The edge relation is the `pm_edge` view of migration 0001 restricted to live
 * endpoints (no retracted atom); it is read from the base tables, not the view, so that every step is an index
 * lookup per frontier node (`pm_atom_link` unique (src, dst, kind) and dst index, `pm_code_dependency` src and dst
 * indexes) rather than a scan of the whole relation. Entity mentions (`pm_entity_mention`, migration 0015) are edges
 * `mentions` from an atom to the root entity (after merges) it names, live while their atom is: one edge per atom and
 * root entity, however often the atom names it and under whichever merged names, keyed by the first such mention
 * row (`pm_entity_mention:<least id>`) with the highest confidence among them. An entity merged into another is no
 * node; undoing the merge makes it one again with its own mentions. The outbox resolves the same edges
 * (src/adapters/sql/outbox/mention-edges.ts), so Memgraph holds what this relation holds.
 */
import type { Fragment } from "postgres";
import type { Direction, GraphEdgeState, NodeId } from "../../../ports/projections/graph-store.ts";
import type { SqlLike } from "../database.ts";
import type { ParsedNodeId } from "../../../ports/projections/graph-ids.ts";
import { MAX_MERGE_DEPTH } from "../entities/rows.ts";

/** The edge filters of a query: an empty `kinds` allows every kind. */
export interface EdgeFilter {
  kinds: string[];
  includeInferred: boolean;
}

/** Columns of every step row, in order: the reached node, then the edge taken (src and dst as stored). */
const STEP_COLUMNS = "n, key, src, dst, kind, confidence, inferred, source";

function edgeFilter(sql: SqlLike, f: EdgeFilter): Fragment {
  return sql`${f.kinds.length > 0 ? sql`AND l.kind = ANY(${f.kinds}::text[])` : sql``}
    ${f.includeInferred ? sql`` : sql`AND NOT l.inferred`}`;
}

/**
 * Joins the entity of the pm_entity_mention row `m` as `x`, and the entity `x` was merged into (if any) as `xu`, for
 * {@link rootCaseSql}: for reads of all mentions (a hash join). Use as `FROM pm_entity_mention m ${…}`.
 */
export function mentionEntityJoinSql(sql: SqlLike): Fragment {
  return sql`JOIN pm_entity x ON x.id = m.entity_id LEFT JOIN pm_entity xu ON xu.id = x.merged_into`;
}

/**
 * An SQL expression over the joins of {@link mentionEntityJoinSql}: the root after merges of the mention's entity —
 * itself or the entity it was merged into, else the end of the longer `merged_into` chain.
 */
export function rootCaseSql(sql: SqlLike): Fragment {
  return sql`CASE WHEN x.merged_into IS NULL THEN x.id WHEN xu.merged_into IS NULL THEN xu.id ELSE (
    WITH RECURSIVE up(id, nxt, d) AS (
      SELECT y.id, y.merged_into, 2 FROM pm_entity y WHERE y.id = xu.merged_into
      UNION ALL
      SELECT y.id, y.merged_into, up.d + 1 FROM up JOIN pm_entity y ON y.id = up.nxt WHERE up.d < ${MAX_MERGE_DEPTH})
    SELECT id FROM up ORDER BY d DESC LIMIT 1) END`;
}

/**
 * The root after merges of the entity of the pm_entity_mention row `m` ({@link rootCaseSql}) as a scalar subquery:
 * two index lookups per row, for reads of a few atoms' mentions.
 */
export function mentionRootSql(sql: SqlLike): Fragment {
  return sql`(SELECT ${rootCaseSql(sql)} FROM pm_entity x LEFT JOIN pm_entity xu ON xu.id = x.merged_into
     WHERE x.id = m.entity_id)`;
}

/** The edge columns every mention edge carries: kind `mentions`, extracted (never inferred), source `extraction`. */
export const MENTION_COLUMNS = "'mentions'::text AS kind, false AS inferred, 'extraction'::text AS source";

/**
 * Live atoms' mentions as (atom, root entity) pairs, one per mention edge: a subquery with columns atom_id, root.
 * For counts of the whole relation.
 */
export function mentionPairsSql(sql: SqlLike): Fragment {
  return sql`(SELECT DISTINCT m.atom_id, ${rootCaseSql(sql)} AS root
      FROM pm_entity_mention m ${mentionEntityJoinSql(sql)} JOIN pm_atom a ON a.id = m.atom_id
     WHERE a.status <> 'retracted')`;
}

/** The mention edges out of atom `p.num` (when `p.t` is atom): (id, root, confidence, kind, inferred, source). */
function mentionsOfAtom(sql: SqlLike): Fragment {
  return sql`(SELECT min(g.id) AS id, g.root, max(g.confidence) AS confidence, ${sql.unsafe(MENTION_COLUMNS)}
      FROM (SELECT m.id, m.confidence, ${mentionRootSql(sql)} AS root
              FROM pm_entity_mention m WHERE p.t = 'atom' AND m.atom_id = p.num) g
     GROUP BY g.root)`;
}

/**
 * The mention edges into root entity `p.num` (when `p.t` is entity), from live atoms: (id, atom_id, confidence, kind,
 * inferred, source), its own mentions and those of every entity merged into it, directly or through others.
 */
function mentionsOfEntity(sql: SqlLike): Fragment {
  return sql`(SELECT min(m.id) AS id, m.atom_id, max(m.confidence) AS confidence, ${sql.unsafe(MENTION_COLUMNS)}
      FROM pm_entity_mention m JOIN pm_atom a ON a.id = m.atom_id
     WHERE p.t = 'entity' AND a.status <> 'retracted' AND m.entity_id = ANY(ARRAY(
           WITH RECURSIVE down(id, d) AS (
             SELECT p.num, 0
             UNION ALL
             SELECT x.id, down.d + 1 FROM down JOIN pm_entity x ON x.merged_into = down.id WHERE down.d < ${MAX_MERGE_DEPTH})
           SELECT id FROM down))
     GROUP BY m.atom_id)`;
}

/** Steps along edges from `u.id` to `n` (edge direction src → dst). */
function outSteps(sql: SqlLike, f: EdgeFilter): Fragment[] {
  const w = edgeFilter(sql, f);
  const depOut = sql`SELECT COALESCE('symbol:' || l.dst_symbol_id, 'name:' || l.dst_name), 'pm_code_dependency:' || l.id,
      u.id, COALESCE('symbol:' || l.dst_symbol_id, 'name:' || l.dst_name), l.kind, l.confidence, l.inferred, l.source
    FROM pm_code_dependency l`;
  return [
    sql`SELECT 'atom:' || l.dst_atom_id, 'pm_atom_link:' || l.id, u.id, 'atom:' || l.dst_atom_id,
               l.kind, l.confidence, l.inferred, l.source
          FROM pm_atom_link l JOIN pm_atom a ON a.id = l.dst_atom_id
         WHERE p.t = 'atom' AND l.src_atom_id = p.num AND a.status <> 'retracted' ${w}`,
    sql`SELECT 'symbol:' || l.symbol_id, 'pm_atom_symbol_link:' || l.id, u.id, 'symbol:' || l.symbol_id,
               l.kind, l.confidence, l.inferred, l.source
          FROM pm_atom_symbol_link l WHERE p.t = 'atom' AND l.atom_id = p.num ${w}`,
    sql`${depOut} WHERE p.t = 'symbol' AND l.src_symbol_id = p.num ${w}`,
    sql`${depOut} WHERE p.t = 'module' AND l.src_symbol_id IS NULL AND l.src_module = p.nm ${w}`,
    sql`SELECT 'entity:' || l.root, 'pm_entity_mention:' || l.id, u.id, 'entity:' || l.root, l.kind,
               l.confidence, l.inferred, l.source
          FROM ${mentionsOfAtom(sql)} l WHERE p.t = 'atom' ${w}`,
  ];
}

/** Steps against edges from `u.id` (the edge's dst) to `n` (its src). */
function inSteps(sql: SqlLike, f: EdgeFilter): Fragment[] {
  const w = edgeFilter(sql, f);
  const depIn = sql`SELECT COALESCE('symbol:' || l.src_symbol_id, 'module:' || l.src_module), 'pm_code_dependency:' || l.id,
      COALESCE('symbol:' || l.src_symbol_id, 'module:' || l.src_module), u.id, l.kind, l.confidence, l.inferred, l.source
    FROM pm_code_dependency l`;
  return [
    sql`SELECT 'atom:' || l.src_atom_id, 'pm_atom_link:' || l.id, 'atom:' || l.src_atom_id, u.id,
               l.kind, l.confidence, l.inferred, l.source
          FROM pm_atom_link l JOIN pm_atom a ON a.id = l.src_atom_id
         WHERE p.t = 'atom' AND l.dst_atom_id = p.num AND a.status <> 'retracted' ${w}`,
    sql`SELECT 'atom:' || l.atom_id, 'pm_atom_symbol_link:' || l.id, 'atom:' || l.atom_id, u.id,
               l.kind, l.confidence, l.inferred, l.source
          FROM pm_atom_symbol_link l JOIN pm_atom a ON a.id = l.atom_id
         WHERE p.t = 'symbol' AND l.symbol_id = p.num AND a.status <> 'retracted' ${w}`,
    sql`${depIn} WHERE p.t = 'symbol' AND l.dst_symbol_id = p.num ${w}`,
    sql`${depIn} WHERE p.t = 'name' AND l.dst_symbol_id IS NULL AND l.dst_name = p.nm ${w}`,
    sql`SELECT 'atom:' || l.atom_id, 'pm_entity_mention:' || l.id, 'atom:' || l.atom_id, u.id, l.kind,
               l.confidence, l.inferred, l.source
          FROM ${mentionsOfEntity(sql)} l WHERE p.t = 'entity' ${w}`,
  ];
}

/** Splits the typed id in column `<alias>.id` into t (prefix), nm (the rest) and num (the rest as bigint, or NULL). */
export function parseIdSql(sql: SqlLike, alias: "u" | "r"): Fragment {
  const id = sql.unsafe(`${alias}.id`);
  return sql`SELECT s.t, s.nm, CASE WHEN s.t IN ('atom', 'symbol', 'doc', 'entity') THEN s.nm::bigint END AS num
    FROM (SELECT split_part(${id}, ':', 1) AS t, substr(${id}, strpos(${id}, ':') + 1) AS nm) s`;
}

/**
 * One step of the live edge relation from every id of the text[] expression `frontier`, following `direction`:
 * a subquery yielding (n, key, src, dst, kind, confidence, inferred, source) with `n` the node reached, one row per
 * edge taken (a node may repeat). Only live nodes must be in the frontier; only live nodes are reached.
 */
export function stepSql(sql: SqlLike, frontier: Fragment, direction: Direction, f: EdgeFilter): Fragment {
  const steps = [...(direction !== "in" ? outSteps(sql, f) : []), ...(direction !== "out" ? inSteps(sql, f) : [])];
  const union = steps.reduce((acc, s) => sql`${acc} UNION ALL ${s}`);
  return sql`(SELECT e.* FROM unnest(${frontier}) AS u(id)
      CROSS JOIN LATERAL (${parseIdSql(sql, "u")}) p
      CROSS JOIN LATERAL (${union}) AS e(${sql.unsafe(STEP_COLUMNS)}))`;
}

/** A boolean SQL expression: the node exists and is live (atom not retracted, document active, entity not merged). */
export function liveNodeSql(sql: SqlLike, node: ParsedNodeId): Fragment {
  switch (node.kind) {
    case "atom":
      return sql`EXISTS (SELECT 1 FROM pm_atom WHERE id = ${node.id} AND status <> 'retracted')`;
    case "symbol":
      return sql`EXISTS (SELECT 1 FROM pm_code_symbol WHERE id = ${node.id})`;
    case "doc":
      return sql`EXISTS (SELECT 1 FROM pm_document WHERE id = ${node.id} AND status = 'active')`;
    case "entity":
      return sql`EXISTS (SELECT 1 FROM pm_entity WHERE id = ${node.id} AND merged_into IS NULL)`;
    case "module":
      return sql`EXISTS (SELECT 1 FROM pm_code_dependency WHERE src_symbol_id IS NULL AND src_module = ${node.name})`;
    case "name":
      return sql`EXISTS (SELECT 1 FROM pm_code_dependency WHERE dst_symbol_id IS NULL AND dst_name = ${node.name})`;
  }
}

/**
 * Joins the properties of the node in `r.id` (rows of a relation aliased `r`): adds columns p_t, p_nm, a_type,
 * a_status, s_repo, s_path, s_name, s_kind, d_uri, e_kind, e_name (NULL where they do not apply). Use as `FROM x r ${nodePropsSql}`.
 */
export function nodePropsJoinSql(sql: SqlLike): Fragment {
  return sql`CROSS JOIN LATERAL (${parseIdSql(sql, "r")}) p
    LEFT JOIN pm_atom na ON p.t = 'atom' AND na.id = p.num
    LEFT JOIN pm_code_symbol ns ON p.t = 'symbol' AND ns.id = p.num
    LEFT JOIN pm_document nd ON p.t = 'doc' AND nd.id = p.num
    LEFT JOIN pm_entity ne ON p.t = 'entity' AND ne.id = p.num`;
}

/** The select list matching {@link nodePropsJoinSql}. */
export function nodePropsColumnsSql(sql: SqlLike): Fragment {
  return sql`p.t AS p_t, p.nm AS p_nm, na.type AS a_type, na.status AS a_status, ns.repo AS s_repo, ns.path AS s_path,
    ns.name AS s_name, ns.kind AS s_kind, nd.uri AS d_uri, ne.kind AS e_kind, ne.name AS e_name`;
}

/** An edge's endpoints and properties from a row with columns src, dst, kind, confidence, inferred, source. */
export function edgeOfRow(r: Record<string, unknown>): GraphEdgeState & { src: NodeId; dst: NodeId } {
  return {
    src: String(r.src),
    dst: String(r.dst),
    kind: String(r.kind),
    confidence: Number(r.confidence),
    inferred: Boolean(r.inferred),
    source: String(r.source),
  };
}
