/**
 * EmbeddingStore port: the canonical embeddings of atoms, one row per atom and model (read for dedup and
 * verification, written by the backfill of atoms that lack one). Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED), never a driver error.
 */

/** A canonical embedding row (`xid`: the transaction that last wrote it, present in change-feed rows). */
export interface EmbeddingRow {
  atomId: number;
  vector: Float32Array;
  xid?: string;
}

/** An atom that has no embedding of a model yet: what the embedder reads. */
export interface UnembeddedAtom {
  id: number;
  claim: string;
  content: string;
}

/** Reads and writes of canonical embeddings. */
export interface EmbeddingStore {
  /** Stored embeddings of `model` for the given atoms (atoms without one are absent). */
  embeddingsOf(atomIds: number[], model: string): Promise<Map<number, Float32Array>>;
  /** Atoms (any status but retracted) that have no embedding of `model`, in id order after `afterId`. */
  atomsWithoutEmbedding(model: string, limit: number, afterId: number): Promise<UnembeddedAtom[]>;
  /** Stores embeddings of existing atoms (idempotent: an existing row for the atom and model is kept). */
  putEmbeddings(rows: EmbeddingRow[], model: string): Promise<void>;
}
