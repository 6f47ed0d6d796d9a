/**
 * TraceStore port: episodic traces (issue 4, item 6), stored and searched apart from atoms. Errors are PegasError
 * (STORE_UNAVAILABLE, MIGRATION_REQUIRED), never a driver error.
 */

/** The kinds of an episodic trace. */
export type TraceKind = "plan" | "action" | "observation" | "reflection";

/** A trace to store: content already sanitized and non-empty; `requestKey` a fresh UUID per call (retry-safe). */
export interface TraceInput {
  kind: TraceKind;
  content: string;
  session: string | null;
  metadata: Record<string, unknown>;
  requestKey: string;
}

/** A stored trace's id and creation time (ISO 8601, UTC). */
export interface TraceStored {
  id: number;
  createdAt: string;
}

/** How a trace search matches: full-text on `pegas`, pg_trgm word similarity, or no query (newest first). */
export type TraceMatch = "fulltext" | "trigram" | "recent";

/** A trace search page request; `since` is an ISO 8601 UTC timestamp, content is cut to `maxContentChars` code points. */
export interface TraceQuery {
  text: string;
  session?: string;
  kinds?: TraceKind[];
  since?: string;
  limit: number;
  offset: number;
  match: TraceMatch;
  maxContentChars: number;
}

/** A trace hit: `content` cut (then `truncated`), `contentChars` the whole length in code points, `createdAt` ISO UTC. */
export interface TraceRow {
  id: number;
  kind: TraceKind;
  session: string | null;
  content: string;
  truncated: boolean;
  contentChars: number;
  metadata: Record<string, unknown>;
  createdAt: string;
  /** ts_rank_cd (fulltext), word similarity 0..1 (trigram), 0 (recent). */
  score: number;
}

/** Episodic trace writes and reads. */
export interface TraceStore {
  /** Stores one trace with its `pegas` tsvector; the same `requestKey` again returns the first row. */
  addTrace(input: TraceInput): Promise<TraceStored>;
  /** One page of traces (at most `q.limit` rows after `q.offset`) matched as `q.match` says; never atoms. */
  searchTraces(q: TraceQuery): Promise<TraceRow[]>;
}
