/**
 * VectorIndex port: a projection of `pm_atom_embedding` for one model, searchable by cosine similarity.
 * Vectors are unit-normalized float32; scores are cosine in [−1, 1]. Adapters: the embedded exact index
 * (src/adapters/embedded/flat-index.ts) and Qdrant (src/adapters/qdrant/). Errors are PegasError INDEX_UNAVAILABLE
 * (unreachable, timed out, refused) or INVALID_INPUT (a vector of the wrong dimension).
 */
import type { AtomFilter, AtomStatus, AtomType } from "../../domain/atom.ts";

/** One hit of a vector search. */
export interface VectorHit {
  atomId: number;
  score: number;
}

/** What a vector index stores beside the vector (Qdrant payload `{atom_id, type, status, doc_id, confidence, lang}`). */
export interface AtomPayload {
  type: AtomType;
  status: AtomStatus;
  docId: number | null;
  confidence: number;
  lang: string;
}

/** One point: an atom's vector of the index's model and its payload (the embedded index keeps its own catalog). */
export interface VectorPoint {
  atomId: number;
  vector: Float32Array;
  payload?: AtomPayload;
}

/** Vector projection of one embedding model. */
export interface VectorIndex {
  /** Adapter name for stats and errors, e.g. `embedded-flat`, `qdrant`. */
  readonly name: string;
  /** The embedding model this index holds; vectors of another model are refused. */
  readonly model: string;
  /** Dimension of every vector held. */
  readonly dim: number;
  /** Number of vectors held. */
  count(): Promise<number>;
  /** Inserts or replaces vectors (idempotent; dimension must match). */
  upsert(points: VectorPoint[]): Promise<void>;
  /** Removes the atoms' vectors (idempotent: absent atoms are ignored). */
  delete(atomIds: number[]): Promise<void>;
  /** The k nearest atoms by cosine that pass `filter` (retracted atoms never pass), best first. */
  search(query: Float32Array, k: number, filter?: AtomFilter): Promise<VectorHit[]>;
  /**
   * Optional: the same search, saying when a fallback answered instead of the primary engine (`degraded` is the
   * reason, e.g. "qdrant unreachable: …; answered by embedded-flat"), null otherwise.
   */
  searchReporting?(
    query: Float32Array,
    k: number,
    filter?: AtomFilter,
  ): Promise<{ hits: VectorHit[]; degraded: string | null }>;
}
