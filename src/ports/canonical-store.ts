/**
 * CanonicalStore port: the single source of truth (PostgreSQL or embedded PGlite). Every write that belongs
 * together happens in one transaction, with its outbox rows; errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED, INVALID_INPUT, NOT_FOUND), never a driver error.
 */
import type { AtomFilter, AtomStatus, AtomType } from "../domain/atom.ts";
import type { LexemeTf } from "../domain/tsvector.ts";
import type { TraceInput, TraceQuery, TraceRow, TraceStored } from "./episodic-trace.ts";
import type {
  RevertApplied,
  StatusChangeRecord,
  VerificationApplied,
  VerificationSelection,
  VerificationTargets,
  VerificationWrite,
  VerifySubject,
} from "./verification.ts";
import type {
  DedupCandidate,
  IngestCommit,
  IngestPlan,
  MergeRecord,
  QuarantineResolution,
  QuarantinedChunk,
  StoreAtomInput,
  StoreAtomResult,
} from "./store-writes.ts";
export type {
  AtomInput,
  ChunkInput,
  CitationInput,
  DedupCandidate,
  DocumentInput,
  IngestCommit,
  IngestPlan,
  MergeRecord,
  PlannedAtom,
  PlannedLink,
  PlannedMerge,
  QuarantineInput,
  QuarantineResolution,
  QuarantinedChunk,
  StoreAtomInput,
  StoreAtomResult,
} from "./store-writes.ts";

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

/** What every link shows in memory_get: its row, kind, confidence, who asserted it, whether it was inferred, when. */
export interface LinkViewBase {
  link_id: number;
  kind: string;
  confidence: number;
  /** Who asserted it: `extraction`, `verification`, `agent`, `inference`, … */
  source: string;
  inferred: boolean;
  created_at: string;
}

/** A link between two atoms as memory_get shows it, from the viewed atom's side (`atom_id`: the other atom). */
export interface AtomLinkView extends LinkViewBase {
  atom_id: number;
  /** The other atom's claim, cut to 300 characters. */
  claim: string;
  type: string;
  status: string;
}

/** A link from an atom to a code symbol (`defines`, …) with where the symbol is. */
export interface AtomSymbolLinkView extends LinkViewBase {
  symbol_id: number;
  repo: string;
  path: string;
  /** First line of the symbol (1-based). */
  line: number;
  qualified_name: string;
  symbol_kind: string;
}

/** An atom's links, newest first, each list capped (the totals count all). */
export interface AtomLinks {
  out: AtomLinkView[];
  outTotal: number;
  in: AtomLinkView[];
  inTotal: number;
  symbols: AtomSymbolLinkView[];
  symbolsTotal: number;
  /** The merge that absorbed this atom into another, when one did and was not undone. */
  mergedInto: { mergeId: number; atomId: number } | null;
}

/** An endpoint of memory_link: an atom or a code symbol, by row id. */
export interface LinkEndpoint {
  kind: "atom" | "symbol";
  id: number;
}

/** A relation the agent asserts: `kind` a single token, `confidence` in 0..1. */
export interface LinkRequest {
  src: LinkEndpoint;
  dst: LinkEndpoint;
  kind: string;
  confidence: number;
}

/** The stored link: its row, the table that holds it, whether it is new, and its source and confidence now. */
export interface LinkApplied {
  linkId: number;
  table: "pm_atom_link" | "pm_atom_symbol_link" | "pm_code_dependency";
  created: boolean;
  /** `agent`, or the source of the edge that already existed (`extraction`, `verification`, `inference`). */
  source: string;
  confidence: number;
}

/** What memory_link with `remove` asks: the link `src -kind-> dst` (the endpoints and kind it was stored with). */
export interface UnlinkRequest {
  src: LinkEndpoint;
  dst: LinkEndpoint;
  kind: string;
}

/**
 * A removed link (its row, table, source and confidence before it went) and what truth maintenance did: inferred
 * edges whose recorded justification used it were deleted, cascading; those another justification still holds were
 * stored again (new rows).
 */
export interface UnlinkApplied {
  linkId: number;
  table: LinkApplied["table"];
  /** `agent`, or for an atom → atom link `extraction`, `dedup` or a verifier's name (see {@link CanonicalStore.unlink}). */
  source: string;
  confidence: number;
  /** Inferred edges gone with it (deleted and not held by another justification). */
  inferredRetracted: number;
  /** Inferred edges that depended on it but another justification still holds (stored again, new ids). */
  inferredRederived: number;
}

/** What memory_forget asks: atoms or one document, forgotten or (undo) restored, with the reason recorded. */
export type ForgetRequest = ({ atomIds: number[] } | { docId: number }) & { reason: string; undo: boolean };

