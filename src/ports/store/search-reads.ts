/**
 * SearchReads port: the store's text analysis (the `pegas` text search configuration: Russian + English stemming)
 * and its trigram fallback search over claims. Read-only. Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED), never a driver error.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { AtomTime } from "../../domain/time/atom-time.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";

/** Text analysis and trigram search. */
export interface SearchReads {
  /** Lexemes of a query under the `pegas` text search configuration (Russian + English stemming). */
  analyze(text: string): Promise<LexemeTf[]>;
  /** Lexemes of many texts under the `pegas` configuration, in input order (one round trip). */
  analyzeMany(texts: string[]): Promise<LexemeTf[][]>;
  /**
   * The text form of each text's `to_tsvector('pegas', …)`, in input order (one round trip): what an atom's
   * `search_tsv` holds, computed once by an ingest for both its dedup lookup and its insert (AtomInput.searchTsv).
   */
  searchVectors(texts: string[]): Promise<string[]>;
  /** Trigram fallback: atoms whose claim is word-similar to `query` (pg_trgm), best first. */
  trigramSearch(query: string, k: number, filter: AtomFilter): Promise<Array<{ atomId: number; score: number }>>;
  /** The time of each of `atomIds` that has one (migration 0016): observed_at, event time; others are absent. */
  atomTimes(atomIds: number[]): Promise<Map<number, AtomTime>>;
}
