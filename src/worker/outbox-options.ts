/** The options, defaults and results of the outbox worker (outbox.ts). */
import type { OutboxStore, RetryPolicy } from "../ports/projections/outbox.ts";
import type { ProjectionSink } from "../ports/projections/projection-sink.ts";

/** Options of the OutboxWorker; times in ms. */
export interface OutboxWorkerOptions {
  outbox: OutboxStore;
  sinks: ProjectionSink[];
  /** Embedding model whose vectors the vector sinks hold. */
  model: string;
  /** Rows per claim (default 200). */
  batchSize?: number;
  /** Lease of a claim; a worker that crashed loses its rows to others after it (default 60 000). */
  leaseMs?: number;
  /** Backoff of failed rows and of the worker itself (default 10 attempts, 1 s base, 5 min cap). */
  policy?: RetryPolicy;
  /** Polling interval when no notification comes (default 2000). */
  idleMs?: number;
  /** Lease token (default `<host>:<pid>:<random>`, unique per worker). */
  token?: string;
  /**
   * Retention of processed rows: the worker deletes rows processed longer ago than this, at most once per
   * {@link PRUNE_EVERY_MS} while it follows the outbox (default 7 days; 0 keeps them forever).
   */
  retentionMs?: number;
}

/** Default retention of processed outbox rows (ms): 7 days. */
export const DEFAULT_RETENTION_MS = 7 * 86_400_000;
/** Least time between two retention passes of one worker (ms). */
export const PRUNE_EVERY_MS = 600_000;

/** What one OutboxWorker.runOnce did: rows acked, rows failed (retried later), rows dead-lettered, batches. */
export interface RunOnceResult {
  applied: number;
  failed: number;
  dead: number;
  batches: number;
}

/** Running totals of a worker for metrics; `lastBatchAt` is ms since epoch, `lastBatchMs` the batch's duration. */
export interface OutboxWorkerStats extends RunOnceResult {
  lastBatchAt: number | null;
  lastBatchMs: number | null;
  /** The last batch failure ("<sink>: <message>"), null after a batch that succeeded. */
  lastError: string | null;
}

/** Default retry policy: 10 attempts, base 1 s, cap 5 min. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 10, baseMs: 1000, maxMs: 300_000 };
