/**
 * The GapStore over SQL (PostgreSQL and PGlite alike, through {@link Database}): research gaps and the search-miss
 * log of migration 0009. Keys of questions and queries are computed in SQL by {@link KEY_SQL} so that both tables
 * share one normalization (the `pegas` configuration's sorted unique lexemes). Driver errors become PegasError.
 */
import type { Sql, TransactionSql } from "postgres";
import { PegasError } from "../../errors.ts";
import type {
  GapAddOutcome,
  GapCandidate,
  GapCounters,
  GapDuplicate,
  GapInsert,
  GapRow,
  GapStatus,
  GapStore,
  SuggestedGap,
} from "../../ports/store/gaps.ts";
import type { Database } from "./database.ts";
import { mapSqlError } from "./errors.ts";

/** Most repeats and attempts kept in a gap's metadata (the counters count all). */
const MAX_REPEATS = 20;
const MAX_ATTEMPTS = 10;
/** Search misses kept (the newest), and how often the older ones are pruned (every this many misses, by id). */
const MISS_LOG_MAX = 100_000;
const PRUNE_EVERY = 1000;
/** Open gaps offered to the near-duplicate decision. */
const MAX_CANDIDATES = 50;
/** Serializes gap additions (one transaction-scoped advisory lock for all of them: additions are rare). */
const GAP_LOCK = "pm_research_gap:add";

const iso = (v: unknown): string => new Date(v as string).toISOString();

