/**
 * VectorIndex port: a projection of `pm_atom_embedding` for one model, searchable by cosine similarity.
 * Vectors are unit-normalized float32; scores are cosine in [−1, 1]. Errors are PegasError INDEX_UNAVAILABLE.
 */
import type { AtomFilter } from "../domain/atom.ts";

/** One hit of a vector search. */
export interface VectorHit {
  atomId: number;
  score: number;
}

/** Vector projection of one embedding model. */
export interface VectorIndex {
  /** Adapter name for stats and errors, e.g. `embedded-flat`. */
  readonly name: string;
  /** The embedding model this index holds; vectors of another model are refused. */
  readonly model: string;
  /** Number of vectors held. */
  count(): Promise<number>;
  /** Inserts or replaces vectors (dimension must match). */
  upsert(points: Array<{ atomId: number; vector: Float32Array }>): Promise<void>;
  /** The k nearest atoms by cosine that pass `filter` (retracted atoms never pass), best first. */
  search(query: Float32Array, k: number, filter?: AtomFilter): Promise<VectorHit[]>;
}
