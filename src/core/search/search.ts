/**
 * memory_search: hybrid retrieval over atoms. A lexical leg (BM25 over PostgreSQL full-text lexemes, with a pg_trgm
 * fallback when it finds too little) and a vector leg (kNN over the active embedder's vectors), fused by weighted
 * reciprocal rank fusion, filtered (type, status, document; never retracted), paged by an opaque cursor, each hit
 * hydrated with its citations.
 */
import { ATOM_STATUSES, ATOM_TYPES, type AtomFilter, type AtomStatus, type AtomType } from "../../domain/atom.ts";
import { sha256Hex } from "../../domain/hash.ts";
import { lexicalQueryText } from "../../domain/lexical-query.ts";
import { reciprocalRankFusion } from "../../domain/rrf.ts";
import { sanitizeText } from "../../domain/text.ts";
import { PegasError, invalidInput } from "../../errors.ts";
import { hydrateHits, type SearchHit } from "./hits.ts";
import { measuredPage } from "./measured.ts";
import { parseQuantityFilter } from "../../domain/quantity/filter.ts";
import { noteSearchOutcome } from "../gaps/miss.ts";
import { AS_OF_STATUSES, heldAsOf, readAsOf } from "./as-of.ts";
import type { Services } from "../services.ts";
import { focusOnEntities } from "./entity-focus/rerank.ts";
import { candidateDepth, rankDatedForWhen } from "./when-boost.ts";

/** Input of a search; `k` defaults to 10 (1..50). */
export interface SearchInput {
  query: string;
  k?: number;
  types?: AtomType[];
  status?: AtomStatus[];
  doc_id?: number | number[];
  cursor?: string;
  /** Which legs run: both fused (default), or one alone (exact keywords, or similarity only). */
  mode?: SearchMode;
  /** Log a first page whose best hit covers too little of the query as a search miss (core/gaps/miss.ts); default true. */
  log_miss?: boolean;
  /** What was true then / what the memory knew then (ISO 8601), see core/search/as-of.ts. */
  valid_at?: string;
  known_at?: string;
}

/** Retrieval legs of a search. */
export type SearchMode = "hybrid" | "lexical" | "vector";

export { HIT_CITATIONS, HIT_CONTENT_CHARS, type SearchHit } from "./hits.ts";

/** A page of hits and the cursor for the next page (null at the end). */
export interface SearchResult {
  query: string;
  hits: SearchHit[];
  next_cursor: string | null;
  lexical_fallback: boolean;
  /**
   * Set when a leg was not answered by its configured engine: the reason and who answered instead (e.g. Qdrant down,
   * the embedded index answered; or no vector index reachable, the lexical leg alone). Absent when all is well.
   */
  degraded?: string;
  took_ms: number;
}

const MAX_K = 50;
const MIN_DEPTH = 100;
const MAX_QUERY_CHARS = 4000;
/** Deepest page a cursor may point at: ranking deeper than this is noise. */
const MAX_OFFSET = 1000;

/** Statuses searched when none are asked for: stale atoms (evidence changed) only on request. */
const DEFAULT_STATUSES: AtomStatus[] = ["candidate", "verified", "contested"];

function filterOf(input: SearchInput): AtomFilter {
  const docIds = input.doc_id === undefined ? undefined : Array.isArray(input.doc_id) ? input.doc_id : [input.doc_id];
  const byDefault = input.valid_at !== undefined || input.known_at !== undefined ? AS_OF_STATUSES : DEFAULT_STATUSES;
  return { types: input.types, status: input.status?.length ? input.status : byDefault, docIds };
}

function cursorKey(query: string, filter: AtomFilter, mode: SearchMode, input?: SearchInput): string {
  const at = input?.valid_at !== undefined || input?.known_at !== undefined ? [input.valid_at, input.known_at] : [];
  return sha256Hex(JSON.stringify([query, filter, mode, ...at])).slice(0, 16);
}

function decodeCursor(cursor: string, key: string): number {
  try {
    const { o, h } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (h === key && Number.isInteger(o) && o >= 0 && o <= MAX_OFFSET) return o;
  } catch {
    // fall through to the error below
  }
  throw invalidInput(
    `cursor '${cursor.slice(0, 24)}' does not belong to this query`,
    "repeat the same query and filters, or drop the cursor",
  );
}

