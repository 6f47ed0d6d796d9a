/**
 * A frozen split of a query set into a tune half and a check half by a hash of each query's id (fixed before any
 * tuning, so tuning never sees the check half), and a bootstrap 95 % interval of a mean over queries.
 */
import { createHash } from "node:crypto";

/** Which half a query id belongs to: "tune" when the first byte of SHA-256("pegas-split-v1:" + id) is even. */
export function half(id: string): "tune" | "check" {
  const byte = createHash("sha256").update(`pegas-split-v1:${id}`).digest()[0];
  return byte % 2 === 0 ? "tune" : "check";
}

/** The mean and a percentile bootstrap 95 % interval over `xs` (`rounds` resamples, seeded: reproducible). */
export function bootstrapMean(
  xs: number[],
  rounds = 2000,
  seed = 20261202,
): { mean: number; low: number; high: number } {
  let s = seed >>> 0;
  const rand = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const means: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += xs[Math.floor(rand() * n)];
    means.push(sum / Math.max(1, n));
  }
  means.sort((a, b) => a - b);
  return { mean, low: means[Math.floor(0.025 * rounds)], high: means[Math.ceil(0.975 * rounds) - 1] };
}
