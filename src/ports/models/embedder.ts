/**
 * Embedder port: text → fixed-dimension float32 vectors. Every returned vector has `dim` finite components and
 * non-zero norm; an adapter that cannot guarantee that throws PegasError LLM_FAILED (never returns a bad vector).
 */
export interface Embedder {
  /** Model name as stored in `pm_atom_embedding.model`; vectors of different models never share an index. */
  readonly model: string;
  /** Vector dimension; for remote models known only after {@link Embedder.ready}. */
  readonly dim: number;
  /** `lexical` for the weightless local embedder, `neural` for a trained model. */
  readonly kind: "lexical" | "neural";
  /** Cosine at or above which two atoms are near-duplicate candidates for this embedder. */
  readonly nearDupThreshold: number;
  /** Resolves once `dim` is known (a remote model is probed once); throws PegasError when unreachable. */
  ready(): Promise<void>;
  /**
   * Health check for readiness polling (/readyz), repeatable and cheap: the service behind the embedder answers and
   * holds the model, checked without embedding (no model load, no GPU memory taken), bounded by `timeoutMs` (ms).
   * Absent on an embedder that cannot fail (the local lexical one), which readiness then reports up and not required.
   * @throws PegasError LLM_FAILED when the service does not answer in time or the model is missing.
   */
  probe?(timeoutMs: number): Promise<void>;
  /** Embeds passages for storage (document prompt), in input order. */
  embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Embeds a search query (query prompt). */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
}

/** Checks a vector: expected dimension, every component finite, norm > 0. Returns a reason or null when fine. */
export function vectorProblem(v: ArrayLike<number>, dim: number): string | null {
  if (v.length !== dim) return `dimension ${v.length}, expected ${dim}`;
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!Number.isFinite(x)) return `component ${i} is ${x}`;
    norm += x * x;
  }
  return norm > 0 ? null : "zero vector";
}

/** Scales a vector to unit L2 norm in place and returns it. */
export function l2normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}
