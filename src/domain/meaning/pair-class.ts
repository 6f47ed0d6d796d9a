/**
 * What two close statements are to each other (issue 21): `merge` (the same statement), `corroborate` (the same fact
 * in other words, or one text states all of the other and more), `contradict` (the same property of the same subject
 * with an incompatible value, a negation or swapped roles), `supersede` (a newer value of a changing property: another
 * value at another time) or `separate` (anything else: another subject, another fact, a hedged against a plain
 * claim). Reads the features of domain/meaning/meaning.ts; the labelled pairs of tests/dedup/pair-set.jsonl measure
 * it (bench/benchmarks/dedup-pairs.ts). Pure; never throws.
 */
import {
  compareStatements,
  type GuardedFeature,
  type StatementComparison,
  sameRestPossible,
  statementOf,
} from "./meaning.ts";
import type { Statement } from "./statement.ts";
import { formsOf } from "./statement-derived.ts";
import { foldForHash } from "../text.ts";
import { restsMayMatch, sketchesApart } from "./rest-bound.ts";

/** The relation of two statements (see module doc). */
export type PairClass = "merge" | "corroborate" | "contradict" | "supersede" | "separate";

/** A relation with its reason, in English. */
export interface PairClassification {
  kind: PairClass;
  reason: string;
}

/** Differences that make the same claim a contradiction rather than another fact. */
const CONTRADICTING: ReadonlySet<GuardedFeature> = new Set([
  "negation",
  "prefix negation",
  "negated word",
  "number",
  "unit",
  "comparison",
  "date",
  "direction",
  "antonym",
  "quantifier",
  "roles",
]);

/** Recent {@link bare} forms by text: one new atom is compared with several candidates, and candidates recur. */
const bareCache = new Map<string, string>();

/** Words and digits only, lower case: what "the same text" means once case and punctuation are set aside. */
function bare(text: string): string {
  let b = bareCache.get(text);
  if (b === undefined) {
    b = foldForHash(text)
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (bareCache.size >= 1024) bareCache.delete(bareCache.keys().next().value as string);
    bareCache.set(text, b);
  }
  return b;
}

/** A text as the whole-text checks read it: the raw text and its {@link bare} form. */
interface Bare {
  raw: string;
  bare: string;
}

/**
 * True when `long` is `short` under a heading: the same words after at most ten words more at the start (a title
 * line, "© The Author(s) 2021"), none of them a negation or a hedge ("It is not true that …" is no heading).
 */
function headed(long: Bare, short: Bare): boolean {
  const [l, s] = [long.bare, short.bare];
  if (l.length <= s.length || !l.endsWith(` ${s}`) || s.split(" ").length < 5) return false;
  const head = l.slice(0, l.length - s.length).trim();
  if (head.split(" ").length > 10) return false;
  const h = statementOf(head);
  return h.negations === 0 && h.hedges === 0;
}

/** Where a sentence (or a line) ends. */
const SENTENCE_END = /(?<=[.!?…;])\s+|\n+/u;

/** Recent {@link firstSentenceBare} results by text: a text is read against several others. */
const firstCache = new Map<string, string>();

/** The first sentence of a text, bare. */
function firstSentenceBare(text: string): string {
  let f = firstCache.get(text);
  if (f === undefined) {
    f = foldForHash(text.split(SENTENCE_END, 1)[0])
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (firstCache.size >= 1024) firstCache.delete(firstCache.keys().next().value as string);
    firstCache.set(text, f);
  }
  return f;
}

/** Sentences of a text, bare, with at least three words. */
function sentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map(bare)
    .filter((s) => s.split(" ").length >= 3);
}

/** True when `big` states every sentence of `small` (at least five words of it) and more. */
function contains(big: Bare, small: Bare): boolean {
  const [b, s] = [big.bare, small.bare];
  if (b.length <= s.length || s.split(" ").length < 5) return false;
  if (b.includes(s)) return true;
  // Cheap test first: the first sentence of `small` must occur in `big`'s words.
  const first = firstSentenceBare(small.raw);
  if (first.split(" ").length >= 3 && !b.includes(first)) return false;
  const own = sentences(small.raw);
  if (own.length === 0 || !own.every((x) => b.includes(x))) return false;
  const set = new Set(sentences(big.raw));
  return own.every((x) => set.has(x));
}

