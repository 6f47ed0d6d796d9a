/**
 * Cosines of the labelled pairs under one embedder, through its public port (embedDocuments, as ingest embeds
 * atoms). Shared by the pair suite and bench/calibrate-dedup.ts.
 */
import type { Embedder } from "../../src/ports/models/embedder.ts";
import type { LabelledPair } from "./pairs.ts";

/** Dot product; the port returns unit vectors, so this is the cosine. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Cosine of each pair (a, b), in pair order; one embedDocuments call for all texts. */
export async function pairCosines(embedder: Embedder, pairs: readonly LabelledPair[]): Promise<number[]> {
  const texts = pairs.flatMap((p) => [p.a, p.b]);
  const vs = await embedder.embedDocuments(texts);
  return pairs.map((_, i) => dot(vs[2 * i], vs[2 * i + 1]));
}
