/**
 * The numbers of a statement (statement.ts): runs of digits or number words folded into values, with the unit after
 * them (or a currency symbol before them). Pure.
 */
import { PREFIX_UNITS, UNITS } from "./units.ts";
import { foldNumberRun } from "./number-words.ts";
import type { Marks, NumberRun } from "./qualifiers.ts";
import type { Tok } from "./statement-tokens.ts";

/** The canonical unit of the token after a number run ending at `k`, and how many tokens it takes (0 if none). */
function unitAfter(toks: Tok[], k: number, last: number | undefined): [string, number] | null {
  const u = toks[k + 1];
  if (!u || !/^(?:\s*|\s*[-–]\s*)$/u.test(u.gap)) return null;
  if (u.raw === "%") return ["%", 1];
  if (u.raw === "°") {
    const scale = toks[k + 2];
    const letter =
      scale && /^\s?$/u.test(scale.gap)
        ? new Map([
            ["c", "°c"],
            ["с", "°c"],
            ["f", "°f"],
          ]).get(scale.lower)
        : undefined;
    return letter ? [letter, 2] : ["°", 1];
  }
  if (u.kind !== "word" && !(u.kind === "number" && u.lower === "second")) return null;
  if ((u.lower === "г" || u.lower === "гг") && last !== undefined && last >= 1000 && last < 3000) return ["year", 1];
  const unit = UNITS.get(u.lower);
  return unit ? [unit, 1] : null;
}

/** The numbers of a statement, their units, and the tokens they take (see {@link Marks}). */
export interface NumberRead extends Marks {
  numbers: string[];
  units: string[];
  runs: NumberRun[];
}

/** Reads every number run, with its unit after it (or a currency symbol before it). */
export function readNumbers(toks: Tok[]): NumberRead {
  const r: NumberRead = { numbers: [], units: [], used: new Set(), wordOf: new Map(), runs: [] };
  for (let j = 0; j < toks.length; j++) {
    if (toks[j].kind !== "number") continue;
    let k = j;
    // "second" after a number is its unit ("1 second"), not the ordinal.
    while (toks[k + 1]?.kind === "number" && toks[k + 1].lower !== "second" && /^(?:\s+|-)$/u.test(toks[k + 1].gap))
      k++;
    const run = toks.slice(j, k + 1);
    const folded = run.some((t) => Number.isNaN(t.num!.value))
      ? run.map((t) => t.digits ?? t.lower)
      : foldNumberRun(run.map((t) => t.num!)).map(String);
    if (toks[j].negative && folded.length) folded[0] = `-${folded[0]}`;
    r.numbers.push(...folded);
    for (let i = j; i <= k; i++) r.used.add(i), r.wordOf.set(i, i === j ? folded.join(" ") : "");
    const unit = unitAfter(toks, k, Number(folded[folded.length - 1]));
    if (unit) {
      r.units.push(unit[0]);
      for (let i = 1; i <= unit[1]; i++) r.used.add(k + i), r.wordOf.set(k + i, i === 1 ? unit[0] : "");
    }
    const before = toks[j - 1];
    if (before?.kind === "symbol" && PREFIX_UNITS.has(before.raw)) {
      r.units.push(UNITS.get(before.raw) ?? before.raw);
      r.used.add(j - 1);
      r.wordOf.set(j - 1, UNITS.get(before.raw) ?? before.raw);
    }
    r.runs.push({ start: j, end: k + (unit ? unit[1] : 0), first: folded[0] ?? "" });
    j = k + (unit ? unit[1] : 0);
  }
  return r;
}
