/**
 * Two statements compared by their measurements (issue 24): "Cold start takes 1.2 s" and "cold start: 1200 ms"
 * state one value (corroborate), "cold start takes 2 s" another (contradict), and "Cold start on the ARM board takes
 * 2 s" is about other conditions (neither). Read on top of the word rules of pair-class.ts, only when those find
 * nothing but numbers and units different (so "Widget 5" against "Widget 6", another name, a negation or a hedge
 * keep their own verdicts) and the words outside the measurements are the same or one set holds the other.
 * The values are compared by domain/quantity/compare.ts: same dimension, subject and conditions, intervals within
 * the stated precision (else ± 5 %). Pure; never throws.
 */
import { cachedQuantities } from "../quantity/atom-quantities.ts";
import { compareQuantities, phraseStems, statedInterval } from "../quantity/compare.ts";
import type { Quantity } from "../quantity/extract.ts";
import { compareStatements, type GuardedFeature } from "./meaning.ts";

/** What the measurements of two statements say of them, with the reason in English. */
export interface QuantityRelation {
  kind: "corroborate" | "contradict";
  reason: string;
  /** The deciding measurements are written differently ("1.2 s" / "1200 ms"): what a lexical cosine cannot see. */
  rewritten: boolean;
}

/** Differences the measurements explain: another number, another unit of the same dimension. */
const EXPLAINED: ReadonlySet<GuardedFeature> = new Set(["number", "unit"]);

/** The content-word stems of `text` outside its measurements. */
function restStems(text: string, qs: Quantity[]): Set<string> {
  let rest = "";
  let at = 0;
  for (const q of [...qs].sort((x, y) => x.start - y.start)) {
    if (q.start < at) continue;
    rest += `${text.slice(at, q.start)} `;
    at = q.end;
  }
  return new Set(phraseStems(rest + text.slice(at)));
}

const subset = (a: Set<string>, b: Set<string>) => [...a].every((s) => b.has(s));

/**
 * `q` with the trailing zeros of a whole number read as significant: the reader takes "10 km" as ± 5 km and "1200 ms"
 * as ± 50 ms, so 10 km would agree with 10 miles; here they count ("10 km" ± 0.5 km, "1200 ms" ± 0.5 ms), which
 * still lets "1200 ms" fall inside "1.2 s" (± 0.05 s). A number with decimals or a scale word keeps its precision.
 */
function zerosSignificant(q: Quantity): Quantity {
  const pm = q.precision.plusMinus;
  const raw = /\d[\d\s\u00a0\u202f,.]*/u.exec(q.quote)?.[0].trim() ?? "";
  if (pm === null || !raw || /[.,]\d{1,2}$|[.,]\d{4,}$/u.test(raw)) return q;
  const digits = raw.replace(/\D/gu, "");
  const zeros = /0*$/u.exec(digits)?.[0].length ?? 0;
  // A scale word ("163 million") made the value: its digits are not the value, and its precision stands.
  if (!zeros || Number(digits) !== Math.abs(q.low)) return q;
  return { ...q, precision: { ...q.precision, plusMinus: pm / 10 ** zeros } };
}

/** Whether two measurements' stated intervals share more than an end point. */
function overlap(a: Quantity, b: Quantity): boolean {
  const [x, y] = [statedInterval(a), statedInterval(b)];
  return x.low < y.high && y.low < x.high;
}

/** "1.2 s" as written, for a reason. */
const shown = (q: Quantity) => q.quote.trim();

/**
 * The relation the measurements of `a` and `b` establish, or null when they establish none (no measurement on
 * either side, none of the same subject and conditions, or other differences the measurements do not explain).
 * Contradiction wins when one pair of measurements agrees and another does not.
 */
export function quantityRelation(a: string, b: string): QuantityRelation | null {
  const qa = cachedQuantities(a);
  const qb = qa.length ? cachedQuantities(b) : qa;
  if (!qa.length || !qb.length) return null;
  // The measurements first (cheap, and most pairs measure different things), the statements only then.
  let against: [Quantity, Quantity] | null = null;
  let agree: [Quantity, Quantity] | null = null;
  for (const x of qa)
    for (const y of qb) {
      if (x.canonicalUnit !== y.canonicalUnit) continue; // compareQuantities' first test, before any allocation
      const [tx, ty] = [zerosSignificant(x), zerosSignificant(y)];
      let v = compareQuantities(tx, ty);
      if (v === "corroborates" && !overlap(tx, ty)) v = "contradicts";
      if (v === "contradicts") against ??= [x, y];
      else if (v === "corroborates") agree ??= [x, y];
    }
  if (!against && !agree) return null;
  const c = compareStatements(a, b);
  if (!c.comparable || c.differs.some((f) => !EXPLAINED.has(f))) return null;
  const [ra, rb] = [restStems(a, qa), restStems(b, qb)];
  if (!ra.size || !rb.size || !(subset(ra, rb) || subset(rb, ra))) return null;
  if (against)
    return {
      kind: "contradict",
      reason: `another value of the same measurement (${shown(against[0])} vs ${shown(against[1])}, beyond the stated precision)`,
      rewritten: true,
    };
  const [x, y] = agree!;
  return {
    kind: "corroborate",
    reason: `the same measurement (${shown(x)} and ${shown(y)} agree within the stated precision)`,
    rewritten: shown(x).toLowerCase() !== shown(y).toLowerCase(),
  };
}
