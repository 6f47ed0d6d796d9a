/**
 * The shapes of memory_get_context (src/core/context/context.ts) and of its renderer (render.ts), apart so that the
 * renderer need not import the use case.
 */

/** What memory_get_context takes. */
export interface ContextInput {
  question: string;
  budget_tokens?: number;
  k?: number;
  hops?: number;
  /** What was true then / what the memory knew then (ISO 8601), see core/search/as-of.ts. */
  valid_at?: string;
  known_at?: string;
}

/** An opponent of a contested atom. */
export interface Opponent {
  atom_id: number;
  claim: string;
}

/** One atom of the context. */
export interface ContextItem {
  atom_id: number;
  type: string;
  status: string;
  confidence: number;
  claim: string;
  /** What the line shows: the atom's sentences that answer the question (see core/search/snippet.ts). */
  shown: string;
  /** True when the line shows less than the whole atom (memory_get gives it all). */
  cut: boolean;
  /** `search` (a hit, with its fused score) or `graph` (reached over links from `via`). */
  source: "search" | "graph";
  score: number;
  /** For graph items: the hit it was reached from. */
  via?: { atom_id: number; kind: string; hops: number };
  /** Numbers of this atom's citations in {@link ContextResult.citations}. */
  citations: number[];
  /** Atoms linked to this one by `contradicts`, when any (it is contested). */
  contested_by: Opponent[];
  tokens: number;
}

/** A numbered citation: `[n] title — locator`. */
export interface ContextCitation {
  n: number;
  doc_id: number;
  /** The document's title, when it has one. */
  title?: string;
  uri: string;
  locator: string;
  quote: string;
}

/** The packed context. */
export interface ContextResult {
  question: string;
  markdown: string;
  items: ContextItem[];
  citations: ContextCitation[];
  budget_tokens: number;
  used_tokens: number;
  tokenizer: string;
  /** Atoms found but left out because they did not fit the budget. */
  omitted: number;
  degraded?: string;
}

/** An atom found for the context: by search or over a link. */
export interface Candidate {
  atomId: number;
  source: "search" | "graph";
  score: number;
  via: ContextItem["via"] | null;
}
