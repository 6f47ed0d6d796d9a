/**
 * Canonical state of projectable entities, read for the outbox worker (by ids) and for rebuilds (keyset pages):
 * live atoms with their vector of one model, active documents, code symbols, entities, and the edges of the edge tables
 * with typed node ids built exactly as the `pm_edge` view builds them (migrations/0001_init.sql). An edge with a
 * retracted endpoint atom is no edge (GraphStore port). Entity mentions are edges `mentions` from an atom to the root
 * entity (after merges) it names, one per atom and root keyed by the first mention row, as the SQL graph reads them
 * (src/adapters/sql/graph/sql.ts); an entity merged into another is no node. Every query is one round trip for any
 * number of ids.
 */
import type { Fragment, Sql } from "postgres";
import type { AtomStatus, AtomType } from "../../../domain/atom.ts";
import type { GraphEdgeState, NodeId } from "../../../ports/projections/graph-store.ts";
import type { AtomState, DocumentState, EntityState, SymbolState } from "../../../ports/projections/projection-sink.ts";
import { edgeOfRow, MENTION_COLUMNS, mentionPairsSql, mentionEntityJoinSql, rootCaseSql } from "../graph/sql.ts";
import { bytesToVector } from "../vector-bytes.ts";

/** Which rows a query reads: these ids (any order, no limit), or the first `limit` ids above `after`, ascending. */
export type Pick = { ids: number[] } | { after: number; limit: number };

/** An edge's state as projected. */
export type EdgeState = GraphEdgeState & { src: NodeId; dst: NodeId };

/** The edge tables in snapshot order; an edge's key is `<table>:<id>`. */
export const EDGE_TABLES = ["pm_atom_link", "pm_atom_symbol_link", "pm_code_dependency", "pm_entity_mention"] as const;

/** One of {@link EDGE_TABLES}. */
export type EdgeTable = (typeof EDGE_TABLES)[number];

type Row = Record<string, unknown>;

function where(sql: Sql<any>, col: string, p: Pick) {
  return "ids" in p ? sql`${sql(col)} = ANY(${p.ids}::bigint[])` : sql`${sql(col)} > ${p.after}`;
}

function tail(sql: Sql<any>, col: string, p: Pick) {
  return "ids" in p ? sql`` : sql`ORDER BY ${sql(col)} LIMIT ${p.limit}`;
}

function byId<T>(rows: readonly Row[], map: (r: Row) => T): Map<number, T> {
  return new Map(rows.map((r) => [Number(r.id), map(r)]));
}

/** Live (not retracted) atoms with their vector of `model` (null when none), keyed by id, in id order. */
export async function liveAtoms(sql: Sql<any>, p: Pick, model: string): Promise<Map<number, AtomState>> {
  const rows = await sql`
    SELECT a.id, a.type, a.status, a.doc_id, a.confidence, a.lang, e.vector
      FROM pm_atom a LEFT JOIN pm_atom_embedding e ON e.atom_id = a.id AND e.model = ${model}
     WHERE a.status <> 'retracted' AND ${where(sql, "a.id", p)} ${tail(sql, "a.id", p)}`;
  return byId(rows, (r) => ({
    type: r.type as AtomType,
    status: r.status as AtomStatus,
    docId: r.doc_id === null ? null : Number(r.doc_id),
    confidence: Number(r.confidence),
    lang: String(r.lang),
    vector: r.vector === null ? null : bytesToVector(r.vector as Uint8Array),
  }));
}

/** Active (not retracted) documents, keyed by id, in id order. */
export async function liveDocuments(sql: Sql<any>, p: Pick): Promise<Map<number, DocumentState>> {
  const rows = await sql`
    SELECT id, uri, title, kind FROM pm_document
     WHERE status = 'active' AND ${where(sql, "id", p)} ${tail(sql, "id", p)}`;
  return byId(rows, (r) => ({ uri: String(r.uri), title: (r.title as string | null) ?? null, kind: String(r.kind) }));
}

/** Code symbols, keyed by id, in id order. */
export async function liveSymbols(sql: Sql<any>, p: Pick): Promise<Map<number, SymbolState>> {
  const rows = await sql`
    SELECT id, repo, path, name, kind FROM pm_code_symbol
     WHERE ${where(sql, "id", p)} ${tail(sql, "id", p)}`;
  return byId(rows, (r) => ({
    repo: String(r.repo),
    path: String(r.path),
    name: String(r.name),
    kind: String(r.kind),
  }));
}

/** Root entities (one merged into another is no node), keyed by id, in id order. */
export async function liveEntities(sql: Sql<any>, p: Pick): Promise<Map<number, EntityState>> {
  const rows = await sql`
    SELECT id, kind, name, key FROM pm_entity
     WHERE merged_into IS NULL AND ${where(sql, "id", p)} ${tail(sql, "id", p)}`;
  return byId(rows, (r) => ({ kind: String(r.kind), name: String(r.name), key: String(r.key) }));
}

/**
 * The mention edges whose key row is among the mention rows `pick` selects (a condition on `m`), in key order: the
 * groups of those rows' atoms by root entity (graph/sql.ts), each group's first row being its edge's key.
 */
