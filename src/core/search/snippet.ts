/**
 * Snippets: the sentences of an atom that answer a query, for memory_search's hits and memory_get_context's lines.
 * A text is cut into units (text-units.ts: sentences of prose by Intl.Segmenter, lines of tables and code whole,
 * Markdown block syntax read, not shown); each unit scores the summed weights of the query terms it holds (an idf
 * over the units of the texts shown together, so a word every passage has weighs little); the best units are kept
 * up to a length, in text order, gaps marked "…".
 * Words match by light stem (domain/meaning/light-stem.ts) or when one stem of four letters or more begins the
 * other, so "Громов" finds "Громова" and "teach" finds "teacher", in Russian as in English.
 */
import { lightStem } from "../../domain/meaning/light-stem.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../../domain/stopwords.ts";
import { plainLine } from "./text-units.ts";

export { textUnits } from "./text-units.ts";

/** A unit beside the best one is kept when it scores at least this share of the best one's score. */
const MIN_SHARE = 0.5;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** A query's terms: the distinct light stems of its words, stop words and one-letter words left out. */
export type QueryTerms = readonly string[];

function fold(w: string): string {
  return w.toLowerCase().replaceAll("ё", "е");
}

function stemOf(word: string): string {
  return lightStem(fold(word));
}

/** The terms of `query` (see {@link QueryTerms}); every word when all are stop words. */
export function queryTerms(query: string): QueryTerms {
  const words = (query.match(WORD) ?? []).map(fold);
  const kept = words.filter((w) => w.length > 1 && !ENGLISH_STOP_WORDS.has(w) && !RUSSIAN_STOP_WORDS.has(w));
  return [...new Set((kept.length ? kept : words).map((w) => lightStem(w)))];
}

/** True when a word's stem `s` matches the query term `t`. */
function matches(s: string, t: string): boolean {
  if (s === t) return true;
  const [short, long] = s.length < t.length ? [s, t] : [t, s];
  return short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short);
}

/** The terms a text holds. */
function termsIn(text: string, terms: QueryTerms): Set<string> {
  const found = new Set<string>();
  for (const w of text.match(WORD) ?? []) {
    const s = stemOf(w);
    for (const t of terms) if (!found.has(t) && matches(s, t)) found.add(t);
  }
  return found;
}

/** Term weights: log(1 + N / (1 + df)) over `unitSets` (the units of every text shown together). */
export function termWeights(terms: QueryTerms, unitSets: readonly (readonly string[])[]): Map<string, number> {
  const df = new Map<string, number>(terms.map((t) => [t, 0]));
  let n = 0;
  for (const units of unitSets)
    for (const u of units) {
      n++;
      for (const t of termsIn(u, terms)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  return new Map(terms.map((t) => [t, Math.log(1 + n / (1 + (df.get(t) ?? 0)))]));
}

/** A snippet: the text shown and whether units (or parts of one) were left out. */
export interface Snippet {
  text: string;
  cut: boolean;
  /** Summed weight of the distinct terms it holds. */
  score: number;
}

/** Cuts `unit` to about `max` characters around its first query term, at word boundaries, "…" where cut. */
function window(unit: string, terms: QueryTerms, max: number): string {
  if (unit.length <= max) return unit;
  let first = 0;
  for (const m of unit.matchAll(WORD)) {
    const s = stemOf(m[0]);
    if (terms.some((t) => matches(s, t))) {
      first = m.index ?? 0;
      break;
    }
  }
  let start = Math.max(0, Math.min(first - Math.floor(max / 4), unit.length - max));
  if (start > 0) start = unit.indexOf(" ", start) + 1 || start;
  let end = Math.min(unit.length, start + max);
  if (end < unit.length) end = unit.lastIndexOf(" ", end) > start ? unit.lastIndexOf(" ", end) : end;
  return `${start > 0 ? "…" : ""}${unit.slice(start, end).trim()}${end < unit.length ? "…" : ""}`;
}

/**
 * The best units of `units` for `terms`, at most about `maxChars` characters in all, in text order with "…" over
 * gaps (and before a first unit that is not the text's first). Units holding no term are kept only when none does
 * (then the first). A best unit longer than `maxChars` is cut around its first term. `lead`: an opening the reader
 * sees already (a claim that is the text's first sentence), left out of the first unit. Units beside the best must
 * score half of the best one's score.
 */
export function snippet(
  units: readonly string[],
  terms: QueryTerms,
  weights: Map<string, number>,
  maxChars: number,
  lead = "",
): Snippet {
  const opening = plainLine(lead).replace(/\s+/gu, " ").trim().replace(/…$/u, "");
  const rest = units.map((u, i) => (i === 0 && opening && u.startsWith(opening) ? u.slice(opening.length).trim() : u));
  const scored = rest
    .map((u, i) => {
      const found = termsIn(u, terms);
      let score = 0;
      for (const t of found) score += weights.get(t) ?? 0;
      return { u, i, score };
    })
    .filter((x) => x.u);
  if (!scored.length) return { text: "", cut: units.length > 0, score: 0 };
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.i - b.i);
  const best = ranked[0].score;
  const pool = best > 0 ? ranked.filter((x) => x.score >= best * MIN_SHARE) : [ranked[0]];
  const chosen: { u: string; i: number }[] = [];
  let used = 0;
  let windowed = false;
  for (const x of pool) {
    // `+ 1` as below: a best unit of exactly maxChars characters would otherwise be skipped, leaving nothing chosen.
    if (!chosen.length && x.u.length + 1 > maxChars) {
      chosen.push({ u: window(x.u, terms, maxChars), i: x.i });
      windowed = true;
      break;
    }
    if (used + x.u.length + 1 > maxChars) continue;
    chosen.push(x);
    used += x.u.length + 1;
  }
  chosen.sort((a, b) => a.i - b.i);
  let text = chosen[0].i > scored[0].i && !chosen[0].u.startsWith("…") ? "… " : "";
  chosen.forEach((c, j) => {
    if (j > 0) text += c.i === chosen[j - 1].i + 1 ? " " : " … ";
    text += c.u;
  });
  let score = 0;
  for (const t of termsIn(text, terms)) score += weights.get(t) ?? 0;
  return { text, cut: windowed || chosen.length < scored.length, score };
}

/** `text` with every word that matches a query term in **bold** (runs of bold words merged). */
export function markTerms(text: string, terms: QueryTerms): string {
  if (!terms.length) return text;
  const marked = text.replace(WORD, (w) => {
    const s = stemOf(w);
    return terms.some((t) => matches(s, t)) ? `**${w}**` : w;
  });
  return marked.replace(/\*\* \*\*/g, " ");
}
