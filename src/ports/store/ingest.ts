/**
 * IngestWrites port: a whole ingest written in one transaction (document version, chunks, atoms, embeddings,
 * citations, merges, quarantined chunks, outbox rows), the active version of a document, and the distillation
 * quarantine that `pegas-memory distill --retry` works through. Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED, INVALID_INPUT, NOT_FOUND), never a driver error.
 */
import type { DocumentKind, Locator } from "../../domain/locator.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";
import type { DedupCandidate, PlannedAtom } from "./atom-writes.ts";
import type { SupersessionSubject } from "./supersession.ts";

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

/** A chunk whose distillation failed: recorded for a later retry; none of its atoms is stored. */
export interface QuarantineInput {
  chunkOrd: number;
  distiller: string;
  /** Machine-readable reason: length | json | schema | context_length | http | timeout | empty | error. */
  reason: string;
  /** An excerpt of the last answer or error (≤ 500 characters). */
  detail: string;
  attempts: number;
}

/**
 * A supersession decided before an ingest's transaction (core/documents/supersede-ingest.ts) and recorded inside it:
 * each side is a stored atom (`atomId`) or a planned atom (`planned`, its index in the plans' concatenated atoms).
 */
export interface PlannedSupersession {
  newer: { atomId?: number; planned?: number };
  older: { atomId?: number; planned?: number };
  reason: string;
}

/** Everything one ingest writes, applied in one transaction by {@link IngestWrites.commitIngest}. */
export interface IngestPlan {
  document: DocumentInput;
  chunks: ChunkInput[];
  atoms: PlannedAtom[];
  quarantine?: QuarantineInput[];
  model: string;
  /** Supersessions whose newer side is an atom of this plan (recorded as SupersessionStore.applySupersessions does). */
  supersessions?: PlannedSupersession[];
}

/**
 * Outcome of an ingest commit. `unchanged` means the same content was already stored: nothing was written.
 * Per planned atom exactly one of created / existing / merged is counted, so they sum to the planned atoms.
 */
export interface IngestCommit {
  docId: number;
  version: number;
  unchanged: boolean;
  atomsCreated: number;
  atomsExisting: number;
  /** Planned atoms absorbed by a near-duplicate of the same meaning (merge rows written). */
  atomsMerged: number;
  citationsAdded: number;
  linksAdded: number;
  atomsStaled: number;
  /** Atoms that were stale and that this version contains again (back to candidate). */
  atomsRevived: number;
  chunksQuarantined: number;
  /** Atoms this commit's supersessions made `superseded`. */
  atomsSuperseded: number;
  atomIds: number[];
  /** The merges this commit made (undo one with AtomWrites.undoMerge). */
  merges: Array<{ mergeId: number; keptAtomId: number; absorbedAtomId: number }>;
}

/** Atoms written by one distillation of a quarantined chunk (see {@link IngestWrites.resolveQuarantine}). */
export interface QuarantineResolution {
  quarantineId: number;
  atoms: PlannedAtom[];
  model: string;
}

/** An open quarantine entry with what a retry needs. */
export interface QuarantinedChunk {
  id: number;
  docId: number;
  docVersion: number;
  chunkOrd: number;
  chunkText: string;
  locator: Locator;
  lang: string;
  title: string | null;
  distiller: string;
  reason: string;
  attempts: number;
}

/** The active document at a uri: `contentHash` is null when the document is only referenced, never fetched. */
export interface ActiveDocument {
  id: number;
  version: number;
  title: string | null;
  contentHash: string | null;
}

/** The reads a document written in parts plans each part with, answered inside its transaction (see IngestSession). */
export interface IngestSessionReads {
  /** As SearchReads.searchVectors. */
  searchVectors(texts: string[]): Promise<string[]>;
  /** As SearchReads.analyzeMany. */
  analyzeMany(texts: string[]): Promise<LexemeTf[][]>;
  /** As AtomWrites.dedupCandidates. */
  dedupCandidates(atomIds: number[], model: string): Promise<DedupCandidate[]>;
  /** As SupersessionStore.supersessionSubjects. */
  supersessionSubjects(ids: number[]): Promise<SupersessionSubject[]>;
}

/** One part of a document written in parts: its chunks and planned atoms (references index this part's atoms). */
export interface IngestPart {
  chunks: ChunkInput[];
  atoms: PlannedAtom[];
  quarantine?: QuarantineInput[];
  supersessions?: PlannedSupersession[];
}

/** What writing a part did: the commit counters of its atoms, and the atom holding each planned atom's knowledge. */
export interface IngestPartWritten extends IngestCommit {
  /** Per planned atom of the part, in order: the atom that holds its knowledge (as IngestCommit.atomIds, not deduplicated). */
  heldBy: number[];
}

/**
 * A large document written part by part inside ONE transaction (IngestWrites.ingestInParts): nothing of it is visible
 * to any other reader until {@link IngestSession.finish} returns and the transaction commits, and a failure or a kill
 * anywhere leaves nothing (the database rolls the transaction back). Only one part's rows are held in memory.
 */
export interface IngestSession {
  /** Reads inside the transaction: any other statement of this process would wait for it (PGlite has one writer). */
  readonly reads: IngestSessionReads;
  /** Registers the new version; `unchanged` when the stored version already has this content (nothing written then). */
  begin(document: DocumentInput): Promise<{ docId: number; version: number; unchanged: boolean }>;
  /** Writes one part (chunks, atoms, embeddings, citations, merges, links, mentions, supersessions, quarantine). */
  writePart(part: IngestPart, model: string): Promise<IngestPartWritten>;
  /** Revives and stales as a one-transaction commit does, queues the outbox rows; the counters of the whole version. */
  finish(): Promise<Pick<IngestCommit, "atomsStaled" | "atomsRevived">>;
}

/** Ingest commits and the distillation quarantine. */
export interface IngestWrites {
  /**
   * Runs `fn` inside one transaction holding an {@link IngestSession}; commits when it resolves, rolls back when it
   * throws (the error is rethrown). @throws PegasError STORE_UNAVAILABLE (also a full disk: checked before each part), or `fn`'s error.
   */
  ingestInParts<T>(fn: (session: IngestSession) => Promise<T>): Promise<T>;
  /** The active document at `uri`, or null. */
  documentByUri(uri: string): Promise<ActiveDocument | null>;
  /** Writes a whole ingest in one transaction (document version, chunks, atoms, embeddings, citations, outbox). */
  commitIngest(plan: IngestPlan): Promise<IngestCommit>;
  /**
   * Writes several documents' ingests in one transaction, one commit per plan in order. Their atoms form one list: a
   * planned reference indexes the concatenation of the plans' atoms. Resolves to null, having written nothing, when
   * one of the documents is already stored with the same content (commit them one by one then).
   */
  commitIngestBatch(plans: IngestPlan[]): Promise<IngestCommit[] | null>;
  /** Open quarantine entries, oldest first, with the chunk text (retry input). */
  openQuarantine(limit: number, docId?: number): Promise<QuarantinedChunk[]>;
  /** Stores the atoms of a successful retry and closes the entry, in one transaction; returns the commit counters. */
  resolveQuarantine(res: QuarantineResolution): Promise<IngestCommit>;
  /** Records another failed attempt for an entry. */
  failQuarantine(id: number, reason: string, detail: string): Promise<void>;
}
