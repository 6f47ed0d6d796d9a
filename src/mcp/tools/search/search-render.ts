/**
 * What memory_search's answer shows a model: per hit its id, type, status (when not `candidate`), claim, a snippet
 * (its sentences that best match the query, terms in **bold**) and numbered citations, then the sources (one per
 * document) and `next_cursor`. The text content and the concise structured content hold the same and both stay
 * within `max_tokens` (o200k): snippets shrink first, then hits at the end of the page are left for the next page
 * (the cursor then points at the first one left out).
 */
import { tokenCounter } from "../../../core/context/context.ts";
import { pageCursor, pageOffset, type SearchInput, type SearchResult } from "../../../core/search/search.ts";
import { markTerms, queryTerms, snippet, termWeights, textUnits } from "../../../core/search/snippet.ts";
import { formatLocator } from "../../../domain/locator.ts";

/** Default and bounds of `max_tokens`. */
export const SEARCH_TOKENS = { min: 200, max: 32_000, default: 1500 } as const;
/** Citations shown per hit. */
const CITED_PER_HIT = 2;
/** Snippet lengths tried, longest first (characters). */
const SNIPPET_CHARS = [320, 200, 120];
/** Longest claim shown (characters). */
const CLAIM_CHARS = 300;

interface HitView {
  atom_id: number;
  type: string;
  status?: string;
  claim: string;
  snippet?: string;
  /** Sources by number; `locator` absent when the citation spans its whole document (a note). */
  cited: { n: number; locator?: string }[];
  more_citations?: number;
}

interface Source {
  n: number;
  doc_id: number;
  title?: string;
  uri: string;
}

/** The packed answer: the concise structured content and the text. */
export interface PackedSearch {
  concise: Record<string, unknown>;
  text: string;
}

type Counter = (text: string) => number;
let count: Counter | null = null;
const packed = new WeakMap<object, PackedSearch>();

/**
 * UTF-8 bytes: an upper bound of a text's o200k tokens (a byte-level BPE token stands for one byte or more), so an
 * answer within `max_tokens` bytes is within `max_tokens` tokens, without the tokenizer.
 */
const utf8Bytes: Counter = (text) => Buffer.byteLength(text);

/** Loads the token counter (once), so that {@link packSearch} counts exactly. */
export async function loadSearchCounter(): Promise<void> {
  count ??= await tokenCounter();
}

/**
 * Makes {@link packSearch} of `out` exact: loads the token counter unless the whole answer (every hit, the longest
 * snippets) fits `max_tokens` by its UTF-8 bytes, in which case counting could change nothing (the tokenizer's BPE
 * ranks take ≈ 0.5 s to load: a small answer, such as an empty one, does not wait for them). Call before rendering.
 */