function mentionEdgeRows(sql: Sql<any>, pick: Fragment) {
  return sql`
    WITH pick AS MATERIALIZED (SELECT m.id, m.atom_id FROM pm_entity_mention m WHERE ${pick}),
    grp AS (
      SELECT m.atom_id, ${rootCaseSql(sql)} AS root, min(m.id) AS first, max(m.confidence) AS confidence
        FROM pm_entity_mention m ${mentionEntityJoinSql(sql)}
       WHERE m.atom_id IN (SELECT atom_id FROM pick) GROUP BY 1, 2)
    SELECT g.first AS id, 'atom:' || g.atom_id AS src, 'entity:' || g.root AS dst, g.confidence,
           ${sql.unsafe(MENTION_COLUMNS)}
      FROM grp g JOIN pm_atom a ON a.id = g.atom_id
     WHERE a.status <> 'retracted' AND g.first IN (SELECT id FROM pick)
     ORDER BY g.first`;
}

/** Fewest mention rows read per window of a page of mention edges. */
const MENTION_WINDOW = 100;

/**
 * Live mention edges (graph/sql.ts), keyed by their key row's id, in id order: of these rows, or the first `limit`
 * above `after` — read in windows of mention rows until enough are edges (most rows are no edge's key).
 */
async function liveMentionEdges(sql: Sql<any>, p: Pick): Promise<Map<number, EdgeState>> {
  if ("ids" in p) return byId(await mentionEdgeRows(sql, sql`m.id = ANY(${p.ids}::bigint[])`), edgeOfRow);
  const window = Math.max(p.limit, MENTION_WINDOW);
  const out: Row[] = [];
  for (let lo = p.after; ; ) {
    const [w] = await sql`
      SELECT max(id) AS hi, count(*) AS n FROM (SELECT id FROM pm_entity_mention WHERE id > ${lo} ORDER BY id LIMIT ${window}) s`;
    if (Number(w.n) === 0) break;
    for (const r of await mentionEdgeRows(sql, sql`m.id > ${lo} AND m.id <= ${Number(w.hi)}`)) {
      out.push(r);
      if (out.length === p.limit) return byId(out, edgeOfRow);
    }
    if (Number(w.n) < window) break;
    lo = Number(w.hi);
  }
  return byId(out, edgeOfRow);
}

/** Live edges of one table (no retracted endpoint atom), keyed by row id, in id order. */
export async function liveEdges(sql: Sql<any>, table: EdgeTable, p: Pick): Promise<Map<number, EdgeState>> {
  if (table === "pm_entity_mention") return liveMentionEdges(sql, p);
  const w = where(sql, "e.id", p);
  const t = tail(sql, "e.id", p);
  let rows: readonly Row[];
  if (table === "pm_atom_link") {
    rows = await sql`
      SELECT e.id, 'atom:' || e.src_atom_id AS src, 'atom:' || e.dst_atom_id AS dst, e.kind, e.confidence, e.inferred, e.source
        FROM pm_atom_link e JOIN pm_atom s ON s.id = e.src_atom_id JOIN pm_atom d ON d.id = e.dst_atom_id
       WHERE s.status <> 'retracted' AND d.status <> 'retracted' AND ${w} ${t}`;
  } else if (table === "pm_atom_symbol_link") {
    rows = await sql`
      SELECT e.id, 'atom:' || e.atom_id AS src, 'symbol:' || e.symbol_id AS dst, e.kind, e.confidence, e.inferred, e.source
        FROM pm_atom_symbol_link e JOIN pm_atom a ON a.id = e.atom_id
       WHERE a.status <> 'retracted' AND ${w} ${t}`;
  } else {
    rows = await sql`
      SELECT e.id, COALESCE('symbol:' || e.src_symbol_id, 'module:' || e.src_module) AS src,
             COALESCE('symbol:' || e.dst_symbol_id, 'name:' || e.dst_name) AS dst, e.kind, e.confidence, e.inferred, e.source
        FROM pm_code_dependency e
       WHERE ${w} ${t}`;
  }
  return byId(rows, edgeOfRow);
}

/** How many entities of each kind {@link liveAtoms} & co. would return in all (`atom_vectors`: atoms with a vector of `model`). */
export async function liveCounts(
  sql: Sql<any>,
  model: string,
): Promise<Record<"atom" | "atom_vectors" | "document" | "symbol" | "entity" | "edge", number>> {
  const [r] = await sql`
    SELECT (SELECT count(*) FROM pm_atom WHERE status <> 'retracted') AS atom,
           (SELECT count(*) FROM pm_atom a JOIN pm_atom_embedding e ON e.atom_id = a.id AND e.model = ${model}
             WHERE a.status <> 'retracted') AS atom_vectors,
           (SELECT count(*) FROM pm_document WHERE status = 'active') AS document,
           (SELECT count(*) FROM pm_code_symbol) AS symbol,
           (SELECT count(*) FROM pm_entity WHERE merged_into IS NULL) AS entity,
           (SELECT count(*) FROM pm_atom_link e JOIN pm_atom s ON s.id = e.src_atom_id JOIN pm_atom d ON d.id = e.dst_atom_id
             WHERE s.status <> 'retracted' AND d.status <> 'retracted')
         + (SELECT count(*) FROM pm_atom_symbol_link e JOIN pm_atom a ON a.id = e.atom_id WHERE a.status <> 'retracted')
         + (SELECT count(*) FROM pm_code_dependency)
         + (SELECT count(*) FROM ${mentionPairsSql(sql)} mp) AS edge`;
  return {
    atom: Number(r.atom),
    atom_vectors: Number(r.atom_vectors),
    document: Number(r.document),
    symbol: Number(r.symbol),
    entity: Number(r.entity),
    edge: Number(r.edge),
  };
}
