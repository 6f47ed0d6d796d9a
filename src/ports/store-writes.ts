/**
 * The write side of the CanonicalStore port: what an ingest, a quarantine retry and an agent store hand to the store
 * (documents, chunks, atoms with their evidence, merges, links, quarantined chunks) and what the store reports back.
 */
import type { AtomType } from "../domain/atom.ts";
import type { DocumentKind, Locator } from "./canonical-store.ts";

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

/**
 * A link from a planned atom: to a stored atom (`atomId`) or to another planned atom of the same plan (`planned`,
 * its index). Kinds are single tokens (`reference`, `contradicts`, `related`, …).
 */
export interface PlannedLink {
  atomId?: number;
  planned?: number;
  kind: string;
  /** 0..1. */
  confidence: number;
  /** Who asserted it: `extraction` (the distiller), `dedup`, `agent`. */
  source: string;
}

/**
 * A near-duplicate merge: the planned atom says the same as a stored atom (`atomId`) or an earlier planned one
 * (`planned`). The planned atom is still stored, as `stale`, so that the merge can be undone; its citation is copied
 * onto the atom that absorbs it, and a pm_atom_merge row records both.
 */
export interface PlannedMerge {
  atomId?: number;
  planned?: number;
  cosine: number;
  reason: string;
}

/** One atom of an ingest plan with its evidence, an optional merge and its links. */
export interface PlannedAtom {
  atom: AtomInput;
  citation: CitationInput;
  mergeInto?: PlannedMerge;
  links?: PlannedLink[];
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

/** Everything one ingest writes, applied in one transaction by {@link CanonicalStore.commitIngest}. */
export interface IngestPlan {
  document: DocumentInput;
  chunks: ChunkInput[];
  atoms: PlannedAtom[];
  quarantine?: QuarantineInput[];
  model: string;
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
  atomIds: number[];
  /** The merges this commit made (undo one with CanonicalStore.undoMerge). */
  merges: Array<{ mergeId: number; keptAtomId: number; absorbedAtomId: number }>;
}

/** Atoms written by one distillation of a quarantined chunk (see {@link CanonicalStore.resolveQuarantine}). */
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

/** What dedup compares of a stored atom. */
export interface DedupCandidate {
  id: number;
  type: AtomType;
  content: string;
  vector: Float32Array;
}

/** A merge as recorded. */
export interface MergeRecord {
  id: number;
  keptAtomId: number;
  absorbedAtomId: number;
  cosine: number | null;
  reason: string;
  undoneAt: string | null;
}

/** One agent store: the atom, its optional source citation, an optional merge and links to stored atoms. */
export interface StoreAtomInput {
  atom: AtomInput;
  model: string;
  sourceUri?: string;
  quote?: string;
  mergeInto?: { atomId: number; cosine: number; reason: string };
  links?: PlannedLink[];
}

/** Result of storing one atom from the agent. */
export interface StoreAtomResult {
  /** The atom that holds the knowledge: the new one, the existing exact duplicate, or the one that absorbed it. */
  atomId: number;
  created: boolean;
  /** Set when the store was merged into a near-duplicate: the merge row and the absorbed (stale) atom. */
  merge: { mergeId: number; absorbedAtomId: number } | null;
  linksAdded: number;
  citationAdded: boolean;
  docId: number | null;
}