/** What a forget (or its undo) changed. */
export interface ForgetOutcome {
  /** The recorded status changes, one per atom changed (actor `forget`, or `forget-undo`). */
  changes: StatusChangeRecord[];
  /** Atoms left as they were: already retracted (forget) or not retracted by a forget (undo). */
  unchanged: number[];
  /** Links queued to the outbox: withdrawn from the projections (or restored on undo). */
  links: number;
  /** For a document: how many atoms it has. */
  atoms?: number;
  /** Research gaps open again because the atoms that answered them were retracted. */
  gapsReopened?: number[];
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
  /** Near-duplicate merges in force (not undone). */
  merges: number;
  /** Chunks whose distillation failed and awaits `pegas-memory distill --retry`. */
  quarantined_chunks: number;
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
  documentByUri(
    uri: string,
  ): Promise<{ id: number; version: number; title: string | null; contentHash: string | null } | null>;
  /** Writes a whole ingest in one transaction (document version, chunks, atoms, embeddings, citations, outbox). */
  commitIngest(plan: IngestPlan): Promise<IngestCommit>;
  /** Stores one atom (exact dedup by content hash) with an optional citation of `sourceUri`. */
  storeAtom(input: StoreAtomInput): Promise<StoreAtomResult>;
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
  /** Links of an atom out, in and to code symbols, at most `limit` of each, newest first (an unknown atom has none). */
  atomLinks(atomId: number, limit: number, offset?: number): Promise<AtomLinks>;
  /** Stores a relation the agent asserts, with its outbox row. NOT_FOUND (endpoint), INVALID_INPUT (retracted atom, symbol → atom). */
  link(req: LinkRequest): Promise<LinkApplied>;
  /**
   * Removes the link `src -kind-> dst` in one transaction: the row, its outbox `delete` row (the projections drop the
   * edge), and what memory_infer derived from it unless another justification holds it. Removable: the agent's links
   * (any table) and atom → atom links of extraction, dedup or verification. NOT_FOUND (no such link, with a hint);
   * INVALID_INPUT for an inferred link (its premises or rule go instead), a link the code store made (it would come
   * back on the next memory_store_code) and symbol → atom.
   */
  unlink(req: UnlinkRequest): Promise<UnlinkApplied>;
  /** Retracts (or restores) atoms or a document's atoms, recording who/why/when; outbox rows for atoms and links. NOT_FOUND. */
  forget(req: ForgetRequest): Promise<ForgetOutcome>;
  /** Counters for memory_stats. */
  stats(): Promise<StoreStats>;
  /** Atoms (any status but retracted) that have no embedding of `model`, in id order after `afterId`. */
  atomsWithoutEmbedding(
    model: string,
    limit: number,
    afterId: number,
  ): Promise<Array<{ id: number; claim: string; content: string }>>;
  /** Stores embeddings of existing atoms (idempotent: an existing row for the atom and model is kept). */
  putEmbeddings(rows: EmbeddingRow[], model: string): Promise<void>;

  // Knowledge: dedup candidates, merges, distillation quarantine (issue 4)
  /** Lexemes of many texts under the `pegas` configuration, in input order (one round trip). */
  analyzeMany(texts: string[]): Promise<LexemeTf[][]>;
  /** Stored embeddings of `model` for the given atoms (atoms without one are absent). */
  embeddingsOf(atomIds: number[], model: string): Promise<Map<number, Float32Array>>;
  /** Type, content and embedding of `model` of the given atoms (those without one are absent), for dedup. */
  dedupCandidates(atomIds: number[], model: string): Promise<DedupCandidate[]>;
  /** Undoes a merge: the absorbed atom becomes `candidate` again, the copied citation is removed. NOT_FOUND, INVALID_INPUT (already undone). */
  undoMerge(mergeId: number): Promise<MergeRecord>;
  /** Open quarantine entries, oldest first, with the chunk text (retry input). */
  openQuarantine(limit: number, docId?: number): Promise<QuarantinedChunk[]>;
  /** Stores the atoms of a successful retry and closes the entry, in one transaction; returns the commit counters. */
  resolveQuarantine(res: QuarantineResolution): Promise<IngestCommit>;
  /** Records another failed attempt for an entry. */
  failQuarantine(id: number, reason: string, detail: string): Promise<void>;

  // Episodic traces (issue 4)
  /** Stores one trace with its `pegas` tsvector; the same `requestKey` again returns the first row. */
  addTrace(input: TraceInput): Promise<TraceStored>;
  /** One page of traces (at most `q.limit` rows after `q.offset`) matched as `q.match` says; never atoms. */
  searchTraces(q: TraceQuery): Promise<TraceRow[]>;

  // Verification (issue 4)
  /** Atom ids to verify: the atom, the document's atoms, or `candidate` atoms oldest first. NOT_FOUND for an unknown atom or document. */
  verificationTargets(sel: VerificationSelection): Promise<VerificationTargets>;
  /** Atoms with their evidence documents, in the order of `ids` (missing ids are skipped). */
  verificationSubjects(ids: number[]): Promise<VerifySubject[]>;
  /** Applies one verification step (status changes recorded, links, confidence raises, outbox rows) in one transaction. */
  applyVerification(write: VerificationWrite): Promise<VerificationApplied>;
  /** Reverts a recorded status change. NOT_FOUND; INVALID_INPUT when already reverted or the atom's status changed since. */
  revertStatusChange(changeId: number): Promise<RevertApplied>;
  /** An atom's recorded status changes, newest first, at most `limit`. NOT_FOUND for an unknown atom. */
  statusHistory(atomId: number, limit: number): Promise<StatusChangeRecord[]>;
}
