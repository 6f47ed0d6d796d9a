/**
 * The quote check: an atom is evidence-backed only when its `quote` occurs in the chunk it came from. Comparison
 * is tolerant of what extraction and models change without changing the words: Unicode compatibility forms
 * (NFKC: ligatures, full-width letters), case, ё/е, whitespace runs, and invisible characters (soft hyphens,
 * zero-width spaces and joiners, BOM, word joiner). Pure functions, no I/O.
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

/**
 * Keeps the atoms whose quote occurs in `chunk` (see {@link quoteOccurs}) and drops the others with a reason and
 * a warning each. Links are indices into the atom list, so kept atoms get their links renumbered to the kept list,
 * and links that pointed at a dropped atom are removed. The chunk is folded once, so the cost is linear in its size
 * plus the quotes.
 */
export function checkQuotes<T extends QuotedAtom>(atoms: readonly T[], chunk: string): QuoteCheck<T> {
  const folded = foldForQuote(chunk);
  const newIndex = new Map<number, number>();
  const keptIdx: number[] = [];
  const dropped: DroppedAtom<T>[] = [];
  const warnings: string[] = [];
  atoms.forEach((atom, i) => {
    const q = foldForQuote(atom.quote ?? "");
    if (q.length > 0 && folded.includes(q)) {
      newIndex.set(i, keptIdx.length);
      keptIdx.push(i);
      return;
    }
    const reason = q.length === 0 ? "the quote is empty" : `the quote "${preview(atom.quote)}" does not occur in the chunk`;
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
