/**
 * AtomWrites port: one atom stored by the agent (exact dedup by content hash, an optional near-duplicate merge and
 * links, one transaction with its outbox rows), what dedup compares of stored atoms, and undoing a merge; with the
 * shapes of a new atom and its evidence that ingests share. Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED, INVALID_INPUT, NOT_FOUND), never a driver error.
 */
import type { NamedEntity } from "../../domain/entities/types.ts";
import type { AtomType } from "../../domain/atom.ts";
import type { Locator } from "../../domain/locator.ts";
import type { AtomTime } from "../../domain/time/atom-time.ts";

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
  /**
   * `to_tsvector('pegas', searchText)::text` when the caller has it already (an ingest computes it once for dedup,
   * SearchReads.searchVectors); absent, the store computes it. Stemming was ≈ 60 % of an atom insert.
   */
  searchTsv?: string;
  /** When the source said it and when it happened (absent: unknown); see migrations/0016_atom_time.sql. */
  time?: AtomTime;
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

/**
 * One atom of an ingest plan with its evidence, an optional merge, its links, and the entities an LLM distiller named
 * in its chunk: the write finds the atom's mentions from them (domain/entities/named.ts), or with the heuristic
 * extractor when there are none.
 */
export interface PlannedAtom {
  atom: AtomInput;
  citation: CitationInput;
  mergeInto?: PlannedMerge;
  links?: PlannedLink[];
  entities?: NamedEntity[];
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

/** Writes of single atoms and merges. */
export interface AtomWrites {
  /** Stores one atom (exact dedup by content hash) with an optional citation of `sourceUri`. */
  storeAtom(input: StoreAtomInput): Promise<StoreAtomResult>;
  /** Type, content and embedding of `model` of the given atoms (those without one are absent), for dedup. */
  dedupCandidates(atomIds: number[], model: string): Promise<DedupCandidate[]>;
  /** Undoes a merge: the absorbed atom becomes `candidate` again, the copied citation is removed. NOT_FOUND, INVALID_INPUT (already undone). */
  undoMerge(mergeId: number): Promise<MergeRecord>;
}
