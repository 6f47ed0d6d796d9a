/**
 * SQL of episodic traces (pm_episodic_trace), the same on PostgreSQL and PGlite: an idempotent insert that writes
 * the `pegas` tsvector, and one search per match mode (full-text, trigram fallback, newest first).
 */
import type { Sql } from "postgres";
import type { SqlLike } from "./database.ts";
import type { TraceInput, TraceKind, TraceQuery, TraceRow, TraceStored } from "../../ports/store/traces.ts";

/** Word similarity a trigram match needs (pg_trgm's default, as for atoms). */
const TRIGRAM_THRESHOLD = 0.3;

function stored(r: Record<string, unknown>): TraceStored {
  return { id: Number(r.id), createdAt: new Date(r.created_at as string).toISOString() };
}

/**
 * Inserts a trace; a second run with the same `requestKey` (a retry after a lost connection) returns the first row.
 * The tsvector is computed from the content under the `pegas` configuration in the same statement.
 */
export async function insertTrace(sql: Sql<any>, t: TraceInput): Promise<TraceStored> {
  const rows = await sql`
    INSERT INTO pm_episodic_trace (session_id, kind, content, metadata, search_tsv, request_key)
    VALUES (${t.session}, ${t.kind}, ${t.content}, ${sql.json(t.metadata as never)}, to_tsvector('pegas', ${t.content}), ${t.requestKey}::uuid)
    ON CONFLICT (request_key) DO NOTHING
    RETURNING id, created_at`;
  if (rows.length) return stored(rows[0]);
  const [again] = await sql`SELECT id, created_at FROM pm_episodic_trace WHERE request_key = ${t.requestKey}::uuid`;
  return stored(again);
}

/** SQL condition of the filters over `pm_episodic_trace t`. */
function filterSql(sql: SqlLike, q: TraceQuery) {
  return sql`true
    ${q.session !== undefined ? sql`AND t.session_id = ${q.session}` : sql``}
    ${q.kinds?.length ? sql`AND t.kind = ANY(${q.kinds}::text[])` : sql``}
    ${q.since !== undefined ? sql`AND t.created_at >= ${q.since}::timestamptz` : sql``}`;
}

/** The columns of a hit: content cut in SQL, so a page never carries whole 100k-character traces. */
function columns(sql: SqlLike, q: TraceQuery) {
  return sql`t.id, t.kind, t.session_id, left(t.content, ${q.maxContentChars}) AS content,
    char_length(t.content) AS chars, t.metadata, t.created_at`;
}

function toRow(r: Record<string, unknown>, max: number): TraceRow {
  const chars = Number(r.chars);
  return {
    id: Number(r.id),
    kind: r.kind as TraceKind,
    session: (r.session_id as string | null) ?? null,
    content: String(r.content),
    truncated: chars > max,
    contentChars: chars,
    metadata: (r.metadata ?? {}) as Record<string, unknown>,
    createdAt: new Date(r.created_at as string).toISOString(),
    score: Number(r.score),
  };
}

/**
 * One page of traces in the mode `q.match`: `fulltext` (websearch_to_tsquery on `pegas`, ts_rank_cd, newest first on
 * ties), `trigram` (pg_trgm word similarity ≥ {@link TRIGRAM_THRESHOLD} of the query in the content, best first) or
 * `recent` (newest first, score 0). Returns at most `q.limit` rows after `q.offset`.
 */
export async function searchTraces(sql: Sql<any>, q: TraceQuery): Promise<TraceRow[]> {
  const map = (rows: readonly Record<string, unknown>[]) => rows.map((r) => toRow(r, q.maxContentChars));
  if (q.match === "recent") {
    return map(
      await sql`
      SELECT ${columns(sql, q)}, 0 AS score FROM pm_episodic_trace t
       WHERE ${filterSql(sql, q)}
       ORDER BY t.created_at DESC, t.id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    );
  }
  if (q.match === "fulltext") {
    return map(
      await sql`
      SELECT ${columns(sql, q)}, ts_rank_cd(t.search_tsv, w.q) AS score
        FROM pm_episodic_trace t, websearch_to_tsquery('pegas', ${q.text}) AS w(q)
       WHERE t.search_tsv @@ w.q AND ${filterSql(sql, q)}
       ORDER BY score DESC, t.created_at DESC, t.id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    );
  }
  return sql.begin(async (tx) => {
    await tx`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(TRIGRAM_THRESHOLD)}, true)`;
    return map(
      await tx`
      SELECT ${columns(tx, q)}, word_similarity(${q.text}, t.content) AS score FROM pm_episodic_trace t
       WHERE ${q.text} <% t.content AND ${filterSql(tx, q)}
       ORDER BY score DESC, t.created_at DESC, t.id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    );
  }) as Promise<TraceRow[]>;
}
