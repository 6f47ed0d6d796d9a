/**
 * What to do with two atoms whose embeddings are close: merge them (the same knowledge), keep both (different
 * knowledge), or keep both and link them `contradicts` (the same claim with a negation, number, unit, comparison,
 * date, direction, antonym or quantifier that differs). Cosine at or above the embedder's threshold only makes a
 * candidate; the decision is made on the words (domain/meaning/meaning.ts). DESIGN.md failure kind 6: cosine ≥ 0.90 with a
 * negation or another number is no duplicate. Labelled pairs: tests/dedup/; per-embedder thresholds:
 * bench/calibrate-dedup.ts.
 */
import { compareStatements, type GuardedFeature } from "./meaning.ts";
import { foldForHash } from "../text.ts";

/** Outcome for a pair: `merge` (same knowledge), `keep` (different knowledge), `contradiction` (keep + link). */
export type PairOutcome = "merge" | "keep" | "contradiction";

/** A decision with the reason, in English, for logs, links and status history. */
export interface PairDecision {
  outcome: PairOutcome;
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
]);

function listed(features: GuardedFeature[]): string {
  if (features.length > 1) return `${features.slice(0, -1).join(", ")} and ${features.at(-1)} differ`;
  return features[0] === "roles" ? "the roles of the names differ" : `${features[0]} differs`;
}

/**
 * Decides a pair of atom texts (`a` stored, `b` new) at cosine `cosine` under `policy`. Pure; never throws.
 * - cosine below the threshold (or NaN) → keep; texts without a word merge only when equal (case and spaces aside);
 * - no guarded feature differs (domain/meaning/meaning.ts: negation, prefix negation, negated word, number, unit or rate,
 *   comparison, date, named entity, code, direction, antonym, quantifier, roles of the names) → merge when the policy
 *   allows paraphrase (neural embedder) or the content words are the same in the same order; else keep;
 * - only contradicting features differ (all but entity, code and roles), and the rest of the statement is the same
 *   (domain/meaning/meaning.ts `sameRest`) → contradiction: "p < 0.05" vs "p > 0.05", "alive" vs "dead", "в понедельник" vs
 *   "во вторник", "можно" vs "нельзя", "always" vs "never";
 * - anything else (another named entity, swapped roles, another statement around the number) → keep.
 */
export function decidePair(a: string, b: string, cosine: number, policy: DedupPolicy): PairDecision {
  if (!(cosine >= policy.threshold))
    return { outcome: "keep", reason: `cosine ${cosine.toFixed(3)} below ${policy.threshold}` };
  const c = compareStatements(a, b);
  if (!c.comparable) {
    const same = foldForHash(a) === foldForHash(b);
    return same ? { outcome: "merge", reason: "same text" } : { outcome: "keep", reason: "no words to compare" };
  }
  if (c.differs.length === 0) {
    if (c.sameWords) return { outcome: "merge", reason: "same statement" };
    if (policy.paraphrase)
      return {
        outcome: "merge",
        reason: "same statement in other words (no negation, number, unit, date or name differs)",
      };
    return {
      outcome: "keep",
      reason: c.sameWordSet
        ? "the word order differs"
        : "the words differ (the lexical embedder does not merge paraphrases)",
    };
  }
  if (c.differs.every((f) => CONTRADICTING.has(f))) {
    if (c.sameRest) return { outcome: "contradiction", reason: `${listed(c.differs)} in the same statement` };
    return { outcome: "keep", reason: `${listed(c.differs)}, and so does the rest of the statement: another fact` };
  }
  return { outcome: "keep", reason: listed(c.differs) };
}