/** True when one list is the other with a few words inserted (at most two, or a quarter of the longer list). */
function fewInserted(a: readonly string[], b: readonly string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 3 || long.length - short.length > Math.max(2, Math.floor(long.length / 4))) return false;
  let i = 0;
  for (const w of long) if (i < short.length && short[i] === w) i++;
  return i === short.length;
}

const YEAR = /^(?:1[89]\d\d|20\d\d)$/u;

/**
 * A newer value of the same property: the two statements give other values (not years) AND other years, the rest
 * being the same ("had 1,000 employees in 2015" vs "had 750 employees in 2020"). Only a year that differs, with no
 * other value, is one event dated twice: a contradiction.
 */
function supersedes(a: string, b: string, c: StatementComparison): boolean {
  if (!c.differs.includes("number")) return false;
  const [sa, sb] = [statementOf(a), statementOf(b)];
  const split = (ns: string[]) => [ns.filter((n) => YEAR.test(n)), ns.filter((n) => !YEAR.test(n))];
  const [ya, va] = split(sa.numbers);
  const [yb, vb] = split(sb.numbers);
  const same = (x: string[], y: string[]) => x.join(" ") === y.join(" ");
  return ya.length > 0 && yb.length > 0 && !same(ya, yb) && va.length > 0 && vb.length > 0 && !same(va, vb);
}

const COPULAS: ReadonlySet<string> = new Set([
  "is",
  "was",
  "are",
  "were",
  "является",
  "являлся",
  "являлась",
  "был",
  "была",
]);

/**
 * The same subject named with another value after a copula: "The capital of Australia is Canberra" vs "… is
 * Sydney", «Столица Австралии — Канберра» vs «… — Сидней». Only the last word differs on each side, it is a name
 * on both, and a copula (or a dash) comes right before it.
 */
function otherValueOfSameSubject(a: string, b: string): boolean {
  const [sa, sb] = [statementOf(a), statementOf(b)];
  const [ra, rb] = [sa.rest, sb.rest];
  if (ra.length !== rb.length || ra.length < 3) return false;
  const n = ra.length - 1;
  if (ra[n] === rb[n] || ra.slice(0, n).join(" ") !== rb.slice(0, n).join(" ")) return false;
  if (!sa.entities.includes(ra[n]) || !sb.entities.includes(rb[n])) return false;
  const dashed = (t: string) => /[—–-]\s*\p{Lu}[\p{L}-]*\s*[.!]?\s*$/u.test(t);
  return COPULAS.has(sa.forms[n - 1] ?? "") || (dashed(a) && dashed(b));
}

/** The cheap part of {@link headed}: `long` ends with a space and `short`. */
function mayBeHeaded(long: string, short: string): boolean {
  return long.length > short.length && long.endsWith(short) && long[long.length - short.length - 1] === " ";
}

