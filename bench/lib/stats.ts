/** Descriptive statistics for benchmark samples (milliseconds, bytes, …); nearest-rank percentiles. */

/** The p-th percentile (0..100) of `xs` by the nearest-rank method; NaN for an empty sample. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/** Median (the mean of the two middle values for an even count); NaN for an empty sample. */
export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Arithmetic mean; NaN for an empty sample. */
export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

/** Rounds to `digits` decimals (for JSON output). */
export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Summary of a latency sample in ms: count, median, p95, min, max, each rounded to 0.1 ms. */
export function summarize(xs: number[]): { n: number; median: number; p95: number; min: number; max: number } {
  return {
    n: xs.length,
    median: round(median(xs)),
    p95: round(percentile(xs, 95)),
    min: round(Math.min(...xs)),
    max: round(Math.max(...xs)),
  };
}

/** Elapsed ms since a `performance.now()` reading. */
export function since(t0: number): number {
  return performance.now() - t0;
}
