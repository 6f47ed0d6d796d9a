/**
 * Cheap bounds for dedup's pruning (core/knowledge/dedup.ts via pair-class.ts): whether two statements' rests can be
 * alike enough for any rule of pair-class.ts but `separate`, told from the read statements ({@link restsMayMatch})
 * or, without reading them, from their rest sketches ({@link sketchesApart}, rest-sketch.ts). Both only ever err
 * towards "may match"; tests/dedup/prune.test.ts checks them against the full decision. Pure.
 */
import { NEGATING_PREFIXES } from "./opposites.ts";
import { type RestSketch, sketchRest } from "./rest-sketch.ts";
import type { Statement } from "./statement.ts";
import { formsOf } from "./statement-derived.ts";

/** First letters of the negating prefixes: a cheap test before the prefix loop of meaning.ts. */
export const PREFIX_START = new RegExp(`^(?:${NEGATING_PREFIXES.join("|")})`, "u");

/** What the bound of {@link restsMayMatch} reads of a statement, derived once per statement. */
interface RestDigest {
  /** The rest as a sorted set. */
  rest: string[];
  /** Its members a negating prefix may begin ("unsafe"): another text's bare word may stand for them. */
  prefixed: string[];
}

const digests = new WeakMap<Statement, RestDigest>();

/** The digest of a statement, derived on first use. */
export function digestOf(s: Statement): RestDigest {
  let d = digests.get(s);
  if (!d) {
    const rest = [...new Set(s.rest)].sort();
    d = { rest, prefixed: rest.filter((x) => PREFIX_START.test(x)) };
    digests.set(s, d);
  }
  return d;
}

/** True when `x`, missing from the other rest, may still be in the same rest once prefixes are read (see below). */
function prefixExplained(x: string, otherPrefixed: readonly string[]): boolean {
  if (PREFIX_START.test(x)) return true;
  for (const z of otherPrefixed) if (z.length > x.length && z.endsWith(x)) return true;
  return false;
}

/**
 * A cheap bound, for dedup's pruning: false only when no rule of domain/meaning/pair-class.ts that needs the two
 * rests (nearly) alike can hold — the same rest once prefix negations are read (a contradiction or a newer value,
 * `sameRest` of {@link compareRead}), one rest inside the other (a few words inserted), or the rests differing in
 * their last word only (another value of the same subject) — and the word sets differ (the same words). Each of
 * those needs, of the rests as sets, one inside the other, at most one member apart each way, or every member
 * missing from the other explained by a negating prefix (`x` of one side is `p + y` with y in the other, or the
 * other side holds `p + x`). Exact and conservative: it never says false where one of those rules could hold.
 */
export function restsMayMatch(a: Statement, b: Statement): boolean {
  const [da, db] = [digestOf(a), digestOf(b)];
  if (formsOf(a).wordSet === formsOf(b).wordSet) return true;
  const [ra, rb] = [da.rest, db.rest];
  let [i, j, onlyA, onlyB, unexplained] = [0, 0, 0, 0, 0];
  while (i < ra.length || j < rb.length) {
    if (j >= rb.length || (i < ra.length && ra[i] < rb[j])) {
      onlyA++;
      if (!prefixExplained(ra[i++], db.prefixed)) unexplained++;
    } else if (i >= ra.length || rb[j] < ra[i]) {
      onlyB++;
      if (!prefixExplained(rb[j++], da.prefixed)) unexplained++;
    } else {
      i++;
      j++;
    }
    if (unexplained > 0 && onlyA > 1 && onlyB > 1) return false;
  }
  return unexplained === 0 || onlyA === 0 || onlyB === 0 || (onlyA <= 1 && onlyB <= 1);
}

/** Rest sketches of recent texts (rest-sketch.ts), by text. */
const sketches = new Map<string, RestSketch>();

/** The rest sketch of a text, remembered for the last 1024 texts (dedup's window of drafts is 256). */
function sketchOf(text: string): RestSketch {
  let k = sketches.get(text);
  if (!k) {
    k = sketchRest(text, (x) => PREFIX_START.test(x));
    if (sketches.size >= 1024) sketches.delete(sketches.keys().next().value as string);
    sketches.set(text, k);
  }
  return k;
}

/** Members of `own.sure` missing from `other.all`, and how many of them no negating prefix explains. */
function sketchMissing(own: RestSketch, other: RestSketch): [number, number] {
  let [missing, unexplained] = [0, 0];
  for (const x of own.sure)
    if (!other.all.has(x)) {
      missing++;
      if (!prefixExplained(x, other.allPrefixed)) unexplained++;
    }
  return [missing, unexplained];
}

/**
 * True when {@link restsMayMatch} of the two texts' statements is certainly false, known from their rest sketches
 * without reading them: the sure members missing on each side are lower bounds of its counts (and a sure member
 * missing from the other's words makes the word sets differ and both texts non-empty).
 */
export function sketchesApart(a: string, b: string): boolean {
  const [ka, kb] = [sketchOf(a), sketchOf(b)];
  const [onlyA, unexplainedA] = sketchMissing(ka, kb);
  if (onlyA === 0) return false;
  const [onlyB, unexplainedB] = sketchMissing(kb, ka);
  return onlyB > 0 && unexplainedA + unexplainedB > 0 && (onlyA > 1 || onlyB > 1);
}
