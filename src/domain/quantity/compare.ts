/**
 * Whether two measurements corroborate or contradict each other (issue 24): only measurements of the same
 * dimension and canonical unit, of the same subject and under the same conditions, are compared at all; their
 * values agree when the intervals they state overlap: each value ± its stated precision (a written "±", else half a
 * unit in its last written digit: "1.2 s" is 1.15–1.25 s, "1200 ms" 1.15–1.25 s, "2 s" 1.5–2.5 s), or ± 5 % of the
 * value when the precision is unknown (numbers in words). So "Cold start takes 1.2 s" and "cold start: 1200 ms"
 * corroborate, "cold start takes 2 s" contradicts them, and "Cold start on the ARM board takes 2 s" is about other
 * conditions and does neither. Pure.
 *
 * Subjects and conditions are compared on their content words folded to a five-letter stem (lower case, ё as е,
 * English and Russian linking words dropped), so "cold start" = "Cold start" and «время запуска» = «время запуска
 * сервиса» (one set inside the other). Limits: synonyms ("startup" vs "cold start") and paraphrased conditions
 * ("on ARM" vs "on an ARM64 board") are not matched; that is the caller's job (e.g. through the atoms' meaning).
 */
import type { Quantity } from "./extract.ts";

/** The outcome of comparing two measurements. */
export type QuantityVerdict = "corroborates" | "contradicts" | "unrelated";

const FILLER = new Set(
  "the a an of on in at for with under using to is was are were takes took take при на в под с для и это".split(" "),
);

/** The content-word stems of a phrase (five letters, lower case, ё as е). */
export function phraseStems(phrase: string): string[] {
  return (
    phrase
      .toLowerCase()
      .replace(/ё/g, "е")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((w) => !FILLER.has(w))
    .map((w) => w.slice(0, 5));
}

/** Whether the stems of one phrase are all among the other's (either way); two empty phrases match. */
function samePhrase(a: string, b: string): boolean {
  const x = new Set(phraseStems(a));
  const y = new Set(phraseStems(b));
  if (x.size === 0 || y.size === 0) return x.size === y.size;
  return [...x].every((s) => y.has(s)) || [...y].every((s) => x.has(s));
}

/** The interval a measurement states, in its canonical unit. */
export function statedInterval(q: Quantity): { low: number; high: number } {
  const tol = q.precision.plusMinus ?? 0.05 * Math.max(Math.abs(q.canonicalLow), Math.abs(q.canonicalHigh));
  return { low: q.canonicalLow - tol, high: q.canonicalHigh + tol };
}

/** Compares two measurements (see the module doc). */
export function compareQuantities(a: Quantity, b: Quantity): QuantityVerdict {
  if (a.canonicalUnit !== b.canonicalUnit || a.dimension !== b.dimension) return "unrelated";
  if (!samePhrase(a.subject, b.subject)) return "unrelated";
  if (!samePhrase(a.conditions.join(" "), b.conditions.join(" "))) return "unrelated";
  const x = statedInterval(a);
  const y = statedInterval(b);
  return x.low <= y.high && y.low <= x.high ? "corroborates" : "contradicts";
}