/** True when rests `a` and `b` are alike but for their last member (the shape {@link otherValueOfSameSubject} needs). */
function sameButLast(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a.length < 3) return false;
  for (let i = 0; i < a.length - 1; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The exact tests behind the set bound of rest-bound.ts `restsMayMatch`: the same word set (a merge or the same
 * words reordered), a few words inserted, the same rest but its last member, or the same rest (meaning.ts
 * `sameRestPossible`). Two log lines share nearly all their words as sets; as sequences they differ.
 */
function restRuleMayHold(a: Statement, b: Statement): boolean {
  return (
    formsOf(a).wordSet === formsOf(b).wordSet ||
    fewInserted(a.rest, b.rest) ||
    sameButLast(a.rest, b.rest) ||
    sameRestPossible(a, b)
  );
}

/**
 * False only when {@link classifyStatements}(a, b, false) is certainly `separate` (the lexical embedder's policy):
 * both texts have words, neither is the other under a heading nor contains it, and the word sets and rests are too
 * far apart for any rule that merges, corroborates, contradicts or supersedes (meaning.ts `restsMayMatch`). Dedup
 * uses it to skip pairs whose outcome would record nothing; tests/dedup/prune.test.ts checks it never misses.
 */
export function mayRelate(a: string, b: string): boolean {
  const [sa, sb] = [statementOf(a), statementOf(b)];
  if (!sa.words.length || !sb.words.length || (restsMayMatch(sa, sb) && restRuleMayHold(sa, sb))) return true;
  const [ba, bb] = [bare(a), bare(b)];
  if (mayBeHeaded(ba, bb) || mayBeHeaded(bb, ba)) return true;
  return contains({ raw: a, bare: ba }, { raw: b, bare: bb }) || contains({ raw: b, bare: bb }, { raw: a, bare: ba });
}

/**
 * True when {@link classifyStatements}(a, b, false) is certainly `separate`, known from the texts' rest sketches and
 * bare forms without reading either statement (meaning.ts `sketchesApart`; heading and containment tested as in
 * {@link mayRelate}). False means "read them": {@link mayRelate} then decides.
 */
export function surelyApart(a: string, b: string): boolean {
  if (!sketchesApart(a, b)) return false;
  const [ba, bb] = [bare(a), bare(b)];
  if (mayBeHeaded(ba, bb) || mayBeHeaded(bb, ba)) return false;
  return !contains({ raw: a, bare: ba }, { raw: b, bare: bb }) && !contains({ raw: b, bare: bb }, { raw: a, bare: ba });
}

function listed(features: GuardedFeature[]): string {
  const name = (f: GuardedFeature) =>
    f === "roles" ? "the roles" : f === "identifier" ? "the numbered subject" : f === "modality" ? "the hedging" : f;
  const ns = features.map(name);
  return ns.length > 1
    ? `${ns.slice(0, -1).join(", ")} and ${ns.at(-1)} differ`
    : `${ns[0]} differ${ns[0] === "the roles" ? "" : "s"}`;
}

/**
 * Classifies two statements that dedup or verification found close. `paraphrase` is the embedder policy's: true for
 * a neural embedder, whose paraphrases merge as before; false for the lexical one, where a paraphrase corroborates.
 */
export function classifyStatements(a: string, b: string, paraphrase: boolean): PairClassification {
  const c = compareStatements(a, b);
  if (!c.comparable) {
    const same = foldForHash(a) === foldForHash(b);
    return same ? { kind: "merge", reason: "same text" } : { kind: "separate", reason: "no words to compare" };
  }
  const [ba, bb] = [
    { raw: a, bare: bare(a) },
    { raw: b, bare: bare(b) },
  ];
  if (headed(ba, bb) || headed(bb, ba)) return { kind: "merge", reason: "same statement under a heading line" };
  if (c.differs.length === 0) {
    if (c.sameWords) return { kind: "merge", reason: "same statement" };
    if (paraphrase)
      return {
        kind: "merge",
        reason: "same statement in other words (no negation, number, unit, date or name differs)",
      };
  }
  if (contains(ba, bb) || contains(bb, ba))
    return { kind: "corroborate", reason: "one text states all of the other and more" };
  if (c.differs.length === 0) {
    if (c.sameWordSet) return { kind: "corroborate", reason: "the same words in another order" };
    const [ra, rb] = [statementOf(a).rest, statementOf(b).rest];
    if (fewInserted(ra, rb)) return { kind: "corroborate", reason: "the same statement with a few words more" };
    return { kind: "separate", reason: "the words differ (the lexical embedder does not merge paraphrases)" };
  }
  if (c.differs.every((f) => CONTRADICTING.has(f))) {
    if (!c.sameRest)
      return { kind: "separate", reason: `${listed(c.differs)}, and so does the rest of the statement: another fact` };
    if (supersedes(a, b, c))
      return { kind: "supersede", reason: "another value at another time: a newer value of the same property" };
    return { kind: "contradict", reason: `${listed(c.differs)} in the same statement` };
  }
  if (c.differs.length === 1 && c.differs[0] === "entity" && otherValueOfSameSubject(a, b))
    return { kind: "contradict", reason: "another name as the value of the same subject" };
  return { kind: "separate", reason: listed(c.differs) };
}
