/**
 * CanonicalStore port: the single source of truth (PostgreSQL or embedded PGlite). Every write that belongs
 * together happens in one transaction, with its outbox rows; errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED, INVALID_INPUT, NOT_FOUND), never a driver error.
 */
import type { AtomFilter, AtomStatus, AtomType } from "../domain/atom.ts";
import type { LexemeTf } from "../domain/tsvector.ts";
import type { TraceInput, TraceQuery, TraceRow, TraceStored } from "./episodic-trace.ts";

/** Source kinds of the data model. */
export type DocumentKind = "web" | "pdf" | "epub" | "text" | "code_repo";

/**
 * Where a piece of evidence sits in its document; every field optional. `char_*` are code-point offsets (0-based,
 * end exclusive) and `line_*` 1-based inclusive line numbers within the section (the whole text, a PDF page, an
 * EPUB chapter); `page` is 1-based; `chapter` is the chapter title, `chapter_index` its 1-based spine position
 * and `href` its path inside the EPUB.
 */
export interface Locator {
  char_start?: number;
  char_end?: number;
  line_start?: number;
  line_end?: number;
  page?: number;
  chapter?: string;
  chapter_index?: number;
  href?: string;
}

/** A document to register (upserted by `uri`). */
export interface DocumentInput {
  kind: DocumentKind;
  uri: string;
  title: string | null;
  contentHash: string;
  byteSize: number;
  /** Prior trust in [0, 1] from the authority rules. */
  authority: number;
  metadata: Record<string, unknown>;
}

/** A chunk of the new document version. */
export interface ChunkInput {
  ord: number;
  text: string;
  contentHash: string;
  locator: Locator;
}

/** A new atom with its canonical embedding and its evidence. */
export interface AtomInput {
  type: AtomType;
  claim: string;
  content: string;
  /** Text that full-text search indexes (claim + content without repeating the claim). */
  searchText: string;
  contentHash: string;
  confidence: number;
  lang: string;
  metadata: Record<string, unknown>;
  vector: Float32Array;
}

/** Evidence for an atom: the chunk it came from (by `ord` within the ingest) or a free locator. */
export interface CitationInput {
  chunkOrd?: number;
  locator: Locator;
  quote: string;
}

/** One atom of an ingest plan: a new atom, or (when `duplicateOf` is set) a near-duplicate of an existing one. */
export interface PlannedAtom {
  atom: AtomInput;
  citation: CitationInput;
  /** Existing atom id that this atom duplicates in meaning: only a citation is added to it. */
  duplicateOf?: number;
  /** Index of an earlier planned atom (without `duplicateOf`) that this one duplicates in meaning. */
  duplicateOfPlanned?: number;
}

/** Everything one ingest writes, applied in one transaction by {@link CanonicalStore.commitIngest}. */
export interface IngestPlan {
  document: DocumentInput;
  chunks: ChunkInput[];
  atoms: PlannedAtom[];
  model: string;
}

/**
 * Outcome of an ingest commit. `unchanged` means the same content was already stored: nothing was written.
 * Per planned atom exactly one of created / existing / near-duplicate is counted, so they sum to the chunks.
 */
export interface IngestCommit {
  docId: number;
  version: number;
  unchanged: boolean;
  atomsCreated: number;
  atomsExisting: number;
  atomsNearDuplicate: number;
  citationsAdded: number;
  atomsStaled: number;
  /** Atoms that were stale and that this version contains again (back to candidate). */
  atomsRevived: number;
  atomIds: number[];
}

/** Result of storing one atom from the agent. */
export interface StoreAtomResult {
  atomId: number;
  created: boolean;
  citationAdded: boolean;
  docId: number | null;
}

/** A citation as returned with atoms. */
export interface CitationView {
  doc_id: number;
  uri: string;
  title: string | null;
  kind: DocumentKind;
  doc_version: number;
  locator: Locator;
  quote: string;
}

/** An atom as returned to callers. */
export interface AtomView {
  id: number;
  type: AtomType;
  claim: string;
  content: string;
  confidence: number;
  status: AtomStatus;
  doc_id: number | null;
  lang: string;
  created_at: string;
  citations: CitationView[];
  citation_count: number;
}

