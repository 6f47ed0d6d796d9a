/**
 * mulberry32 (Tommy Ettinger's public-domain 32-bit generator): a seed → a function returning numbers in [0, 1),
 * the same sequence for the same seed on every run, so that synthetic data and failures replay. For tests and
 * benchmarks only; never for anything that must be unpredictable.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
