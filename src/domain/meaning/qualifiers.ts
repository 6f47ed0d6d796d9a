/**
 * What qualifies a number in a statement: its comparison ("p < 0.05", "more than 10", "не менее 5", "10 or more")
 * and the rate it is counted in ("5 mg per day", "three times per week", "сто верст в день", "каждую неделю",
 * "daily", "km/h"). Read by domain/meaning/statement.ts over the tokens of domain/meaning/statement-tokens.ts; pure.
 */
import { PREFIX_UNITS, UNITS } from "./units.ts";
import type { Tok } from "./statement-tokens.ts";

/** Tokens already read as a feature, and what each stands for in the content words ("" drops it). */
export interface Marks {
  used: Set<number>;
  wordOf: Map<number, string>;
}

/** One run of numbers with its unit: token indexes `start`…`end` (unit included) and the first number. */
export interface NumberRun {
  start: number;
  end: number;
  first: string;
}

/** Comparison phrases before a number, longest first within each language, and their canonical comparator. */
const BEFORE: ReadonlyArray<readonly [string, string]> = [
  ["no more than", "<="],
  ["not more than", "<="],
  ["no greater than", "<="],
  ["not greater than", "<="],
  ["not exceeding", "<="],
  ["at most", "<="],
  ["up to", "<="],
  ["no less than", ">="],
  ["not less than", ">="],
  ["no fewer than", ">="],
  ["not fewer than", ">="],
  ["at least", ">="],
  ["more than", ">"],
  ["greater than", ">"],
  ["higher than", ">"],
  ["larger than", ">"],
  ["less than", "<"],
  ["fewer than", "<"],
  ["lower than", "<"],
  ["smaller than", "<"],
  ["не более чем", "<="],
  ["не больше чем", "<="],
  ["не более", "<="],
  ["не больше", "<="],
  ["не выше", "<="],
  ["не свыше", "<="],
  ["не менее чем", ">="],
  ["не меньше чем", ">="],
  ["не менее", ">="],
  ["не меньше", ">="],
  ["не ниже", ">="],
  ["как минимум", ">="],
  ["по меньшей мере", ">="],
  ["по крайней мере", ">="],
  ["более чем", ">"],
  ["больше чем", ">"],
  ["более", ">"],
  ["больше", ">"],
  ["свыше", ">"],
  ["выше", ">"],
  ["менее чем", "<"],
  ["меньше чем", "<"],
  ["менее", "<"],
  ["меньше", "<"],
  ["ниже", "<"],
]
  .map(([p, c]) => [p, c] as const)
  .sort((x, y) => y[0].split(" ").length - x[0].split(" ").length);

/** Comparison phrases after a number (or its unit): "10 or more", "5 мг и менее". */
const AFTER: ReadonlyArray<readonly [string, string]> = [
  ["or more", ">="],
  ["or greater", ">="],
  ["or higher", ">="],
  ["or above", ">="],
  ["and above", ">="],
  ["and over", ">="],
  ["or less", "<="],
  ["or fewer", "<="],
  ["or lower", "<="],
  ["or below", "<="],
  ["and below", "<="],
  ["and under", "<="],
  ["и более", ">="],
  ["и больше", ">="],
  ["или более", ">="],
  ["или больше", ">="],
  ["и выше", ">="],
  ["и менее", "<="],
  ["и меньше", "<="],
  ["или менее", "<="],
  ["или меньше", "<="],
  ["и ниже", "<="],
];

/** Phrases by their first word, longest first. */
function byFirstWord(
  phrases: ReadonlyArray<readonly [string, string]>,
): ReadonlyMap<string, ReadonlyArray<readonly [string, string]>> {
  const m = new Map<string, Array<readonly [string, string]>>();
  for (const p of phrases) m.set(p[0].split(" ")[0], [...(m.get(p[0].split(" ")[0]) ?? []), p]);
  return m;
}
const BEFORE_BY_FIRST = byFirstWord(BEFORE);
const AFTER_BY_FIRST = byFirstWord(AFTER);

/** Index of the last token of `phrase` when it starts at token i (words only, spaces between), else -1. */
function phraseEnd(toks: Tok[], i: number, phrase: string, marks: Marks): number {
  const ws = phrase.split(" ");
  for (let k = 0; k < ws.length; k++) {
    const t = toks[i + k];
    if (t?.kind !== "word" || t.lower !== ws[k] || marks.used.has(i + k) || (k > 0 && !/^\s+$/u.test(t.gap))) return -1;
  }
  return i + ws.length - 1;
}

/** Marks tokens i…k as one comparator `cmp`. */
function mark(marks: Marks, i: number, k: number, cmp: string): void {
  for (let j = i; j <= k; j++) marks.used.add(j), marks.wordOf.set(j, j === i ? cmp : "");
}

/**
 * Reads the comparisons: each comparator (symbol or phrase) with the number it bounds, as "<0.05", ">=10";
 * a comparison symbol with no number after it counts alone ("<"). Marks the tokens it reads.
 */
