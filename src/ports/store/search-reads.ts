/**
 * SearchReads port: the store's text analysis (the `pegas` text search configuration: Russian + English stemming)
 * and its trigram fallback search over claims. Read-only. Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED), never a driver error.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { EventTime } from "../../domain/time/atom-time.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";

/** Text analysis and trigram search. */
export interface SearchReads {
  /** Lexemes of a query under the `pegas` text search configuration (Russian + English stemming). */
  analyze(text: string): Promise<LexemeTf[]>;
  /** Lexemes of many texts under the `pegas` configuration, in input order (one round trip). */
  analyzeMany(texts: string[]): Promise<LexemeTf[][]>;
  /** Trigram fallback: atoms whose claim is word-similar to `query` (pg_trgm), best first. */
  trigramSearch(query: string, k: number, filter: AtomFilter): Promise<Array<{ atomId: number; score: number }>>;
  /** The event time of each of `atomIds` that has one (migration 0016); undated and unknown ids are absent. */
  eventTimes(atomIds: number[]): Promise<Map<number, EventTime>>;
}
