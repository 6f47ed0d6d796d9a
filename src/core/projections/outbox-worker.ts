/**
 * The outbox worker of a process, configured from its services: every external projection, the active embedding
 * model, the batch size, the polling interval and the retry policy (exponential backoff with jitter, base 1 s,
 * cap 5 min, dead-lettered after `outbox_max_attempts`), and the retention of processed rows (`outbox_retention_hours`). `serve` runs one in the background, `sync` in the
 * foreground, `rebuild` once to drain what was queued.
 */
import { log } from "../../log.ts";
import { OutboxWorker } from "../../worker/outbox.ts";
import type { Services } from "../services.ts";

/** Retry policy delays (ms). */
const BACKOFF = { baseMs: 1000, maxMs: 300_000 };

/** A worker over the services' outbox and sinks. */
export function outboxWorkerOf(s: Services): OutboxWorker {
  return new OutboxWorker({
    outbox: s.outbox,
    sinks: [...s.sinks],
    model: s.embedder.model,
    batchSize: s.config.outbox_batch_size,
    idleMs: s.config.outbox_poll_ms,
    policy: { maxAttempts: s.config.outbox_max_attempts, ...BACKOFF },
    retentionMs: s.config.outbox_retention_hours * 3_600_000,
  });
}

/**
 * Follows the outbox in the background until `signal` aborts (the worker ends its current batch first). Errors are
 * logged, never thrown: writes to PostgreSQL never wait for a projection.
 */
export function startOutboxWorker(s: Services, signal: AbortSignal): Promise<void> {
  return outboxWorkerOf(s)
    .run(signal)
    .catch((err) => log.warn("outbox worker stopped", { err }));
}