function validate(input: SearchInput): { query: string; k: number } {
  const query = sanitizeText(String(input.query ?? ""), "query").text.trim();
  if (!query) throw invalidInput("query is empty", "give a few words to search for");
  if (query.length > MAX_QUERY_CHARS)
    throw invalidInput(`query is ${query.length} characters; the limit is ${MAX_QUERY_CHARS}`);
  const k = input.k ?? 10;
  if (!Number.isInteger(k) || k < 1 || k > MAX_K)
    throw invalidInput(`k must be an integer from 1 to ${MAX_K}, got ${k}`);
  for (const t of input.types ?? [])
    if (!ATOM_TYPES.includes(t)) throw invalidInput(`unknown atom type '${t}'`, `use one of ${ATOM_TYPES.join(", ")}`);
  for (const st of input.status ?? [])
    if (!ATOM_STATUSES.includes(st))
      throw invalidInput(`unknown status '${st}'`, `use one of ${ATOM_STATUSES.join(", ")}`);
  if (input.status?.includes("retracted")) {
    throw invalidInput("retracted atoms are never searched", "ask for candidate, verified, contested or stale atoms");
  }
  readAsOf(input); // a bad valid_at / known_at fails before any work
  return { query, k };
}

/**
 * The cursor of the page of `input`'s results that starts at `offset` (as `next_cursor` gives it), for a caller that
 * shows fewer hits than a page holds (e.g. to keep an answer's size).
 * @throws PegasError INVALID_INPUT as {@link search} does for a bad query or filter.
 */
export function pageCursor(input: SearchInput, offset: number): string {
  const { query } = validate(input);
  const key = cursorKey(query, filterOf(input), input.mode ?? "hybrid", input);
  return Buffer.from(JSON.stringify({ o: offset, h: key })).toString("base64url");
}

/** Where the page `input.cursor` points at starts (0 without a cursor). @throws PegasError INVALID_INPUT (cursor). */
export function pageOffset(input: SearchInput): number {
  if (!input.cursor) return 0;
  const { query } = validate(input);
  return decodeCursor(input.cursor, cursorKey(query, filterOf(input), input.mode ?? "hybrid", input));
}

type Hit = { atomId: number; score: number };

/**
 * BM25 over the projection for the query's words that say what it asks about (domain/lexical-query.ts); pg_trgm
 * matches of the whole query appended when it has fewer than `needed` hits.
 */
async function lexicalLeg(
  services: Pick<Services, "projection" | "searchReads">,
  query: string,
  filter: AtomFilter,
  depth: number,
  needed: number,
): Promise<[Hit[], boolean]> {
  const [lexemes] = await Promise.all([
    services.searchReads.analyze(lexicalQueryText(query)),
    services.projection.sync(),
  ]);
  const hits = services.projection.lexical(lexemes, depth, filter);
  if (hits.length >= needed) return [hits, false];
  const seen = new Set(hits.map((h) => h.atomId));
  const extra = (await services.searchReads.trigramSearch(query, depth, filter)).filter((h) => !seen.has(h.atomId));
  return [[...hits, ...extra], extra.length > 0];
}

/**
 * kNN over the active embedder's vectors, from the search index (Qdrant, falling back to the embedded index while it is
 * down); when no vector index answers, the leg is empty and `degraded` says why (the lexical leg still answers).
 */
async function vectorLeg(
  services: Pick<Services, "embedder" | "projection" | "searchIndex">,
  query: string,
  filter: AtomFilter,
  depth: number,
  signal?: AbortSignal,
): Promise<[Hit[], string | null]> {
  const [vector] = await Promise.all([services.embedder.embedQuery(query, signal), services.projection.sync()]);
  const index = services.searchIndex;
  try {
    if (index.searchReporting) {
      const r = await index.searchReporting(vector, depth, filter);
      return [r.hits, r.degraded];
    }
    return [await index.search(vector, depth, filter), null];
  } catch (err) {
    if (!(err instanceof PegasError) || err.code !== "INDEX_UNAVAILABLE") throw err;
    return [[], `${index.name} unavailable (${err.message}); answered by the lexical leg alone`];
  }
}

