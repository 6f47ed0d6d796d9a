/**
 * Guards near-duplicate merging: two texts that are close as vectors are still different facts when a negation,
 * a number, a unit, a date, a named entity or a code differs ("the drug reduces risk" vs "the drug does not reduce
 * risk"; "in 1892" vs "in 1898"; "5 mg" vs "5 g"; "в Москве" vs "в Казани"). DESIGN.md failure kind 6.
 * The features come from domain/statement.ts.
 */
import { readStatement, type Statement } from "./statement.ts";

/**
 * A feature whose difference keeps two statements apart. `negation`: the number of negations; `negated word`:
 * what is negated ("Canberra, not Sydney" vs "Sydney, not Canberra"); `direction`: increase vs decrease.
 */
export type GuardedFeature = "negation" | "negated word" | "number" | "unit" | "date" | "entity" | "code" | "direction";

/** How two statements compare (see {@link compareStatements}). */
export interface StatementComparison {
  /** Guarded features that differ, in the order of {@link GuardedFeature}; empty when none does. */
  differs: GuardedFeature[];
  /** The same content words in the same order (case, punctuation, filler words and repeated words aside). */
  sameWords: boolean;
  /** The same set of content words, in any order. */
  sameWordSet: boolean;
  /**
   * The same statement outside its guarded features: the light-stemmed words in order once negations (with
   * do-support and "есть"), numbers, units, dates and direction words are taken out. A contradiction needs it:
   * "water boils at 100 °C" vs "water boils at 90 °C" share it, "boils at 100 °C" vs "freezes at 0 °C" do not.
   */
  sameRest: boolean;
  /** Both texts have at least one word or number (symbols alone give nothing to compare). */
  comparable: boolean;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Collapses immediate repetitions ("грязная, грязная" → "грязная"). */
function dedupeRuns(ws: string[]): string[] {
  return ws.filter((w, i) => i === 0 || ws[i - 1] !== w);
}

/** Entities of one side: its mid-sentence names, plus sentence-initial capitals that either side names mid-sentence. */
function entitiesOf(s: Statement, known: ReadonlySet<string>): string[] {
  return [...s.entities, ...s.initialCaps.filter((w) => known.has(w))].sort();
}

/** True when one side states an increase the other lacks and the other a decrease the first lacks. */
function directionsConflict(a: number[], b: number[]): boolean {
  const has = (xs: number[], d: number) => xs.includes(d);
  return (has(a, 1) && !has(b, 1) && has(b, -1) && !has(a, -1)) || (has(a, -1) && !has(b, -1) && has(b, 1) && !has(a, 1));
}

/** Compares two already-read statements. */
export function compareRead(a: Statement, b: Statement): StatementComparison {
  const known = new Set([...a.entities, ...b.entities]);
  const checks: Array<[GuardedFeature, boolean]> = [
    ["negation", a.negations !== b.negations],
    ["negated word", a.negations === b.negations && !sameList(a.negatedWords, b.negatedWords)],
    ["number", !sameList(a.numbers, b.numbers)],
    ["unit", !sameList(a.units, b.units)],
    ["date", !sameList(a.dates, b.dates)],
    // A text in capitals only has no case to tell names by; its words still count (a different name differs).
    ["entity", !a.caseless && !b.caseless && !sameList(entitiesOf(a, known), entitiesOf(b, known))],
    ["code", !sameList(a.codes, b.codes)],
    ["direction", directionsConflict(a.directions, b.directions)],
  ];
  const wa = dedupeRuns(a.words);
  const wb = dedupeRuns(b.words);
  return {
    differs: checks.filter(([, d]) => d).map(([f]) => f),
    sameWords: sameList(wa, wb),
    sameWordSet: sameList([...new Set(wa)].sort(), [...new Set(wb)].sort()),
    sameRest: sameList(dedupeRuns(a.rest), dedupeRuns(b.rest)),
    comparable: a.words.length > 0 && b.words.length > 0,
  };
}

/** Statements read recently, by text: dedup compares one new atom with many candidates, and candidates recur. */
const recent = new Map<string, Statement>();
const RECENT_MAX = 1024;

function read(text: string): Statement {
  let s = recent.get(text);
  if (!s) {
    s = readStatement(text);
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as string);
    recent.set(text, s);
  }
  return s;
}

/** Compares two statements (English or Russian) feature by feature. Never throws; reads are cached (1024 texts). */
export function compareStatements(a: string, b: string): StatementComparison {
  return compareRead(read(a), read(b));
}

const LEGACY_REASONS: Array<[GuardedFeature, string]> = [
  ["negation", "negation differs"],
  ["number", "a number or date differs"],
  ["code", "a code or identifier differs"],
  ["date", "a date differs"],
  ["unit", "a unit differs"],
  ["entity", "a named entity differs"],
];

/**
 * Why two near-identical texts must NOT be merged by wording alone, or null when they may be: the first of
 * "negation differs", "a number or date differs", "a code or identifier differs", "a date differs" (month or
 * weekday), "a unit differs", "a named entity differs", "the words differ", "the word order differs" (case,
 * punctuation, filler and repeated words aside). This is the lexical embedder's merge rule; domain/dedup.ts
 * `decidePair` is the full decision (merge, keep or contradiction, per embedder policy).
 */
export function meaningDifference(a: string, b: string): string | null {
  const c = compareStatements(a, b);
  for (const [feature, reason] of LEGACY_REASONS) if (c.differs.includes(feature)) return reason;
  if (!c.sameWordSet) return "the words differ";
  if (!c.sameWords) return "the word order differs";
  return null;
}
