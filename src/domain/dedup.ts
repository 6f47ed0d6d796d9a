/**
 * What to do with two atoms whose embeddings are close: merge them (the same knowledge), keep both (different
 * knowledge), or keep both and link them `contradicts` (the same claim with a negation, number, unit or date that
 * differs). Cosine at or above the embedder's threshold only makes a candidate; the decision is made on the words
 * (domain/meaning.ts). DESIGN.md failure kind 6: cosine ≥ 0.90 with a negation or another number is no duplicate.
 */
import { meaningDifference } from "./meaning.ts";

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

/** Decides a pair of atom texts (`a` stored, `b` new) at cosine `cosine` under `policy`. Pure; never throws. */
export function decidePair(a: string, b: string, cosine: number, policy: DedupPolicy): PairDecision {
  if (!(cosine >= policy.threshold)) return { outcome: "keep", reason: `cosine ${cosine.toFixed(3)} below ${policy.threshold}` };
  const diff = meaningDifference(a, b);
  if (diff === null) return { outcome: "merge", reason: "same statement" };
  if (diff === "negation differs" || diff === "a number or date differs" || diff === "a date differs") return { outcome: "contradiction", reason: diff };
  return { outcome: "keep", reason: diff };
}
