/**
 * Named entities of two statements compared (domain/meaning/meaning.ts): another name ("Paris" vs "Berlin"), another name
 * at the start of the sentence where capitals say little ("Smith wrote the paper." vs "Jones wrote the paper."),
 * names in a text without case (all capitals: its words are compared, not its capitals), and the same names in
 * swapped roles ("Alice likes Bob" vs "Bob likes Alice"; in Russian the case endings tell the roles, so "Алису любит
 * Боб" and "Боб любит Алису" are one statement). Pure.
 */
import type { Statement } from "./statement.ts";
import { formsOf } from "./statement-derived.ts";

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** True when the sorted list `xs` holds `x` (binary search: statements are compared many times, read once). */
export function sortedHas(xs: readonly string[], x: string): boolean {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] === x) return true;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Levenshtein distance between two word lists. */
function editDistance(a: readonly string[], b: readonly string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * True when two rests are the same sentence but for a few words: at most two edits, or a quarter of the longer one.
 * A sentence that only swaps its first word is another fact about another subject; a paraphrase rewrites more.
 */
function nearlySame(a: readonly string[], b: readonly string[]): boolean {
  const allowed = Math.max(2, Math.floor(Math.max(a.length, b.length) / 4));
  // Cheap bound first: the distance is at least the longer length minus the words the two share.
  const inB = new Set(b);
  if (Math.max(a.length, b.length) - a.filter((w) => inB.has(w)).length > allowed) return false;
  return editDistance(a, b) <= allowed;
}

/** Entities of one side: its mid-sentence names, plus sentence-initial capitals that either side names mid-sentence. */
function entitiesOf(s: Statement, known: ReadonlySet<string>): string[] {
  return [...s.entities, ...s.initialCaps.filter((w) => known.has(w))].sort();
}

/** Name candidates of `s` that the other statement does not contain in any case or form, nor explains. */
function unmatched(
  s: Statement,
  other: Statement,
  known: ReadonlySet<string>,
  explained: ReadonlySet<string>,
): string[] {
  return s.nameCandidates.filter((n) => !known.has(n) && !sortedHas(other.stems, n) && !explained.has(n));
}

/**
 * True when a named entity differs: the mid-sentence names differ (both texts with case); a cased text names
 * something the caseless (or lower-case) one lacks; or a possible name (a sentence-initial capital, any word of a caseless text)
 * is missing from the other text while the rest of the two sentences is nearly the same — "Aspirin reduces risk"
 * vs "The risk is reduced by aspirin" contains the word, and a rewritten sentence is a paraphrase, not a new name.
 * `explained` stems are known to be other words (a prefix negation: "Uninstall" of "install").
 */
export function entitiesDiffer(a: Statement, b: Statement, explained: ReadonlySet<string> = new Set()): boolean {
  const known = new Set([...a.entities, ...b.entities]);
  const uncased = (s: Statement) => s.caseless || s.lowercased;
  if (!uncased(a) && !uncased(b) && !sameList(entitiesOf(a, known), entitiesOf(b, known))) return true;
  if (uncased(a) !== uncased(b)) {
    const [cased, other] = uncased(a) ? [b, a] : [a, b];
    if (cased.entities.some((e) => !sortedHas(other.stems, e))) return true;
  }
  if (!a.nameCandidates.length && !b.nameCandidates.length) return false;
  const missing = unmatched(a, b, known, explained).length + unmatched(b, a, known, explained).length;
  return missing > 0 && nearlySame(a.rest, b.rest);
}

/** First occurrences, in order, of the names both statements have. */
function order(s: Statement, common: ReadonlySet<string>): string[] {
  return [...new Set(s.names.map((n) => n.stem).filter((x) => common.has(x)))];
}

/** Words that join two parties without ranking them ("Alice and Bob"): spans they join may swap freely. */
const JOINING: ReadonlySet<string> = new Set(["and", "or", "&", "with", "и", "или", "с", "со"]);
/**
 * Stems of symmetric relations ("Alice married Bob" = "Bob married Alice"): a swap around them keeps the meaning.
 * Matched as prefixes of the words between the swapped spans.
 */
const SYMMETRIC = [
  "marri",
  "marry",
  "met",
  "meet",
  "equal",
  "similar",
  "resembl",
  "border",
  "adjoin",
  "collid",
  "differ",
  "touch",
  "женил",
  "обвенча",
  "встрети",
  "встреча",
  "равн",
  "похож",
  "граничи",
  "соседств",
  "дружи",
];

/** `b` is `a` with the spans a[i, p) and a[q, j] exchanged around a[p, q) (non-empty): "X hired Y" vs "Y hired X". */
function exchanged(a: readonly string[], b: readonly string[]): { x: string[]; mid: string[]; y: string[] } | null {
  if (a.length !== b.length || a.length > 60) return null;
  let i = 0;
  let j = a.length - 1;
  while (i < a.length && a[i] === b[i]) i++;
  while (j > i && a[j] === b[j]) j--;
  if (i >= j) return null;
  const seg = a.slice(i, j + 1);
  const target = b.slice(i, j + 1).join("\u0000");
  for (let p = 1; p < seg.length - 1; p++)
    for (let q = p + 1; q < seg.length; q++) {
      const [x, mid, y] = [seg.slice(0, p), seg.slice(p, q), seg.slice(q)];
      if ([...y, ...mid, ...x].join("\u0000") === target) return { x, mid, y };
    }
  return null;
}

const isCyrillic = (w: string) => /^\p{Script=Cyrillic}+$/u.test(w);

/**
 * True when the words between two exchanged spans only join them — alone or as a short list ("Thunderbird,
 * SeaMonkey and Firefox" vs "Firefox, SeaMonkey and Thunderbird") — or name a symmetric relation.
 */
const symmetric = (mid: readonly string[]) =>
  mid.every((w) => JOINING.has(w)) ||
  (mid.length <= 3 && mid.some((w) => JOINING.has(w))) ||
  mid.some((w) => SYMMETRIC.some((s) => w.startsWith(s)));

/** Spans of `a.rest` and `b.rest` exchanged around a middle (see {@link exchanged}), or null. */
export type Exchange = { x: string[]; mid: string[]; y: string[] } | null;

/** The exchange between two statements' rests, if any: read once, then given to the two tests below. */
export function exchangeOf(a: Statement, b: Statement): Exchange {
  return exchanged(a.rest, b.rest);
}

/** True when an exchange's spans are joined only by "and"/«и» or around a symmetric relation ("married"). */
export function symmetricExchange(e: Exchange): boolean {
  return e !== null && symmetric(e.mid);
}

/**
 * Whether the same words take each other's places around the words between them — who did what to whom changed:
 * "The cat chased the dog" vs "The dog chased the cat", "chose Flask over Django" vs "chose Django over Flask",
 * "Кошка догнала собаку" vs "Собака догнала кошку". Not a swap (false): spans joined only by "and"/«и» ("Alice and
 * Bob met"), a symmetric relation ("married", «встретил»), or Russian words that keep their case endings ("Собаку
 * догнала кошка" is the same statement: the endings carry the roles), or no exchange at all. Null when it cannot be
 * told: words without case endings (Latin names) exchanged in a Russian sentence, whose word order is free.
 */
export function wordsSwapped(a: Statement, b: Statement, e: Exchange = exchangeOf(a, b)): boolean | null {
  if (!e || symmetric(e.mid)) return false;
  const russian = [...a.forms, ...b.forms].some(isCyrillic);
  if (!russian) return true;
  if (![...e.x, ...e.y].every(isCyrillic)) return null;
  return !sameList([...a.forms].sort(), [...b.forms].sort());
}

/**
 * True when the same names take other roles: two or more names both texts share come in another order while the
 * words are otherwise the same ("Rhino converts JavaScript into Java" vs "…Java into JavaScript"). A passive or a
 * rewrite ("Mozilla released Firefox" vs "Firefox was released by Mozilla") changes the words and is not a swap.
 * Russian names within one clause carry their roles in their case endings ("Алису любит Боб" = "Боб любит Алису"),
 * so there a swap needs other forms of the names; across clauses ("Андрей пошел…, но Никита вскочил") order counts.
 * Null when it cannot be told: Latin names, which show no case, reordered within one clause of a Russian sentence.
 */
export function rolesSwapped(a: Statement, b: Statement): boolean | null {
  if (a.caseless || b.caseless || a.names.length < 2 || b.names.length < 2) return false;
  const inB = new Set(b.names.map((n) => n.stem));
  const common = new Set(a.names.map((n) => n.stem).filter((x) => inB.has(x)));
  if (common.size < 2) return false;
  if (sameList(order(a, common), order(b, common))) return false;
  if (!sameList(formsOf(a).sortedRest, formsOf(b).sortedRest)) return false;
  const shared = (s: Statement) => s.names.filter((n) => common.has(n.stem));
  const forms = (s: Statement) =>
    shared(s)
      .map((n) => n.form)
      .sort();
  const oneClause = (s: Statement) => new Set(shared(s).map((n) => n.clause)).size === 1;
  const cyrillic = [...forms(a), ...forms(b)].every(isCyrillic);
  if (!cyrillic && oneClause(a) && oneClause(b) && [...a.forms, ...b.forms].some(isCyrillic)) return null;
  return !(cyrillic && oneClause(a) && oneClause(b)) || !sameList(forms(a), forms(b));
}
