/**
 * Calibration metrics of a confidence (issue 24 item 3), for the `calibration` benchmark and the fit:
 * - expected calibration error (ECE; Naeini, Cooper & Hauskrecht, "Obtaining well calibrated probabilities using
 *   Bayesian binning", AAAI 2015; Guo et al., ICML 2017): the items split into `bins` equal-width bins of predicted
 *   confidence [0, 0.1), [0.1, 0.2), …, [0.9, 1]; ECE = Σ_b (n_b / n) · |accuracy_b − mean confidence_b|;
 * - AUROC: the probability that a true item scores above a false one, ties counting one half (the Mann–Whitney U
 *   statistic divided by n_true · n_false), so that a constant confidence scores exactly 0.5;
 * - the reliability table behind the ECE, one row per non-empty bin;
 * - log loss, the mean of −ln p of the right label (p clipped to [1e-6, 1 − 1e-6]).
 * Pure. @throws Error on an empty input or a confidence outside [0, 1].
 */

/** One scored item: its confidence in [0, 1] and whether it is true. */
export interface Scored {
  p: number;
  label: boolean;
}

/** One bin of the reliability table. */
export interface ReliabilityBin {
  /** Bin bounds [lo, hi). */
  lo: number;
  hi: number;
  n: number;
  /** Mean confidence of its items. */
  confidence: number;
  /** Share of its items that are true. */
  accuracy: number;
}

function check(items: readonly Scored[]): void {
  if (!items.length) throw new Error("calibration metrics need at least one item");
  for (const it of items) if (!(it.p >= 0 && it.p <= 1)) throw new Error(`confidence ${it.p} is outside [0, 1]`);
}

/** The reliability table: `bins` equal-width bins, empty ones left out. */
export function reliabilityTable(items: readonly Scored[], bins = 10): ReliabilityBin[] {
  check(items);
  const acc = Array.from({ length: bins }, () => ({ n: 0, p: 0, t: 0 }));
  for (const it of items) {
    const b = acc[Math.min(bins - 1, Math.floor(it.p * bins))];
    b.n++;
    b.p += it.p;
    if (it.label) b.t++;
  }
  return acc.flatMap((b, i) =>
    b.n ? [{ lo: i / bins, hi: (i + 1) / bins, n: b.n, confidence: b.p / b.n, accuracy: b.t / b.n }] : [],
  );
}

/** Expected calibration error over `bins` equal-width bins (module doc). */
export function expectedCalibrationError(items: readonly Scored[], bins = 10): number {
  const n = items.length;
  return reliabilityTable(items, bins).reduce((e, b) => e + (b.n / n) * Math.abs(b.accuracy - b.confidence), 0);
}

/** Area under the ROC curve (module doc); 0.5 when either class is empty. */
export function auroc(items: readonly Scored[]): number {
  check(items);
  const sorted = [...items].sort((a, b) => a.p - b.p);
  let rankSum = 0;
  let nTrue = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j].p === sorted[i].p) j++;
    const midRank = (i + 1 + j) / 2; // 1-based ranks i+1..j share their mean
    for (let k = i; k < j; k++)
      if (sorted[k].label) {
        rankSum += midRank;
        nTrue++;
      }
    i = j;
  }
  const nFalse = sorted.length - nTrue;
  if (!nTrue || !nFalse) return 0.5;
  return (rankSum - (nTrue * (nTrue + 1)) / 2) / (nTrue * nFalse);
}

/** Mean log loss (module doc). */
export function logLoss(items: readonly Scored[]): number {
  check(items);
  const clip = (p: number) => Math.min(1 - 1e-6, Math.max(1e-6, p));
  return items.reduce((s, it) => s - Math.log(it.label ? clip(it.p) : 1 - clip(it.p)), 0) / items.length;
}
