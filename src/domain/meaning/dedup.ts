/**
 * What to do with two atoms whose embeddings are close: merge them (the same knowledge), keep both (different
 * knowledge), or keep both and link them `contradicts` (the same claim with a negation, number, unit, comparison,
 * date, direction, antonym, quantifier or swapped roles that differs). Cosine at or above the embedder's threshold only makes a
 * candidate; the decision is made on the words (domain/meaning/meaning.ts). DESIGN.md failure kind 6: cosine ≥ 0.90 with a
 * negation or another number is no duplicate. Labelled pairs: tests/dedup/; per-embedder thresholds:
 * bench/calibrate-dedup.ts.
 */
import { statementOf } from "./meaning.ts";
import { classifyStatements, mayRelate, type PairClass, surelyApart } from "./pair-class.ts";
import { cachedQuantities } from "../quantity/atom-quantities.ts";
import { quantityRelation } from "./quantity-pair.ts";

/** Outcome for a pair: `merge` (same knowledge), `keep` (different knowledge), `contradiction` (keep + link). */
export type PairOutcome = "merge" | "keep" | "contradiction";

/**
 * A decision with the reason, in English, for logs, links and status history. `kind` is the finer relation
 * (domain/meaning/pair-class.ts): a `keep` is `corroborate` (the same fact in other words), `supersede` (a newer
 * value) or `separate`.
 */
export interface PairDecision {
  outcome: PairOutcome;
  kind: PairClass;
  reason: string;
}

/**
 * How an embedder's cosines are read: `threshold` is the calibrated candidate cosine; `paraphrase` is true for a
 * semantic (neural) embedder, whose high cosine across different wording means the same statement, and false for
 * the lexical embedder, where only the same words in the same order may merge.
 */
export interface DedupPolicy {
  threshold: number;
  paraphrase: boolean;
}

/** The part of an Embedder (src/ports/models/embedder.ts) a policy depends on. */
export interface PolicySource {
  kind: "lexical" | "neural";
  nearDupThreshold: number;
}

/**
 * The dedup policy of an embedder: its calibrated `nearDupThreshold` (or `thresholdOverride`, the configured
 * `near_dup_threshold`, when given), and paraphrase merging for a neural embedder only.
 * @throws RangeError when the threshold is not a number in [0, 1] (config validation should have caught it).
 */
export function dedupPolicy(embedder: PolicySource, thresholdOverride?: number): DedupPolicy {
  const threshold = thresholdOverride ?? embedder.nearDupThreshold;
  if (!(threshold >= 0 && threshold <= 1))
    throw new RangeError(`near-duplicate threshold ${threshold} is not in [0, 1]`);
  return { threshold, paraphrase: embedder.kind === "neural" };
}

/**
 * Decides a pair of atom texts (`a` stored, `b` new) at cosine `cosine` under `policy`. Pure; never throws.
 * - cosine below the threshold (or NaN) → keep (`separate`);
 * - otherwise the relation of domain/meaning/pair-class.ts decides: `merge` → merge (the same statement: case,
 *   punctuation, filler words or a heading line aside; any paraphrase under a neural embedder's policy);
 *   `contradict` → contradiction (a negation, number, unit, comparison, date, direction, antonym, quantifier or
 *   swapped roles in the same statement about the same subject); `corroborate`, `supersede`, `separate` → keep.
 *   A number that names which thing ("Widget 5" vs "Widget 6") and a hedge ("may", «может») keep two statements
 *   apart without contradiction.
 * - at any cosine, measurements of the same subject and conditions that the words alone leave `separate` or
 *   `contradict` decide (domain/meaning/quantity-pair.ts): equal within the stated precision → `corroborate`,
 *   else `contradiction`.
 */
export function decidePair(a: string, b: string, cosine: number, policy: DedupPolicy): PairDecision {
  if (!(cosine >= policy.threshold) && !sameWordsReordered(a, b, cosine, policy))
    return (
      measured(a, b, true) ?? {
        outcome: "keep",
        kind: "separate",
        reason: `cosine ${cosine.toFixed(3)} below ${policy.threshold}`,
      }
    );
  const c = classifyStatements(a, b, policy.paraphrase);
  // Measurements decide what the words cannot: "1.2 s" = "1200 ms", "1.2 s" ≠ "2 s" of the same subject.
  if (c.kind === "separate" || c.kind === "contradict") {
    const m = measured(a, b);
    if (m) return m;
  }
  const outcome: PairOutcome = c.kind === "merge" ? "merge" : c.kind === "contradict" ? "contradiction" : "keep";
  return { outcome, kind: c.kind, reason: c.reason };
}

/**
 * True when {@link decidePair}(a, b, cosine, policy) is certainly `keep` of kind `separate`, found without the full
 * decision: below the threshold as decidePair reads it, or (lexical policy) words and rests too far apart for any
 * rule but `separate` (pair-class.ts `mayRelate`). Its reason is not given: a caller that needs it decides the pair.
 */
export function surelySeparate(a: string, b: string, cosine: number, policy: DedupPolicy): boolean {
  const apart =
    (!(cosine >= policy.threshold) && !sameWordsReordered(a, b, cosine, policy)) ||
    (!policy.paraphrase && (surelyApart(a, b) || !mayRelate(a, b)));
  return apart && measured(a, b, !(cosine >= policy.threshold)) === null;
}

/**
 * Whether the pair states a measurement of one dimension in two units ("1.2 s" / "1200 ms"): only then can the
 * measurements decide what the word rules cannot. Values in the same unit ("30 ms" / "45 ms") are numbers the word
 * rules already compare; reading statements for them on every candidate pair made a 2 MB log 4× slower to ingest.
 */
function unitsWrittenApart(a: string, b: string): boolean {
  const qa = cachedQuantities(a);
  if (!qa.length) return false;
  const qb = cachedQuantities(b);
  return qa.some((x) => qb.some((y) => x.canonicalUnit === y.canonicalUnit && x.unit !== y.unit));
}

/**
 * The decision the measurements of the pair make (domain/meaning/quantity-pair.ts), or null when they make none.
 * `belowThreshold`: only measurements written differently explain a low cosine ("1.2 s" / "1200 ms").
 */
function measured(a: string, b: string, belowThreshold = false): PairDecision | null {
  if (!unitsWrittenApart(a, b)) return null;
  const q = quantityRelation(a, b);
  if (!q || (belowThreshold && !q.rewritten)) return null;
  return { outcome: q.kind === "contradict" ? "contradiction" : "keep", kind: q.kind, reason: q.reason };
}

/** Longest pair (characters of both texts) {@link sameWordsReordered} reads: short statements, where endings weigh most. */
const REORDER_MAX_CHARS = 400;

/**
 * Below the threshold, a short pair still goes to the classifier when both statements hold the same content stems
 * in another order: a role swap whose words also change their endings («Алиса наняла Боба» / «Боб нанял Алису»)
 * shares too few hashed n-grams for the lexical embedder's cosine, yet it is the same statement with the roles
 * swapped. Only under half the threshold or past {@link REORDER_MAX_CHARS} is the statement not read at all.
 */
function sameWordsReordered(a: string, b: string, cosine: number, policy: DedupPolicy): boolean {
  if (!(cosine >= policy.threshold / 2) || a.length + b.length > REORDER_MAX_CHARS) return false;
  const [ra, rb] = [statementOf(a).rest, statementOf(b).rest];
  if (ra.length < 2 || ra.length !== rb.length || ra.join(" ") === rb.join(" ")) return false;
  return [...ra].sort().join(" ") === [...rb].sort().join(" ");
}
