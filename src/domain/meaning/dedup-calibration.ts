/**
 * Calibration of an embedder's near-duplicate candidate threshold on labelled pairs (tests/dedup/pairs.ts): the
 * cosine must let every pair that should merge or contradict through as a candidate, with a safety margin, and
 * keep unrelated pairs out as far as that allows. The words then decide (domain/meaning/dedup.ts), so a threshold that is
 * too low costs comparisons, while one that is too high silently lets duplicates and contradictions pass unseen.
 * Run by bench/calibrate-dedup.ts; pure.
 */

/** One labelled pair's cosine and role: `required` (expected merge or contradiction), `unrelated`, or `other`. */
export interface CalibrationSample {
  category: string;
  cosine: number;
  role: "required" | "unrelated" | "other";
}

/** Cosine statistics of one category. */
export interface CosineStats {
  n: number;
  min: number;
  mean: number;
  max: number;
}

/** A calibrated threshold and how it was reached. */
export interface Calibration {
  /** The candidate threshold, rounded down to `step`. */
  threshold: number;
  /** Lowest cosine among the required pairs, rounded down to 4 decimals. */
  lowestRequired: number;
  /** Highest cosine among the unrelated pairs, or null when there are none. */
  highestUnrelated: number | null;
  /** Safety margin below `lowestRequired` that was applied. */
  margin: number;
  /** Unrelated pairs at or above the threshold (0 when the labelled data allowed it). */
  unrelatedAbove: number;
  /** One sentence saying how the threshold was obtained. */
  method: string;
  /** Cosine statistics per category, rounded to 4 decimals. */
  byCategory: Record<string, CosineStats>;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
/** Rounds down to 4 decimals, so that a printed lowest cosine minus the margin gives the printed threshold. */
const floor4 = (x: number) => Math.floor(x * 1e4) / 1e4;

/** min/mean/max per category. */
export function cosineStats(samples: readonly CalibrationSample[]): Record<string, CosineStats> {
  const out: Record<string, CosineStats> = {};
  for (const cat of [...new Set(samples.map((s) => s.category))]) {
    const cs = samples.filter((s) => s.category === cat).map((s) => s.cosine);
    const mean = cs.reduce((a, b) => a + b, 0) / cs.length;
    out[cat] = { n: cs.length, min: round4(Math.min(...cs)), mean: round4(mean), max: round4(Math.max(...cs)) };
  }
  return out;
}

/**
 * Calibrates the threshold: `lowest` = the lowest cosine of a required pair; when every unrelated pair lies
 * below it, the threshold is `lowest − min(margin, gap / 2)` (gap = lowest − highest unrelated: the midpoint when
 * the gap is narrower than twice the margin), else `lowest − margin`; then rounded down to `step` and clamped to
 * [0, 1]. `margin` and `step` are cosines (defaults 0.05 and 0.01).
 * @throws RangeError when no sample is required or a cosine is not finite.
 */
export function calibrateThreshold(samples: readonly CalibrationSample[], margin = 0.05, step = 0.01): Calibration {
  if (samples.some((s) => !Number.isFinite(s.cosine)))
    throw new RangeError("a calibration cosine is not a finite number");
  const required = samples.filter((s) => s.role === "required").map((s) => s.cosine);
  if (required.length === 0) throw new RangeError("no pair is required to be a candidate: nothing to calibrate on");
  const unrelated = samples.filter((s) => s.role === "unrelated").map((s) => s.cosine);
  const lowest = Math.min(...required);
  const highest = unrelated.length ? Math.max(...unrelated) : null;
  const applied = highest !== null && highest < lowest ? Math.min(margin, (lowest - highest) / 2) : margin;
  // The epsilon keeps 0.75 from becoming 0.74 through binary rounding (0.8 − 0.05 = 0.75000000000000001…).
  const threshold = Math.min(1, Math.max(0, Math.floor((lowest - applied) / step + 1e-9) * step));
  const rounded = round4(threshold);
  const unrelatedAbove = unrelated.filter((c) => c >= rounded).length;
  const method =
    `lowest cosine of the ${required.length} pairs expected to merge or contradict (${floor4(lowest)}) minus a margin of ` +
    `${round4(applied)}` +
    (highest === null ? "" : ` (highest unrelated pair: ${round4(highest)})`) +
    `, rounded down to ${step}`;
  return {
    threshold: rounded,
    lowestRequired: floor4(lowest),
    highestUnrelated: highest === null ? null : round4(highest),
    margin: round4(applied),
    unrelatedAbove,
    method,
    byCategory: cosineStats(samples),
  };
}
