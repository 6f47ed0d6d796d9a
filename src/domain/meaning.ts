/**
 * Guards near-duplicate merging: two texts that are close as vectors are still different facts when a negation,
 * a number, a code or a date differs ("the drug reduces risk" vs "the drug does not reduce risk"; "in 1892" vs "in 1898").
 */

const NEGATIONS = new Set([
  "not", "no", "never", "none", "nor", "cannot", "without", "neither", "nobody", "nothing", "nowhere",
  "не", "нет", "нельзя", "никогда", "ни", "ничего", "никто", "нигде", "без",
]);

const MONTHS = new Set([
  "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
  "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  "январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь", "ноябрь", "декабрь",
  "января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря",
]);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const NUMBER = /[-+−]?\d+(?:[.,]\d+)*%?/g;

function words(text: string): string[] {
  return (text.normalize("NFKC").toLowerCase().replaceAll("ё", "е").match(WORD) ?? []);
}

function negationCount(ws: string[]): number {
  return ws.filter((w) => NEGATIONS.has(w) || w.endsWith("n't") || w.endsWith("n’t")).length;
}

function numbers(text: string): string[] {
  return (text.normalize("NFKC").match(NUMBER) ?? []).map((n) => n.replace("−", "-").replace(",", ".")).sort();
}

/** Tokens that mix letters and digits (codes, identifiers, versions: "zq17", "v2", "covid19"). */
function codes(ws: string[]): string[] {
  return ws.filter((w) => /\p{L}/u.test(w) && /\p{N}/u.test(w)).sort();
}

/**
 * Words whose presence does not change a statement: articles and intensifiers. Deliberately tiny: "before"/"after",
 * "more"/"less", "бы" and the like change meaning and are never ignored.
 */
const FILLER = new Set(["a", "an", "the", "very", "really", "quite", "just", "also", "очень", "же", "вот", "ведь", "ну"]);

/** The statement's words in order, without filler. */
function contentWords(ws: string[]): string[] {
  return ws.filter((w) => !FILLER.has(w));
}

function sameMultiset(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Collapses immediate repetitions ("very very" → "very"). */
function dedupeRuns(ws: string[]): string[] {
  return ws.filter((w, i) => i === 0 || ws[i - 1] !== w);
}

/**
 * Why two near-identical texts must NOT be merged, or null when they may be: a different number of negations,
 * a different multiset of numbers (dates and years included), of letter-digit codes, or of month names, or
 * content words that differ in set or order (filler words, case, punctuation and repeated words aside).
 */
export function meaningDifference(a: string, b: string): string | null {
  const wa = words(a);
  const wb = words(b);
  if (negationCount(wa) !== negationCount(wb)) return "negation differs";
  if (!sameMultiset(numbers(a), numbers(b))) return "a number or date differs";
  if (!sameMultiset(codes(wa), codes(wb))) return "a code or identifier differs";
  const ma = wa.filter((w) => MONTHS.has(w)).sort();
  const mb = wb.filter((w) => MONTHS.has(w)).sort();
  if (!sameMultiset(ma, mb)) return "a date differs";
  // A bag-of-words vector cannot see antonyms ("increased"/"decreased") or order ("A, not B"/"B, not A"):
  // only wording that differs in case, punctuation, repetition or filler words may merge.
  const ca = contentWords(wa);
  const cb = contentWords(wb);
  if (!sameMultiset([...new Set(ca)].sort(), [...new Set(cb)].sort())) return "the words differ";
  if (!sameMultiset(dedupeRuns(ca), dedupeRuns(cb))) return "the word order differs";
  return null;
}
