/**
 * Read-side SQL of the canonical store: query analysis, the change feed of the in-process indexes, the trigram
 * fallback and atom hydration with citations.
 */
import type { Sql } from "postgres";
import type { SqlLike } from "../database.ts";
import type { AtomFilter, AtomStatus, AtomType } from "../../../domain/atom.ts";
import { parseTsvector, type LexemeTf } from "../../../domain/tsvector.ts";
import type { AtomIndexRow, ChangeCursor } from "../../../ports/store/change-feed.ts";
import type { AtomView } from "../../../ports/store/atom-reads.ts";
import type { AtomTime, TimeGranularity } from "../../../domain/time/atom-time.ts";
import type { EmbeddingRow } from "../../../ports/store/embeddings.ts";
import { bytesToVector } from "../vector-bytes.ts";

/** Lexemes of `text` under the `pegas` configuration. */
export async function analyze(sql: Sql<any>, text: string): Promise<LexemeTf[]> {
  const [row] = await sql`SELECT to_tsvector('pegas', ${text})::text AS v`;
  return parseTsvector(String(row.v));
}

/** The snapshot's xmin as text (see ChangeFeed.changeMark). */
export async function changeMark(sql: Sql<any>): Promise<string> {
  const [row] = await sql`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`;
  return String(row.xmin);
}

/** The feed identity (see ChangeFeed.feedIdentity): system identifier, database name, latest migration applied. */
export async function feedIdentity(sql: Sql<any>): Promise<string> {
  const [row] = await sql`
    SELECT (SELECT system_identifier FROM pg_control_system())::text AS system, current_database() AS db,
           (SELECT coalesce(max(version), 0) FROM pm_schema_migrations)::text AS schema`;
  return `${row.system}:${row.db}:${row.schema}`;
}

/**
 * Atoms after `cursor` in (change_xid, id) order, with the lexemes the lexical index ranks: the atom's own and, for an
 * atom of a stored document, its document's title (migration 0013). Keyset paging on the (change_xid, id) index: the
 * plan stops after `limit` rows whatever the statistics say (PGlite never autovacuums, so it has none).
 */
export async function atomChanges(sql: Sql<any>, cursor: ChangeCursor, limit: number): Promise<AtomIndexRow[]> {
  const rows = await sql`
    SELECT a.id, a.change_xid::text AS xid, a.type, a.status, a.doc_id,
           (CASE WHEN d.content_hash IS NULL THEN a.search_tsv ELSE a.search_tsv || d.title_tsv END)::text AS tsv,
           (a.doc_id IS NULL OR d.content_hash IS NULL) AS note
      FROM pm_atom a LEFT JOIN pm_document d ON d.id = a.doc_id
     WHERE (a.change_xid, a.id) > (${cursor.xid}::xid8, ${cursor.id}::bigint)
     ORDER BY a.change_xid, a.id LIMIT ${limit}`;
  return rows.map((r) => ({
    id: Number(r.id),
    xid: String(r.xid),
    type: r.type as AtomType,
    status: r.status as AtomStatus,
    docId: r.doc_id === null ? null : Number(r.doc_id),
    note: r.note === true,
    lexemes: parseTsvector(String(r.tsv)),
  }));
}

/** Embeddings of `model` after `cursor` in (change_xid, atom_id) order (keyset, as {@link atomChanges}). */
export async function embeddingChanges(
  sql: Sql<any>,
  cursor: ChangeCursor,
  model: string,
  limit: number,
): Promise<EmbeddingRow[]> {
  const rows = await sql`
    SELECT atom_id, change_xid::text AS xid, vector FROM pm_atom_embedding
     WHERE model = ${model} AND (change_xid, atom_id) > (${cursor.xid}::xid8, ${cursor.id}::bigint)
     ORDER BY change_xid, atom_id LIMIT ${limit}`;
  return rows.map((r) => ({
    atomId: Number(r.atom_id),
    xid: String(r.xid),
    vector: bytesToVector(r.vector as Uint8Array),
  }));
}

