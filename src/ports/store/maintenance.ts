/**
 * StoreMaintenance port: the schema (migrations applied under an advisory lock, and their status) and the
 * counters of memory_stats. Errors are PegasError (STORE_UNAVAILABLE, MIGRATION_REQUIRED), never a driver error.
 */

/** Counters of memory_stats. */
export interface StoreStats {
  atoms: { total: number; by_type: Record<string, number>; by_status: Record<string, number> };
  documents: { total: number; by_kind: Record<string, number> };
  chunks: number;
  citations: number;
  links: number;
  symbols: number;
  dependencies: number;
  open_gaps: number;
  traces: number;
  /** Near-duplicate merges in force (not undone). */
  merges: number;
  /** Chunks whose distillation failed and awaits `pegas-memory distill --retry`. */
  quarantined_chunks: number;
  embeddings: Record<string, number>;
  outbox: { pending: number; dead: number; oldest_pending_age_s: number | null };
  schema_version: number;
}

/** Applied and pending schema migrations. */
export interface MigrationStatus {
  applied: number[];
  pending: number[];
}

/** Schema migrations and store counters. */
export interface StoreMaintenance {
  /** Applies pending migrations under an advisory lock; returns the versions applied now. */
  migrate(): Promise<number[]>;
  /** Applied and pending migrations. */
  migrationStatus(): Promise<MigrationStatus>;
  /** Counters for memory_stats. */
  stats(): Promise<StoreStats>;
}
