/**
 * Precision and recall per label of a pair classifier on the labelled pair set (tests/dedup/pair-set.ts), per half.
 * Shared by the dedup_pairs benchmark and the rules test. Precision = correct predictions of a label / predictions
 * of it (null when it was never predicted); recall = correct / pairs labelled with it (null when none is).
 */
import type { PairLabel, SetPair } from "../../tests/dedup/pair-set.ts";
import { PAIR_LABELS } from "../../tests/dedup/pair-set.ts";

/** Scores of one label on one half. */
export interface LabelScore {
  label: PairLabel;
  /** Pairs labelled with it. */
  support: number;
  /** Pairs predicted as it. */
  predicted: number;
  correct: number;
  precision: number | null;
  recall: number | null;
}

/** Scores of one half: per label, accuracy, and the pairs predicted wrongly (label → prediction, texts shortened). */
export interface HalfScores {
  pairs: number;
  accuracy: number;
  labels: LabelScore[];
  confusion: Record<PairLabel, Record<PairLabel, number>>;
  wrong: string[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Scores `predict` on `pairs` (one half). `predict` gets the pair's index in `pairs`. */
export function scoreHalf(pairs: readonly SetPair[], predict: (p: SetPair, i: number) => PairLabel): HalfScores {
  const confusion = Object.fromEntries(
    PAIR_LABELS.map((l) => [l, Object.fromEntries(PAIR_LABELS.map((m) => [m, 0]))]),
  ) as Record<PairLabel, Record<PairLabel, number>>;
  const wrong: string[] = [];
  pairs.forEach((p, i) => {
    const got = predict(p, i);
    confusion[p.label][got]++;
    if (got !== p.label)
      wrong.push(`${p.label} → ${got} [${p.lang} ${p.origin}] ${p.a.slice(0, 70)} ‖ ${p.b.slice(0, 70)}`);
  });
  const labels = PAIR_LABELS.map((label) => {
    const support = PAIR_LABELS.reduce((s, m) => s + confusion[label][m], 0);
    const predicted = PAIR_LABELS.reduce((s, m) => s + confusion[m][label], 0);
    const correct = confusion[label][label];
    return {
      label,
      support,
      predicted,
      correct,
      precision: predicted ? r3(correct / predicted) : null,
      recall: support ? r3(correct / support) : null,
    };
  });
  const correct = labels.reduce((s, l) => s + l.correct, 0);
  return { pairs: pairs.length, accuracy: pairs.length ? r3(correct / pairs.length) : 0, labels, confusion, wrong };
}
