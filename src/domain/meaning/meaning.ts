/**
 * Guards near-duplicate merging: two texts that are close as vectors are still different facts when a negation,
 * a number, a unit, a comparison, a date, a named entity, a code, an antonym or a quantifier differs ("the drug
 * reduces risk" vs "the drug does not reduce risk"; "in 1892" vs "in 1898"; "5 mg" vs "5 g"; "p < 0.05" vs
 * "p > 0.05"; "в Москве" vs "в Казани"; "alive" vs "dead"; "all" vs "some"), or when the same names swap roles.
 * DESIGN.md failure kind 6. The features come from domain/meaning/statement.ts, names from domain/meaning/names.ts.
 */
import { entitiesDiffer, exchangeOf, rolesSwapped, sortedHas, symmetricExchange, wordsSwapped } from "./names.ts";
import { flipPole, NEGATING_PREFIXES, NOT_PREFIX_NEGATED } from "./opposites.ts";
import { readStatement, type Statement } from "./statement.ts";
import { digestOf, PREFIX_START } from "./rest-bound.ts";
import { dedupeRuns, formsOf } from "./statement-derived.ts";

/**
 * A feature whose difference keeps two statements apart. `negation`: the number of negations; `prefix negation`:
 * a negating prefix on a word the other text has bare ("insignificant" vs "significant", "невозможно" vs
 * "возможно"); `negated word`: what is negated ("Canberra, not Sydney" vs "Sydney, not Canberra"); `comparison`:
 * the comparator on a number ("< 0.05" vs "> 0.05", "at least" vs "at most"); `direction`: increase vs decrease;
 * `antonym`: opposite words ("passed" vs "failed", "before" vs "after"); `quantifier`: "all" vs "some", "always" vs
 * "never"; `roles`: the same names or words in swapped roles ("Alice likes Bob" vs "Bob likes Alice", "the cat
 * chased the dog" vs "the dog chased the cat"); `identifier`: another numbered thing ("Widget 5" vs "Widget 6":
 * another subject, so its numbers are no contradiction); `modality`: one claim hedged ("may", «может»), the other
 * stated; `order`: the same words reordered where the roles cannot be told (Latin names in a Russian clause).
 */
export type GuardedFeature =
  | "negation"
  | "prefix negation"
  | "negated word"
  | "number"
  | "unit"
  | "comparison"
  | "date"
  | "entity"
  | "code"
  | "direction"
  | "antonym"
  | "quantifier"
  | "roles"
  | "identifier"
  | "modality"
  | "order";

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
   * do-support and "есть"), negating prefixes, numbers, units, comparisons, dates, directions, antonyms and
   * quantifiers are taken out. A contradiction needs it: "water boils at 100 °C" vs "water boils at 90 °C" share
   * it, "boils at 100 °C" vs "freezes at 0 °C" do not.
   */
  sameRest: boolean;
  /** Both texts have at least one word or number (symbols alone give nothing to compare). */
  comparable: boolean;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** True when one side states an increase the other lacks and the other a decrease the first lacks. */
function directionsConflict(a: number[], b: number[]): boolean {
  const has = (xs: number[], d: number) => xs.includes(d);
  return (
    (has(a, 1) && !has(b, 1) && has(b, -1) && !has(a, -1)) || (has(a, -1) && !has(b, -1) && has(b, 1) && !has(a, 1))
  );
}

/** True when one side states a pole of an antonym pair and the other only the opposite pole. */
function polesConflict(a: readonly string[], b: readonly string[]): boolean {
  const pa = new Set(a);
  const pb = new Set(b);
  return [...pa].some((p) => !pa.has(flipPole(p)) && pb.has(flipPole(p)) && !pb.has(p));
}

/** The word a stem negates by a prefix when the other text has that word and this one does not ("unsafe" → "safe"). */
function prefixBase(x: string, own: Statement, other: Statement): string | null {
  if (!PREFIX_START.test(x) || NOT_PREFIX_NEGATED.has(x) || sortedHas(other.stems, x)) return null;
  for (const p of NEGATING_PREFIXES) {
    const y = x.startsWith(p) ? x.slice(p.length) : "";
    if (y.length >= 3 && sortedHas(other.stems, y) && !sortedHas(own.stems, y)) return y;
  }
  return null;
}

/**
 * Counts a side's prefix negations and rewrites its rest with the bare words (dropped when the other's rest lacks
 * them); `prefixed` are the negated stems and their bare words ("uninstall", "install"), which are no names either.
 */
function unprefixed(
  own: Statement,
  other: Statement,
): { count: number; rest: readonly string[]; prefixed: readonly string[] } {
  // No member is a prefix negation here ("info" begins like "in-" but "fo" is no word of the other): nothing to
  // rewrite, the common case; the rest is then shared, not copied. prefixBase is a function of the member alone.
  if (!hasPrefixNegation(own, other)) return { count: 0, rest: own.rest, prefixed: NO_WORDS };
  const prefixed: string[] = [];
  const rest = own.rest.flatMap((x) => {
    const y = prefixBase(x, own, other);
    if (y === null) return [x];
    prefixed.push(x, y);
    return other.rest.includes(y) ? [y] : [];
  });
  return { count: prefixed.length / 2, rest, prefixed };
}