/**
 * Runs a hybrid search. The in-process indexes catch up with the store first, so a search sees every atom
 * committed before it started, by any process.
 * @throws PegasError INVALID_INPUT (empty query, bad k or cursor), STORE_UNAVAILABLE, LLM_FAILED (query embedding).
 */
export async function search(
  services: Pick<
    Services,
    | "atomReads"
    | "config"
    | "embedder"
    | "gaps"
    | "projection"
    | "quantities"
    | "searchIndex"
    | "searchReads"
    | "supersession"
    | "vectorWeight"
  > &
    Partial<Pick<Services, "entities">>,
  input: SearchInput,
  signal?: AbortSignal,
): Promise<SearchResult> {
  const started = performance.now();
  const { query, k } = validate(input);
  const filter = filterOf(input);
  const mode = input.mode ?? "hybrid";
  const key = cursorKey(query, filter, mode, input);
  const asOf = readAsOf(input);
  const offset = input.cursor ? decodeCursor(input.cursor, key) : 0;
  const depth = Math.max(MIN_DEPTH, offset + k + 1);
  // "cold start < 1.5 s": a measurement filter in the query (core/search/measured.ts); no filter, no change.
  const measured = mode === "vector" ? null : parseQuantityFilter(query);
  if (measured) {
    const page = await measuredPage(services, measured, filter, offset, k);
    return pageResult(query, page.hits, page.more && offset + k <= MAX_OFFSET, offset + k, key, started);
  }
  const [[lexical, fallback], [vector, degraded]] = await Promise.all([
    mode === "vector"
      ? ([[], false] as [Hit[], boolean])
      : lexicalLeg(services, query, filter, Math.max(depth, candidateDepth(query)), offset + k),
    mode === "lexical" ? ([[], null] as [Hit[], null]) : vectorLeg(services, query, filter, depth, signal),
  ]);
  if (signal?.aborted) throw new PegasError("CANCELLED", "search cancelled");
  const lexicalIds = lexical.map((h) => h.atomId);
  let vectorIds = vector.map((h) => h.atomId);
  // A lexical embedder finds nothing the lexical leg (with its trigram fallback) misses but noise: in hybrid mode
  // its leg only reorders ties among the lexical hits and adds no candidates of its own.
  if (mode === "hybrid" && services.embedder.kind === "lexical") {
    const found = new Set(lexicalIds);
    vectorIds = vectorIds.filter((id) => found.has(id));
  }
  const ranked = await rankDatedForWhen(
    services,
    query,
    reciprocalRankFusion(
      [
        { name: "lexical", weight: 1, ids: lexicalIds },
        { name: "vector", weight: services.vectorWeight, ids: vectorIds },
      ],
      services.config.rrf_k,
    ),
    services.config.rrf_k,
    new Map(lexical.map((h) => [h.atomId, h.score])),
  );
  // "Who/what is X": the atoms that introduce X first (entity-focus/rerank.ts); other questions rank unchanged.
  const focused = mode === "vector" ? ranked : await focusOnEntities(services, query, ranked, filter);
  const fused = await heldAsOf(services, focused, asOf);
  const hits = await hydrateHits(services, fused.slice(offset, offset + k));
  const more = fused.length > offset + k && offset + k <= MAX_OFFSET;
  if (offset === 0 && input.log_miss !== false)
    noteSearchOutcome(
      services,
      query,
      hits.map((h) => h.atom_id),
    ); // fire-and-forget
  return {
    ...pageResult(query, hits, more, offset + k, key, started),
    lexical_fallback: fallback,
    ...(degraded ? { degraded } : {}),
  };
}

/** A page of hits with the cursor of the page at `next` (null when no more follow). */
function pageResult(
  query: string,
  hits: SearchHit[],
  more: boolean,
  next: number,
  key: string,
  started: number,
): SearchResult {
  return {
    query,
    hits,
    next_cursor: more ? Buffer.from(JSON.stringify({ o: next, h: key })).toString("base64url") : null,
    lexical_fallback: false,
    took_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
