/**
 * The quote check: an atom is evidence-backed only when its `quote` occurs in the chunk it came from. Comparison
 * is tolerant of what extraction and models change without changing the words: Unicode compatibility forms
 * (NFKC: ligatures, full-width letters), case, ё/е, whitespace runs, and invisible characters (soft hyphens,
 * zero-width spaces and joiners, BOM, word joiner). A quote must also be long enough to be evidence at all (see
 * {@link quoteIsEvidence}): a single letter occurs in any chunk. Pure functions, no I/O.
 */
import { foldForHash } from "./text.ts";

/** Characters that render as nothing: soft hyphen, zero-width space/non-joiner/joiner, word joiner, BOM. */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/gu;

/** Folds a text for quote comparison: invisible characters removed, then {@link foldForHash}. */
export function foldForQuote(text: string): string {
  return foldForHash(text.replace(INVISIBLE, ""));
}

/**
 * True when `quote` occurs in `chunk` after folding both with {@link foldForQuote}. An empty or whitespace-only
 * quote never occurs: it would be evidence of nothing.
 */
export function quoteOccurs(quote: string, chunk: string): boolean {
  const q = foldForQuote(quote);
  return q.length > 0 && foldForQuote(chunk).includes(q);
}

/** Fewest words (runs of two or more letters/digits) that make a quote evidence; see {@link quoteIsEvidence}. */
export const MIN_QUOTE_WORDS = 2;
/** Fewest letters/digits in all that make a quote evidence without {@link MIN_QUOTE_WORDS} words. */
export const MIN_QUOTE_CHARS = 8;

/** A word token: a run of letters and digits (with their combining marks). */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/**
 * True when `quote` is long enough to be evidence: at least {@link MIN_QUOTE_WORDS} word tokens of two or more
 * letters/digits ("in 2016", "Да, но"), or at least {@link MIN_QUOTE_CHARS} letters/digits in all (one long
 * word such as "tuberculosis" or "Новосибирск"). One-letter tokens do not count as words: a single letter, digit
 * or code token ("e", "x = 1", "| 1 | 2 |"), like a short table cell ("Yes", "2016"), occurs in almost any chunk
 * and proves nothing. Punctuation, whitespace and invisible characters count for nothing; hyphens and dots split
 * tokens ("ribosome-inactivating" is two words).
 */
export function quoteIsEvidence(quote: string): boolean {
  const folded = foldForQuote(quote);
  const marks = /\p{M}/u.test(folded); // without combining marks a token's length is its letters and digits
  let chars = 0;
  let words = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(folded); m; m = TOKEN.exec(folded)) {
    const n = marks ? m[0].replace(/\p{M}/gu, "").length : m[0].length;
    chars += n;
    if (n >= 2 && ++words >= MIN_QUOTE_WORDS) return true; // the rest cannot change the answer
  }
  return chars >= MIN_QUOTE_CHARS;
}

/** What {@link checkQuotes} needs of an atom: its quote and, optionally, links to other atoms by index. */
export interface QuotedAtom {
  quote: string;
  links?: { to: number }[];
}

/** An atom the quote check dropped, with why (one sentence, the quote's start quoted). */
export interface DroppedAtom<T> {
  atom: T;
  reason: string;
}

/** Result of {@link checkQuotes}: kept atoms (links renumbered), dropped atoms, and one warning per drop. */
export interface QuoteCheck<T> {
  kept: T[];
  dropped: DroppedAtom<T>[];
  warnings: string[];
}

function preview(text: string): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/** Why an atom's folded quote `q` is no evidence of `chunk` (folded), or null when it is. */
function rejection(quote: string, q: string, folded: string): string | null {
  if (q.length === 0) return "the quote is empty";
  if (!quoteIsEvidence(q)) {
    return `quote too short to be evidence: "${preview(quote)}" (needs ${MIN_QUOTE_WORDS} words of 2+ letters/digits or ${MIN_QUOTE_CHARS} letters/digits)`;
  }
  return folded.includes(q) ? null : `the quote "${preview(quote)}" does not occur in the chunk`;
}

/**
 * Keeps the atoms whose quote is evidence (see {@link quoteIsEvidence}) and occurs in `chunk` (see
 * {@link quoteOccurs}) and drops the others with a reason and a warning each. Links are indices into the atom
 * list, so kept atoms get their links renumbered to the kept list, and links that pointed at a dropped atom are
 * removed. The chunk is folded once, so the cost is linear in its size plus the quotes.
 */
export function checkQuotes<T extends QuotedAtom>(atoms: readonly T[], chunk: string): QuoteCheck<T> {
  const folded = foldForQuote(chunk);
  const newIndex = new Map<number, number>();
  const keptIdx: number[] = [];
  const dropped: DroppedAtom<T>[] = [];
  const warnings: string[] = [];
  atoms.forEach((atom, i) => {
    const reason = rejection(atom.quote ?? "", foldForQuote(atom.quote ?? ""), folded);
    if (reason === null) {
      newIndex.set(i, keptIdx.length);
      keptIdx.push(i);
      return;
    }
    dropped.push({ atom, reason });
    warnings.push(`atom ${i} dropped: ${reason}`);
  });
  const kept = keptIdx.map((i) => {
    const atom = atoms[i];
    if (!atom.links) return atom;
    const links = atom.links.filter((l) => newIndex.has(l.to)).map((l) => ({ ...l, to: newIndex.get(l.to)! }));
    return { ...atom, links };
  });
  return { kept, dropped, warnings };
}