function toGap(r: Record<string, unknown>): GapRow {
  return {
    id: Number(r.id),
    question: String(r.question),
    reason: (r.reason as string | null) ?? null,
    priority: Number(r.priority),
    status: r.status as GapStatus,
    metadata: (r.metadata as Record<string, unknown>) ?? {},
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

const COLUMNS = ["id", "question", "reason", "priority", "status", "metadata", "created_at", "updated_at"];

/** The normalized key of a text, as SQL over parameter `$1`-style fragment `x`. */
const keyOf = (sql: Sql<any> | TransactionSql<any>, text: string) =>
  sql`COALESCE(NULLIF(array_to_string(tsvector_to_array(to_tsvector('pegas', ${text}::text)), ' '), ''), lower(${text}::text))`;

async function candidates(
  tx: TransactionSql<any>,
  question: string,
): Promise<{ lexemes: string[]; candidates: GapCandidate[] }> {
  const [q] = await tx`SELECT tsvector_to_array(to_tsvector('pegas', ${question}::text)) AS lx`;
  const lexemes = (q.lx as string[]) ?? [];
  const rows = await tx`
    SELECT ${tx(COLUMNS)}, tsvector_to_array(to_tsvector('pegas', question)) AS lx
      FROM pm_research_gap
     WHERE status = 'open'
       AND (tsvector_to_array(to_tsvector('pegas', question)) && ${lexemes}::text[] OR lower(question) = lower(${question}::text))
     ORDER BY priority DESC, created_at LIMIT ${MAX_CANDIDATES}`;
  return { lexemes, candidates: rows.map((r) => ({ ...toGap(r), lexemes: (r.lx as string[]) ?? [] })) };
}

async function raise(tx: TransactionSql<any>, input: GapInsert, dup: GapDuplicate): Promise<GapAddOutcome> {
  const [old] = await tx`SELECT ${tx(COLUMNS)} FROM pm_research_gap WHERE id = ${dup.gapId} FOR UPDATE`;
  if (!old) throw new PegasError("INTERNAL", `gap ${dup.gapId} chosen as a duplicate does not exist`);
  const prev = toGap(old);
  const priority = Math.min(5, Math.max(prev.priority + 1, input.priority));
  const repeats = Array.isArray(prev.metadata.repeats) ? (prev.metadata.repeats as unknown[]) : [];
  const entry = {
    question: input.question,
    reason: input.reason,
    priority: input.priority,
    decided_by: dup.decidedBy,
    cosine: Number(dup.cosine.toFixed(4)),
    overlap: Number(dup.overlap.toFixed(4)),
    at: new Date().toISOString(),
  };
  const metadata = {
    ...prev.metadata,
    repeats: [...repeats, entry].slice(-MAX_REPEATS),
    repeat_count: Number(prev.metadata.repeat_count ?? 0) + 1,
  };
  const [row] = await tx`
    UPDATE pm_research_gap SET priority = ${priority}, metadata = ${tx.json(metadata as never)}, updated_at = now()
     WHERE id = ${dup.gapId} RETURNING ${tx(COLUMNS)}`;
  // The reworded question is now asked by this gap: its missed searches are no longer a suggestion.
  await tx`DELETE FROM pm_search_miss WHERE query_key = ${keyOf(tx, input.question)}`;
  return { gap: toGap(row), created: false, repeat: { previousPriority: prev.priority, duplicate: dup } };
}

/** GapStore implementation over a {@link Database}. Errors: see src/ports/store/gaps.ts. */
export class SqlGapStore implements GapStore {
  /** @param db the canonical database (migrated to version 9 or later). */
  constructor(readonly db: Database) {}

  private async run<T>(what: string, fn: (sql: Sql<any>) => Promise<T>): Promise<T> {
    try {
      return await this.db.run(fn);
    } catch (err) {
      throw mapSqlError(err, what);
    }
  }

  addGap(
    input: GapInsert,
    decide: (lexemes: string[], c: GapCandidate[]) => Promise<GapDuplicate | null>,
  ): Promise<GapAddOutcome> {
    return this.run(
      "add a research gap",
      (sql) =>
        sql.begin(async (tx) => {
          await tx`SELECT pg_advisory_xact_lock(hashtextextended(${GAP_LOCK}, 0))`;
          const found = await candidates(tx, input.question);
          const dup = await decide(found.lexemes, found.candidates);
          if (dup) return raise(tx, input, dup);
          const [row] = await tx`
          INSERT INTO pm_research_gap (question, reason, priority, question_key)
          VALUES (${input.question}, ${input.reason}, ${input.priority}, ${keyOf(tx, input.question)})
          RETURNING ${tx(COLUMNS)}`;
          return { gap: toGap(row), created: true, repeat: null };
        }) as Promise<GapAddOutcome>,
    );
  }

  getGap(id: number): Promise<GapRow> {
    return this.run(`read gap ${id}`, async (sql) => {
      const [row] = await sql`SELECT ${sql(COLUMNS)} FROM pm_research_gap WHERE id = ${id}`;
      if (!row)
        throw new PegasError("NOT_FOUND", `no research gap ${id}`, { hint: "call memory_list_gaps to list gap ids" });
      return toGap(row);
    });
  }

  listGaps(status: GapStatus | null, limit: number, offset = 0): Promise<{ gaps: GapRow[]; total: number }> {
    return this.run("list research gaps", async (sql) => {
      const where = status ? sql`WHERE status = ${status}` : sql``;
      const [rows, [n]] = await Promise.all([
        sql`SELECT ${sql(COLUMNS)} FROM pm_research_gap ${where} ORDER BY priority DESC, created_at, id LIMIT ${limit} OFFSET ${offset}`,
        sql`SELECT count(*) AS n FROM pm_research_gap ${where}`,
      ]);
      return { gaps: rows.map(toGap), total: Number(n.n) };
    });
  }

  suggestedGaps(minRepeats: number, limit: number): Promise<{ suggested: SuggestedGap[]; total: number }> {
    return this.run("list suggested gaps", async (sql) => {
      const rows = await sql`
        WITH g AS (
          SELECT query_key, count(*) AS misses, max(best_score) AS best, min(created_at) AS first_at, max(created_at) AS last_at,
                 (array_agg(query ORDER BY created_at DESC, id DESC))[1] AS query
            FROM pm_search_miss m
           WHERE NOT EXISTS (SELECT 1 FROM pm_research_gap r WHERE r.question_key = m.query_key)
           GROUP BY query_key HAVING count(*) >= ${minRepeats})
        SELECT *, count(*) OVER () AS total FROM g ORDER BY misses DESC, last_at DESC LIMIT ${limit}`;
      const suggested = rows.map((r) => ({
        query: String(r.query),
        misses: Number(r.misses),
        best_score: Number(Number(r.best).toFixed(4)),
        first_at: iso(r.first_at),
        last_at: iso(r.last_at),
      }));
      return { suggested, total: rows.length ? Number(rows[0].total) : 0 };
    });
  }

  recordSearch(query: string, atomIds: number[], threshold: number): Promise<{ logged: boolean; best: number }> {
    return this.run("log a search miss", async (sql) => {
      const [row] = await sql`
        WITH q AS (SELECT tsvector_to_array(to_tsvector('pegas', ${query}::text)) AS lx),
             s AS (SELECT COALESCE(max(cardinality(ARRAY(SELECT unnest(q.lx) INTERSECT SELECT unnest(tsvector_to_array(a.search_tsv))))::real
                                      / NULLIF(cardinality(q.lx), 0)), 0) AS best
                     FROM q LEFT JOIN pm_atom a ON a.id = ANY(${atomIds}::bigint[]) GROUP BY q.lx),
             ins AS (INSERT INTO pm_search_miss (query, query_key, best_score, hits)
                     SELECT ${query}, ${keyOf(sql, query)}, LEAST(1, s.best), ${atomIds.length} FROM s WHERE s.best < ${threshold}
                     RETURNING id)
        SELECT s.best, (SELECT max(id) FROM ins) AS id FROM s`;
      const id = row.id === null ? null : Number(row.id);
      // Found now (new knowledge came in): earlier misses of the same query are no longer a suggestion.
      if (id === null) await sql`DELETE FROM pm_search_miss WHERE query_key = ${keyOf(sql, query)}`;
      // The log keeps the newest MISS_LOG_MAX rows: every PRUNE_EVERY-th miss drops the older ones.
      if (id !== null && id % PRUNE_EVERY === 0) await sql`DELETE FROM pm_search_miss WHERE id <= ${id - MISS_LOG_MAX}`;
      return { logged: id !== null, best: Number(row.best) };
    });
  }

  updateGap(
    id: number,
    change: { status?: GapStatus; patch?: Record<string, unknown>; appendAttempt?: Record<string, unknown> },
  ): Promise<GapRow> {
    return this.run(
      `update gap ${id}`,
      (sql) =>
        sql.begin(async (tx) => {
          const [old] = await tx`SELECT ${tx(COLUMNS)} FROM pm_research_gap WHERE id = ${id} FOR UPDATE`;
          if (!old)
            throw new PegasError("NOT_FOUND", `no research gap ${id}`, {
              hint: "call memory_list_gaps to list gap ids",
            });
          const gap = toGap(old);
          if (gap.status !== "open") return gap;
          const metadata: Record<string, unknown> = { ...gap.metadata, ...(change.patch ?? {}) };
          if (change.appendAttempt) {
            const attempts = Array.isArray(gap.metadata.attempts) ? (gap.metadata.attempts as unknown[]) : [];
            metadata.attempts = [...attempts, change.appendAttempt].slice(-MAX_ATTEMPTS);
            metadata.attempt_count = Number(gap.metadata.attempt_count ?? 0) + 1;
          }
          const [row] = await tx`
          UPDATE pm_research_gap SET status = ${change.status ?? gap.status}, metadata = ${tx.json(metadata as never)}, updated_at = now()
           WHERE id = ${id} RETURNING ${tx(COLUMNS)}`;
          return toGap(row);
        }) as Promise<GapRow>,
    );
  }

  counters(minRepeats: number): Promise<GapCounters> {
    return this.run("count research gaps", async (sql) => {
      const [r] = await sql`
        SELECT count(*) FILTER (WHERE status = 'open') AS open, count(*) FILTER (WHERE status = 'answered') AS answered,
               count(*) FILTER (WHERE status = 'dismissed') AS dismissed,
               (SELECT count(*) FROM pm_search_miss) AS misses,
               (SELECT count(*) FROM (SELECT query_key FROM pm_search_miss m
                  WHERE NOT EXISTS (SELECT 1 FROM pm_research_gap g WHERE g.question_key = m.query_key)
                  GROUP BY query_key HAVING count(*) >= ${minRepeats}) k) AS suggested
          FROM pm_research_gap`;
      return {
        open: Number(r.open),
        answered: Number(r.answered),
        dismissed: Number(r.dismissed),
        suggested: Number(r.suggested),
        misses: Number(r.misses),
      };
    });
  }
}
