/**
 * The stated precision of a measurement: its significant digits, its spread in canonical units (a written "±",
 * else half a unit in the last written digit: "1.2 s" is ±0.05 s, "1200 ms" ±50 ms, "2 s" ±0.5 s), and whether the
 * sentence marks it as approximate ("about", "~", «около», «с полгода», a Russian unit before its number). Pure.
 */
import type { NumberToken } from "./tokens.ts";
import type { UnitDef } from "./units.ts";

/** How precisely a measurement was stated. */
export interface Precision {
  /** Significant digits of the (first) number as written; null when it was written in words. */
  sigDigits: number | null;
  /** Half-width of the stated interval in the canonical unit; null when the number was written in words. */
  plusMinus: number | null;
  /** Hedged by the sentence ("about", "approximately", "~", «около», «примерно», «лет двадцать»). */
  approximate: boolean;
}

const HEDGE =
  /(?:about|approximately|approx\.|around|nearly|almost|roughly|some|circa|~|≈|около|примерно|приблизительно|почти|порядка|с)\s*$/iu;

/**
 * The precision of the measurement starting at `start`, first number `token`, in `unit` (`rateFactor` divides a
 * rate's value by its denominator's factor); `pm` is a written "±" spread in `unit`.
 */
export function precisionOf(
  text: string,
  start: number,
  token: NumberToken | undefined,
  unit: UnitDef,
  pm: number | null,
  approximate: boolean,
  rateFactor: number,
): Precision {
  const half = pm ?? (token?.lastPlace != null ? token.lastPlace / 2 : null);
  return {
    sigDigits: token?.sigDigits ?? null,
    plusMinus: half === null ? null : half * unit.factor * rateFactor,
    approximate: approximate || HEDGE.test(text.slice(Math.max(0, start - 16), start)),
  };
}
