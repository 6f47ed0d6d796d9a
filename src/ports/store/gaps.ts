/**
 * GapStore port: research gaps (`pm_research_gap`) and the search-miss log (`pm_search_miss`, migration 0009) in the
 * canonical database. Errors are PegasError (INVALID_INPUT, NOT_FOUND, STORE_UNAVAILABLE, MIGRATION_REQUIRED), never
 * a driver's error; every write is one transaction.
 */

/** Status of a gap: `open` until a verified atom answers it (`answered`) or the agent drops it (`dismissed`). */
export type GapStatus = "open" | "answered" | "dismissed";

/** Every gap status, in listing order. */
export const GAP_STATUSES: readonly GapStatus[] = ["open", "answered", "dismissed"];

/** One gap. `priority` is 1 (least urgent) .. 5 (most urgent); times are ISO 8601; `metadata` holds repeats, attempts, evidence. */
export interface GapRow {
  id: number;
  question: string;
  reason: string | null;
  priority: number;
  status: GapStatus;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** An open gap offered to the near-duplicate decision, with the lexemes of its question (`pegas` configuration). */
export interface GapCandidate extends GapRow {
  lexemes: string[];
}

/** A near-duplicate decision: the open gap that the new question repeats, and how that was decided. */
export interface GapDuplicate {
  gapId: number;
  /** `cosine+words`, `same statement`, … (English, for the gap's metadata and the tool result). */
  decidedBy: string;
  cosine: number;
  overlap: number;
}

/** A new gap as the core hands it to the store: validated, sanitized; `lexemes` of the question. */
export interface GapInsert {
  question: string;
  reason: string | null;
  priority: number;
}

/** Outcome of {@link GapStore.addGap}: the gap as stored, whether it is new, and the raise when it is not. */
export interface GapAddOutcome {
  gap: GapRow;
  created: boolean;
  /** Set when the question repeated an open gap: that gap's priority before the raise, and the decision. */
  repeat: { previousPriority: number; duplicate: GapDuplicate } | null;
}

/** A repeated search miss offered as a gap: the latest wording, how often, the best score seen (0..1), first and last time. */
export interface SuggestedGap {
  query: string;
  misses: number;
  best_score: number;
  first_at: string;
  last_at: string;
}

/** Gap counters of memory_stats. */
export interface GapCounters {
  open: number;
  answered: number;
  dismissed: number;
  /** Distinct queries missed at least `minRepeats` times and not covered by a gap. */
  suggested: number;
  /** Logged search misses (rows). */
  misses: number;
}

/** The store side of research gaps. */
export interface GapStore {
  /**
   * Adds a gap unless `decide` names an open gap it repeats: then that gap's priority becomes
   * min(5, max(its priority + 1, the given priority)) and the repeat is appended to `metadata.repeats` (at most 20
   * kept; `metadata.repeat_count` counts all). Candidates are the open gaps sharing a lexeme with the question (at most
   * 50, most urgent first). Runs under a transaction-scoped advisory lock, so two concurrent adds of one question
   * give one gap. `decide` runs inside that transaction and must not query the database itself (on the embedded
   * PGlite, which serves one transaction at a time, such a query would wait for the transaction forever).
   * @throws PegasError INVALID_INPUT (schema), STORE_UNAVAILABLE.
   */
  addGap(
    input: GapInsert,
    decide: (lexemes: string[], candidates: GapCandidate[]) => Promise<GapDuplicate | null>,
  ): Promise<GapAddOutcome>;
  /** One gap. @throws PegasError NOT_FOUND. */
  getGap(id: number): Promise<GapRow>;
  /** Gaps of `status` (all when null), most urgent first, then oldest first; at most `limit` after skipping `offset` (default 0), and the total. */
  listGaps(status: GapStatus | null, limit: number, offset?: number): Promise<{ gaps: GapRow[]; total: number }>;
  /** Repeated misses (≥ `minRepeats` of one key) whose key no gap's question has, most missed first; at most `limit`, and the total. */
  suggestedGaps(minRepeats: number, limit: number): Promise<{ suggested: SuggestedGap[]; total: number }>;
  /**
   * Logs `query` as a miss when its best hit among `atomIds` contains less than `threshold` (0..1) of the query's
   * lexemes (no hit: score 0); one round trip. A search that is not a miss clears the earlier misses of the same
   * query key (it is found now). Returns whether it was logged and the best score. The log keeps the newest 100,000
   * misses (older ones are pruned as new ones come).
   */
  recordSearch(query: string, atomIds: number[], threshold: number): Promise<{ logged: boolean; best: number }>;
  /**
   * Merges `patch` into the gap's metadata (top-level keys replaced; `appendAttempt` is pushed onto
   * `metadata.attempts`, the last 10 kept) and sets `status` when given, only while the gap is still `open`
   * (an answered or dismissed gap is returned unchanged). @throws PegasError NOT_FOUND.
   */
  updateGap(
    id: number,
    change: { status?: GapStatus; patch?: Record<string, unknown>; appendAttempt?: Record<string, unknown> },
  ): Promise<GapRow>;
  /** Counters for memory_stats (`minRepeats` as in {@link suggestedGaps}). */
  counters(minRepeats: number): Promise<GapCounters>;
}