export async function prepareSearchCounter(
  out: SearchResult,
  args: SearchInput & { max_tokens?: number },
): Promise<void> {
  if (count || packWith(out, args, utf8Bytes, true)) return;
  await loadSearchCounter();
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

function render(views: HitView[], found: number, sources: Source[], next: string | null, degraded?: string): string {
  const blocks = views.map((h) => {
    const cites = h.cited.map((c) => (c.locator ? `[${c.n}] ${c.locator}` : `[${c.n}]`)).join("; ") || "(no source)";
    const more = h.more_citations ? ` (+${h.more_citations} more)` : "";
    const head = [`atom ${h.atom_id}`, h.type, ...(h.status ? [h.status] : []), `${cites}${more}`].join(" · ");
    return `${head}\n${h.claim}\n${h.snippet ? `${h.snippet}\n` : ""}`;
  });
  const none = found ? `${found} hit(s), none within max_tokens: raise max_tokens.\n` : "No atom matches this query.\n";
  const body = blocks.length ? blocks.join("\n") : none;
  const src = sources.map(
    (s) => `[${s.n}] ${s.title ? oneLine(s.title, 120) : s.uri}${s.title ? ` (${s.uri})` : ""}\n`,
  );
  return (
    body +
    (src.length ? `\nSources:\n${src.join("")}` : "") +
    (next ? `\nnext_cursor: ${next}\n` : "") +
    (degraded ? `\n_Degraded: ${degraded}_\n` : "")
  );
}

/**
 * Packs a search result for a model (see the module comment) within `args.max_tokens`. Memoized per result object,
 * so the text and the structured content of one answer agree.
 */
export function packSearch(out: SearchResult, args: SearchInput & { max_tokens?: number }): PackedSearch {
  const known = packed.get(out);
  if (known) return known;
  // Without the counter (prepareSearchCounter found it needless), bytes: an upper bound, never over max_tokens.
  const result = packWith(out, args, count ?? utf8Bytes) as PackedSearch;
  packed.set(out, result);
  return result;
}

/** The packed answer by `counter`; with `firstOnly`, the whole answer when it fits, else null. */
function packWith(
  out: SearchResult,
  args: SearchInput & { max_tokens?: number },
  counter: Counter,
  firstOnly = false,
): PackedSearch | null {
  const max = args.max_tokens ?? SEARCH_TOKENS.default;
  const terms = queryTerms(out.query);
  const units = out.hits.map((h) => textUnits(h.content || h.claim, h.type === "code"));
  const weights = termWeights(terms, units);
  const sources: Source[] = [];
  const sourceOf = new Map<number, number>();
  // Each version of a document that still holds the atom cites it again at the same place: shown once.
  const cited = out.hits.map((h) => {
    const seen = new Set<string>();
    return h.citations.slice(0, CITED_PER_HIT).flatMap((c) => {
      let n = sourceOf.get(c.doc_id);
      if (n === undefined) {
        n = sources.length + 1;
        sourceOf.set(c.doc_id, n);
        sources.push({ n, doc_id: c.doc_id, ...(c.title ? { title: c.title } : {}), uri: c.uri });
      }
      const locator = formatLocator(c.locator);
      if (seen.has(`${n} ${locator}`)) return [];
      seen.add(`${n} ${locator}`);
      return [locator ? { n, locator } : { n }];
    });
  });
  const viewsAt = (chars: number): HitView[] =>
    out.hits.map((h, i) => {
      const claim = oneLine(h.claim, CLAIM_CHARS);
      const s = snippet(units[i], terms, weights, chars, h.claim);
      const more = h.citation_count - Math.min(h.citations.length, CITED_PER_HIT);
      return {
        atom_id: h.atom_id,
        type: h.type,
        ...(h.status !== "candidate" ? { status: h.status } : {}),
        claim,
        ...(s.text && s.score > 0 ? { snippet: markTerms(s.text, terms) } : {}),
        cited: cited[i],
        ...(more > 0 ? { more_citations: more } : {}),
      };
    });
  const offset = pageOffset(args);
  const build = (views: HitView[]): PackedSearch => {
    const shown = new Set(views.flatMap((v) => v.cited.map((c) => c.n)));
    const used = sources.filter((s) => shown.has(s.n));
    const next = views.length < out.hits.length ? pageCursor(args, offset + views.length) : out.next_cursor;
    const concise = {
      hits: views,
      sources: used,
      ...(next ? { next_cursor: next } : {}),
      ...(out.degraded ? { degraded: out.degraded } : {}),
    };
    return { concise, text: render(views, out.hits.length, used, next, out.degraded) };
  };
  const fits = (p: PackedSearch) => Math.max(counter(p.text), counter(JSON.stringify(p.concise))) <= max;
  let result: PackedSearch | null = null;
  let views: HitView[] = [];
  for (const chars of SNIPPET_CHARS) {
    views = viewsAt(chars);
    const p = build(views);
    if (fits(p)) {
      result = p;
      break;
    }
    if (firstOnly) return null;
  }
  while (!result) {
    views = views.slice(0, -1);
    const p = build(views);
    if (fits(p) || !views.length) result = p;
  }
  return result;
}