/** Position in the change feed: the transaction id (xid8 as decimal text) and row id of the last row read. */
export interface ChangeCursor {
  xid: string;
  id: number;
}

/** What the in-process indexes need of one atom; `xid` is the transaction that last changed it. */
export interface AtomIndexRow {
  id: number;
  xid: string;
  type: AtomType;
  status: AtomStatus;
  docId: number | null;
  lexemes: LexemeTf[];
}

/** A canonical embedding row (`xid`: the transaction that last wrote it, present in change-feed rows). */
export interface EmbeddingRow {
  atomId: number;
  vector: Float32Array;
  xid?: string;
}

/** Counters of memory_stats. */
export interface StoreStats {
  atoms: { total: number; by_type: Record<string, number>; by_status: Record<string, number> };
  documents: { total: number; by_kind: Record<string, number> };
  chunks: number;
  citations: number;
  links: number;
  symbols: number;
  dependencies: number;
  open_gaps: number;
  traces: number;
  embeddings: Record<string, number>;
  outbox: { pending: number; dead: number; oldest_pending_age_s: number | null };
  schema_version: number;
}

/** Applied and pending schema migrations. */
export interface MigrationStatus {
  applied: number[];
  pending: number[];
}

/** The canonical store. */
export interface CanonicalStore {
  /** Applies pending migrations under an advisory lock; returns the versions applied now. */
  migrate(): Promise<number[]>;
  /** Applied and pending migrations. */
  migrationStatus(): Promise<MigrationStatus>;
  /** The active document at `uri` (content hash null when only referenced, never fetched), or null. */
  documentByUri(uri: string): Promise<{ id: number; version: number; title: string | null; contentHash: string | null } | null>;
  /** Writes a whole ingest in one transaction (document version, chunks, atoms, embeddings, citations, outbox). */
  commitIngest(plan: IngestPlan): Promise<IngestCommit>;
  /** Stores one atom (exact dedup by content hash) with an optional citation of `sourceUri`. */
  storeAtom(input: { atom: AtomInput; model: string; sourceUri?: string; quote?: string; duplicateOf?: number }): Promise<StoreAtomResult>;
  /** Lexemes of a query under the `pegas` text search configuration (Russian + English stemming). */
  analyze(text: string): Promise<LexemeTf[]>;
  /**
   * The current high-water mark: the snapshot's xmin (an xid8 as decimal text). Every transaction below it has
   * finished, so any change not yet read carries a transaction id ≥ it ("0" reads everything).
   */
  changeMark(): Promise<string>;
  /** At most `limit` atoms after `cursor` in (change xid, id) order; start with `{ xid: mark, id: 0 }`. */
  atomChanges(cursor: ChangeCursor, limit: number): Promise<AtomIndexRow[]>;
  /** At most `limit` embeddings of `model` after `cursor` in (change xid, atom id) order. */
  embeddingChanges(cursor: ChangeCursor, model: string, limit: number): Promise<EmbeddingRow[]>;
  /** Trigram fallback: atoms whose claim is word-similar to `query` (pg_trgm), best first. */
  trigramSearch(query: string, k: number, filter: AtomFilter): Promise<Array<{ atomId: number; score: number }>>;
  /** Atoms by id with up to `maxCitations` citations each, in the order of `ids` (missing ids are skipped). */
  atomsByIds(ids: number[], maxCitations: number): Promise<AtomView[]>;
  /** Counters for memory_stats. */
  stats(): Promise<StoreStats>;
  /** Atoms (any status but retracted) that have no embedding of `model`, in id order after `afterId`. */
  atomsWithoutEmbedding(model: string, limit: number, afterId: number): Promise<Array<{ id: number; claim: string; content: string }>>;
  /** Stores embeddings of existing atoms (idempotent: an existing row for the atom and model is kept). */
  putEmbeddings(rows: EmbeddingRow[], model: string): Promise<void>;

  // Episodic traces (issue 4)
  /** Stores one trace with its `pegas` tsvector; the same `requestKey` again returns the first row. */
  addTrace(input: TraceInput): Promise<TraceStored>;
  /** One page of traces (at most `q.limit` rows after `q.offset`) matched as `q.match` says; never atoms. */
  searchTraces(q: TraceQuery): Promise<TraceRow[]>;
}