export function readComparisons(toks: Tok[], marks: Marks, runs: readonly NumberRun[]): string[] {
  const byStart = new Map(runs.map((r) => [r.start, r]));
  const out: string[] = [];
  const bound = (k: number): NumberRun | undefined => {
    const next = toks[k + 1]?.kind === "symbol" && PREFIX_UNITS.has(toks[k + 1].raw) ? k + 2 : k + 1;
    return byStart.get(next);
  };
  for (let i = 0; i < toks.length; i++) {
    if (marks.used.has(i)) continue;
    if (toks[i].kind === "cmp") {
      const run = bound(i);
      out.push(toks[i].lower + (run?.first ?? ""));
      mark(marks, i, i, toks[i].lower);
      continue;
    }
    for (const [phrase, cmp] of BEFORE_BY_FIRST.get(toks[i].lower) ?? []) {
      const k = phraseEnd(toks, i, phrase, marks);
      const run = k >= 0 ? bound(k) : undefined;
      if (!run) continue;
      out.push(cmp + run.first);
      mark(marks, i, k, cmp);
      i = k;
      break;
    }
  }
  for (const run of runs) {
    for (const [phrase, cmp] of AFTER_BY_FIRST.get(toks[run.end + 1]?.lower ?? "") ?? []) {
      const k = phraseEnd(toks, run.end + 1, phrase, marks);
      if (k < 0) continue;
      out.push(cmp + run.first);
      mark(marks, run.end + 1, k, cmp);
      break;
    }
  }
  return out.sort();
}

const TIME_UNITS: ReadonlySet<string> = new Set(["day", "week", "month", "year", "h", "min", "s"]);
/** English rate words (whole words) and Russian ones (stems: "ежедневно", "ежедневный"). */
const RATE_WORDS: ReadonlyMap<string, string> = new Map([
  ["daily", "day"],
  ["weekly", "week"],
  ["monthly", "month"],
  ["yearly", "year"],
  ["annually", "year"],
  ["annual", "year"],
  ["hourly", "h"],
]);
const RU_RATE_STEMS: ReadonlyArray<readonly [string, string]> = [
  ["ежедневн", "day"],
  ["еженедельн", "week"],
  ["ежемесячн", "month"],
  ["ежегодн", "year"],
  ["ежечасн", "h"],
  ["ежеминутн", "min"],
  ["ежесекундн", "s"],
  ["посуточн", "day"],
];
const EVERY: ReadonlySet<string> = new Set([
  "every",
  "each",
  "каждый",
  "каждая",
  "каждое",
  "каждые",
  "каждого",
  "каждой",
  "каждому",
  "каждым",
  "каждом",
  "каждую",
  "каждых",
]);
const TIMES: ReadonlySet<string> = new Set(["times", "once", "twice", "thrice", "раз", "раза"]);

/** The time unit a word names ("day", "неделю" → "week"), if it is spelt out (not "h", "с"). */
function timeUnit(t: Tok | undefined): string | undefined {
  const u = t?.kind === "word" && t.lower.length >= 3 ? UNITS.get(t.lower) : undefined;
  return u && TIME_UNITS.has(u) ? u : undefined;
}

/** The rate that starts at token i and the index of its last token, or null. */
function rateAt(toks: Tok[], i: number, marks: Marks): [string, number] | null {
  const t = toks[i];
  if (t.kind !== "word") return null;
  const adverb =
    RATE_WORDS.get(t.lower) ??
    (/^(?:еже|посут)/u.test(t.lower) ? RU_RATE_STEMS.find(([w]) => t.lower.startsWith(w))?.[1] : undefined);
  if (adverb) return [adverb, i];
  const next = toks[i + 1];
  if (!next || marks.used.has(i + 1) || !/^\s+$/u.test(next.gap)) return null;
  if (t.lower === "per" && next.kind === "word" && UNITS.has(next.lower)) return [UNITS.get(next.lower)!, i + 1];
  const unit = timeUnit(next);
  if (!unit) return null;
  if (EVERY.has(t.lower)) return [unit, i + 1];
  const prev = toks[i - 1];
  const counted = marks.used.has(i - 1) || (prev !== undefined && TIMES.has(prev.lower));
  return counted && ["a", "an", "в"].includes(t.lower) ? [unit, i + 1] : null;
}

/**
 * Reads the rates: "per day", "a day" after a count, "в день" after a count, "every week", "каждую неделю",
 * "daily", "ежедневно", and a unit after a slash ("mg/day", "km/h"), each as "/day", "/week", "/h". Marks them.
 */
export function readRates(toks: Tok[], marks: Marks): string[] {
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (marks.used.has(i)) continue;
    const t = toks[i];
    const slashed =
      t.kind === "word" && /^\s*\/\s*$/u.test(t.gap) && marks.used.has(i - 1) ? UNITS.get(t.lower) : undefined;
    const rate: [string, number] | null = slashed ? [slashed, i] : rateAt(toks, i, marks);
    if (!rate) continue;
    out.push(`/${rate[0]}`);
    mark(marks, i, rate[1], `/${rate[0]}`);
    i = rate[1];
  }
  return out.sort();
}

/**
 * Every word {@link readComparisons} or {@link readRates} may mark (phrase words, rate words, "per", "every"…; the
 * Russian rate stems are matched by prefix, see {@link RATE_STEM_START}): a word outside this set and outside the
 * units and number words is never taken by them. For dedup's rest sketch (rest-sketch.ts); lower case.
 */
export const MARKABLE_WORDS: ReadonlySet<string> = new Set([
  ...[...BEFORE, ...AFTER].flatMap(([phrase]) => phrase.split(" ")),
  ...RATE_WORDS.keys(),
  ...EVERY,
  ...TIMES,
  "per",
  "a",
  "an",
  "в",
]);

/** The start of every Russian rate stem {@link readRates} matches. */
export const RATE_STEM_START = /^(?:еже|посут)/u;
