/**
 * SearchProjection port: the in-process lexical projection of the atoms (BM25 over PostgreSQL full-text lexemes)
 * that every process keeps current from the canonical tables by a high-water mark.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";

/** State of a projection, for stats. */
export interface ProjectionState {
  /** High-water mark (xid8 as text). */
  mark: string;
  /** When the last catch-up finished (ms since epoch; 0 = never). */
  lastSyncAt: number;
  /** Atoms held. */
  atoms: number;
}

/** The lexical projection. */
export interface SearchProjection {
  readonly state: ProjectionState;
  /** Applies every canonical change since the mark (and feeds an embedded vector index, if any); returns rows applied. */
  sync(): Promise<number>;
  /** Drops the in-process indexes and rebuilds them from the canonical tables; returns rows applied. */
  rebuild(): Promise<number>;
  /**
   * BM25 top-k atoms for analyzed query lexemes that pass `filter` (retracted never does). Notes lend their
   * neighbouring notes part of their score unless `opts.neighbours` is false (dedup asks for textual likeness only).
   */
  lexical(
    lexemes: LexemeTf[],
    k: number,
    filter: AtomFilter,
    opts?: { neighbours?: boolean },
  ): Array<{ atomId: number; score: number }>;
}