/** True when a member of `own`'s rest is a prefix negation of a word `other` has ("unsafe" against "safe"). */
function hasPrefixNegation(own: Statement, other: Statement): boolean {
  return digestOf(own).prefixed.some((x) => prefixBase(x, own, other) !== null);
}

/**
 * False only when {@link compareRead}'s `sameRest` is certainly false: exactly its test when neither side has a
 * prefix negation (the rests are then compared unchanged), else true. For dedup's pruning (pair-class.ts).
 */
export function sameRestPossible(a: Statement, b: Statement): boolean {
  if (hasPrefixNegation(a, b) || hasPrefixNegation(b, a)) return true;
  const [fa, fb] = [formsOf(a), formsOf(b)];
  return sameList(fa.restRuns, fb.restRuns) || sameList(fa.sortedRest, fb.sortedRest);
}

const NOTHING: ReadonlySet<string> = new Set();
const NO_WORDS: readonly string[] = [];
const sorted = (xs: readonly string[]) => [...xs].sort();
/** `rest` sorted: a statement's own, derived once, when `rest` is its rest unchanged. */
const sortedRestOf = (s: Statement, rest: readonly string[]) =>
  rest === s.rest ? formsOf(s).sortedRest : sorted(rest);
/** `rest` without immediate repetitions, likewise. */
const restRunsOf = (s: Statement, rest: readonly string[]) =>
  rest === s.rest ? formsOf(s).restRuns : dedupeRuns(rest);

/** True when `s` states its claim as possible: a hedge, or "can" against another statement that hedges. */
const hedged = (s: Statement, other: Statement) => s.hedges > 0 || (other.hedges > 0 && s.abilities > 0);

/** Compares two already-read statements. */
export function compareRead(a: Statement, b: Statement): StatementComparison {
  const pa = unprefixed(a, b);
  const pb = unprefixed(b, a);
  const byNames = rolesSwapped(a, b);
  const exchange = a.rest.length === b.rest.length ? exchangeOf(a, b) : null;
  const byWords = wordsSwapped(a, b, exchange);
  const swapped = !symmetricExchange(exchange) && (byNames === true || (byNames !== null && byWords === true));
  const unclear =
    !swapped && (byNames === null || byWords === null) && sameList(formsOf(a).sortedRest, formsOf(b).sortedRest);

  const negationsDiffer = a.negations + pa.count !== b.negations + pb.count;
  const checks: Array<[GuardedFeature, boolean]> = [
    ["negation", negationsDiffer && a.negations !== b.negations],
    ["prefix negation", negationsDiffer && a.negations === b.negations],
    ["negated word", a.negations === b.negations && !sameList(a.negatedWords, b.negatedWords)],
    ["number", !sameList(a.numbers, b.numbers)],
    ["unit", !sameList(a.units, b.units)],
    ["comparison", !sameList(a.comparisons, b.comparisons)],
    ["date", !sameList(a.dates, b.dates)],
    ["entity", entitiesDiffer(a, b, pa.count + pb.count ? new Set([...pa.prefixed, ...pb.prefixed]) : NOTHING)],
    ["code", !sameList(a.codes, b.codes)],
    ["direction", directionsConflict(a.directions, b.directions)],
    ["antonym", polesConflict(a.poles, b.poles)],
    ["quantifier", !sameList(a.quantifiers, b.quantifiers)],
    ["roles", swapped],
    ["order", unclear && !sameList(a.rest, b.rest)],
    ["identifier", !sameList(a.ids, b.ids)],
    ["modality", hedged(a, b) !== hedged(b, a) && pa.count + pb.count === 0],
  ];
  const [fa, fb] = [formsOf(a), formsOf(b)];
  return {
    differs: checks.filter(([, d]) => d).map(([f]) => f),
    sameWords: sameList(fa.wordRuns, fb.wordRuns),
    sameWordSet: fa.wordSet === fb.wordSet,
    // Swapped roles, or a negation moved to the other word ("Go, а не Rust" vs "Rust, а не Go"), keep the words.
    sameRest:
      sameList(restRunsOf(a, pa.rest), restRunsOf(b, pb.rest)) ||
      ((swapped || !sameList(a.negatedWords, b.negatedWords)) &&
        sameList(sortedRestOf(a, pa.rest), sortedRestOf(b, pb.rest))),
    comparable: a.words.length > 0 && b.words.length > 0,
  };
}

/** Statements read recently, by text: dedup compares one new atom with many candidates, and candidates recur. */
const recent = new Map<string, Statement>();
const RECENT_MAX = 1024;

/** The statement of a text, read once per recent text (the cache of {@link compareStatements}). Never throws. */
export function statementOf(text: string): Statement {
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
  return compareRead(statementOf(a), statementOf(b));
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
 * punctuation, filler and repeated words aside). This is the lexical embedder's merge rule; domain/meaning/dedup.ts
 * `decidePair` is the full decision (merge, keep or contradiction, per embedder policy).
 */
export function meaningDifference(a: string, b: string): string | null {
  const c = compareStatements(a, b);
  for (const [feature, reason] of LEGACY_REASONS) if (c.differs.includes(feature)) return reason;
  if (!c.sameWordSet) return "the words differ";
  if (!c.sameWords) return "the word order differs";
  return null;
}