/** SQL condition for a filter over `pm_atom a` (retracted never passes). */
function filterSql(sql: SqlLike, f: AtomFilter) {
  return sql`a.status <> 'retracted'
    ${f.types?.length ? sql`AND a.type = ANY(${f.types}::text[])` : sql``}
    ${f.status?.length ? sql`AND a.status = ANY(${f.status}::text[])` : sql``}
    ${f.docIds?.length ? sql`AND a.doc_id = ANY(${f.docIds}::bigint[])` : sql``}`;
}

/** pg_trgm word similarity of the query against claims, threshold 0.3, best first. */
export async function trigramSearch(
  sql: Sql<any>,
  query: string,
  k: number,
  f: AtomFilter,
): Promise<Array<{ atomId: number; score: number }>> {
  return sql.begin(async (tx) => {
    await tx`SET LOCAL pg_trgm.word_similarity_threshold = 0.3`;
    const rows = await tx`
      SELECT a.id, word_similarity(${query}, a.claim) AS score FROM pm_atom a
       WHERE ${query} <% a.claim AND ${filterSql(tx, f)}
       ORDER BY score DESC, a.id LIMIT ${k}`;
    return rows.map((r) => ({ atomId: Number(r.id), score: Number(r.score) }));
  }) as Promise<Array<{ atomId: number; score: number }>>;
}

const iso = (v: unknown) => new Date(v as string).toISOString();

/** The time columns of an atom row as {@link AtomView.time} (nothing when the row has none). */
function timeOfRow(r: Record<string, unknown>): { time?: AtomTime } {
  if (!r.observed_at && !r.event_start) return {};
  const event = r.event_start
    ? { start: iso(r.event_start), end: iso(r.event_end), granularity: r.event_granularity as TimeGranularity }
    : undefined;
  return { time: { ...(r.observed_at ? { observedAt: iso(r.observed_at) } : {}), ...(event ? { event } : {}) } };
}

/** Atoms with their first `maxCitations` citations (oldest first) and the total count, in the order of `ids`. */
export async function atomsByIds(sql: Sql<any>, ids: number[], maxCitations: number): Promise<AtomView[]> {
  if (ids.length === 0) return [];
  const rows = await sql`
    SELECT a.id, a.type, a.claim, a.content, a.confidence, a.status, a.doc_id, a.lang, a.created_at,
           a.observed_at, a.event_start, a.event_end, a.event_granularity,
           COALESCE(c.list, '[]'::json) AS citations, COALESCE(c.total, 0) AS citation_count
      FROM pm_atom a
      LEFT JOIN LATERAL (
        SELECT json_agg(json_build_object('doc_id', x.doc_id, 'uri', x.uri, 'title', x.title, 'kind', x.kind,
                 'doc_version', x.doc_version, 'locator', x.locator, 'quote', x.quoted_text) ORDER BY x.id)
                 FILTER (WHERE x.rn <= ${maxCitations}) AS list,
               count(*) AS total
          FROM (SELECT ci.id, ci.doc_id, d.uri, d.title, d.kind, ci.doc_version, ci.locator, ci.quoted_text,
                       row_number() OVER (ORDER BY ci.id) AS rn
                  FROM pm_citation ci JOIN pm_document d ON d.id = ci.doc_id
                 WHERE ci.atom_id = a.id) x
      ) c ON true
     WHERE a.id = ANY(${ids}::bigint[])`;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id,
        type: r.type as AtomType,
        claim: String(r.claim),
        content: String(r.content),
        confidence: Number(r.confidence),
        status: r.status as AtomStatus,
        doc_id: r.doc_id === null ? null : Number(r.doc_id),
        lang: String(r.lang),
        created_at: new Date(r.created_at as string).toISOString(),
        citations: (r.citations ?? []) as AtomView["citations"],
        citation_count: Number(r.citation_count),
        ...timeOfRow(r),
      },
    ];
  });
}
