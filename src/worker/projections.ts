/**
 * The outbox worker of a process, configured from its services: every external projection, the active embedding
 * model, the batch size, the polling interval and the retry policy (exponential backoff with jitter, base 1 s,
 * cap 5 min, dead-lettered after `outbox_max_attempts`), and the retention of processed rows
 * (`outbox_retention_hours`). `serve` runs one in the background, `sync` in the foreground, `rebuild` once to drain
 * what was queued.
 */
import { log } from "../log.ts";
import {
  type RebuildOptions,
  type RebuildProgress,
  type RebuildResult,
  type RebuildTarget,
  refillProjections,
} from "../core/projections/rebuild.ts";
import type { Services } from "../core/services.ts";
import { OutboxWorker } from "./outbox.ts";

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

/** Applies every due outbox row to the external projections (acking them when there are none); returns rows done. */
export async function drainOutbox(services: Services, signal?: AbortSignal): Promise<number> {
  const r = await outboxWorkerOf(services).runOnce(signal);
  return r.applied;
}

/**
 * `rebuild`: refills the target projections (src/core/projections/rebuild.ts), then drains the outbox so that nothing
 * queued before is left behind.
 * @throws PegasError INDEX_UNAVAILABLE (an external projection unreachable), INVALID_INPUT (a projection of another
 * shape, without `recreate`), STORE_UNAVAILABLE, LLM_FAILED, CANCELLED.
 */
export async function rebuildProjections(
  services: Services,
  target: RebuildTarget,
  onProgress: (p: RebuildProgress) => void = () => {},
  opts: RebuildOptions = {},
): Promise<RebuildResult> {
  const { notes, ...refilled } = await refillProjections(services, target, onProgress, opts);
  const drained = await drainOutbox(services, opts.signal);
  return { ...refilled, outbox_drained: drained, notes };
}
