/**
 * The outbox worker: claim → resolve → apply to every external projection → ack, with backoff (DESIGN.md, "the one
 * rule": projections follow PostgreSQL, never the other way round). Several workers, in one process or many, share
 * one outbox safely: claims are leased and fenced by the worker's token, and a sink receives the CURRENT state of
 * each changed entity, so a re-applied batch (a crash between apply and ack, a replay) changes nothing.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { PegasError } from "../errors.ts";
import { log } from "../log.ts";
import type { OutboxRow, OutboxStore, RetryPolicy } from "../ports/projections/outbox.ts";
import type { ProjectionChange, ProjectionSink } from "../ports/projections/projection-sink.ts";
import { backoffDelay, orderChanges, sinkError } from "./outbox-batch.ts";
import {
  DEFAULT_RETENTION_MS,
  DEFAULT_RETRY_POLICY,
  type OutboxWorkerOptions,
  type OutboxWorkerStats,
  PRUNE_EVERY_MS,
  type RunOnceResult,
} from "./outbox-options.ts";

export {
  DEFAULT_RETENTION_MS,
  DEFAULT_RETRY_POLICY,
  type OutboxWorkerOptions,
  type OutboxWorkerStats,
  PRUNE_EVERY_MS,
  type RunOnceResult,
};

/** Rows deleted per statement of a retention pass (short transactions beside the writers). */
const PRUNE_BATCH = 10_000;

function checkInt(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max)
    throw new PegasError("INVALID_INPUT", `outbox worker ${name} ${v} is outside ${min}..${max}`);
  return v;
}

/** Attempts allowed while a sink or the store is unreachable (the store's upper bound: in effect, never dead). */
const OUTAGE_MAX_ATTEMPTS = 1_000_000;

/** Error codes that mean "the engine is not there", not "this row is bad". */
const OUTAGE_CODES = new Set(["INDEX_UNAVAILABLE", "STORE_UNAVAILABLE"]);

/** Failures of sinks during one batch; the message is already "<sink>: <message>[; …]"; `outage` as above. */
class SinkFailure extends PegasError {
  constructor(
    code: PegasError["code"],
    message: string,
    opts: { cause?: unknown },
    readonly outage: boolean,
  ) {
    super(code, message, opts);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Feeds the external projections from the outbox. @throws PegasError INVALID_INPUT for out-of-range options. */
export class OutboxWorker {
  /** This worker's lease token. */
  readonly token: string;
  private readonly outbox: OutboxStore;
  private readonly sinks: ProjectionSink[];
  private readonly model: string;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly policy: RetryPolicy;
  private readonly idleMs: number;
  private readonly retentionMs: number;
  /** When the last retention pass ran (performance.now() ms), null before the first. */
  private prunedAt: number | null = null;
  private readonly prepared = new Set<ProjectionSink>();
  private readonly totals: OutboxWorkerStats = {
    applied: 0,
    failed: 0,
    dead: 0,
    batches: 0,
    lastBatchAt: null,
    lastBatchMs: null,
    lastError: null,
  };
  /** Failed batches in a row (reset by a batch that succeeds) and failed outbox calls in a row (reset by a claim). */
  private readonly failures = { batch: 0, store: 0 };

  constructor(opts: OutboxWorkerOptions) {
    this.outbox = opts.outbox;
    this.sinks = [...opts.sinks];
    this.model = opts.model;
    this.batchSize = checkInt("batchSize", opts.batchSize ?? 200, 1, 10_000);
    this.leaseMs = checkInt("leaseMs", opts.leaseMs ?? 60_000, 1, 86_400_000);
    this.idleMs = checkInt("idleMs", opts.idleMs ?? 2000, 1, 3_600_000);
    this.retentionMs = checkInt("retentionMs", opts.retentionMs ?? DEFAULT_RETENTION_MS, 0, 10 * 365 * 86_400_000);
    this.policy = opts.policy ?? DEFAULT_RETRY_POLICY;
    checkInt("policy.maxAttempts", this.policy.maxAttempts, 1, 1_000_000);
    if (!(this.policy.baseMs >= 0 && this.policy.maxMs >= this.policy.baseMs)) {
      throw new PegasError(
        "INVALID_INPUT",
        `outbox retry policy base ${this.policy.baseMs} ms / cap ${this.policy.maxMs} ms is not 0 ≤ base ≤ cap`,
      );
    }
    this.token = opts.token ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Totals since this worker was made (a copy). */
  get stats(): OutboxWorkerStats {
    return { ...this.totals };
  }

  /**
   * Drains every due row, batch after batch, until a claim comes back empty, `signal` aborts (the current batch
   * ends first) or a batch fails: then the sinks are likely down, and the rows not yet claimed keep their attempts.
   * A worker without sinks claims nothing: the rows there are read by another process's projection.
   * @throws PegasError STORE_UNAVAILABLE (or another store error) when the outbox itself cannot be read or written.
   */
  async runOnce(signal?: AbortSignal): Promise<RunOnceResult> {
    const result: RunOnceResult = { applied: 0, failed: 0, dead: 0, batches: 0 };
    while (!signal?.aborted && this.sinks.length) {
      const rows = await this.outbox.claim(this.batchSize, this.leaseMs, this.token);
      this.failures.store = 0;
      if (!rows.length) break;
      const r = await this.batch(rows);
      result.batches++;
      result.applied += r.applied;
      result.failed += r.failed;
      result.dead += r.dead;
      if (this.failures.batch > 0) break;
    }
    return result;
  }

  /**
   * Follows the outbox until `signal` aborts: drains, then waits for a notification or `idleMs`. After a failed
   * batch or an unreachable store it pauses with the policy's backoff (by consecutive failures) instead, so that an
   * outage does not burn the attempts of the whole backlog. Never throws; ends after the current batch on abort.
   */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.runOnce(signal);
        if (this.failures.batch === 0) await this.pruneIfDue(signal);
      } catch (err) {
        this.failures.store++;
        this.totals.lastError = err instanceof Error ? err.message : String(err);
        log.warn("outbox worker cannot use the outbox; retrying", {
          token: this.token,
          failures: this.failures.store,
          err,
        });
      }
      if (signal.aborted) break;
      const failures = Math.max(this.failures.batch, this.failures.store);
      if (failures > 0) await sleep(backoffDelay(this.policy, failures), signal);
      else await this.outbox.waitForWork(this.idleMs, signal);
    }
  }

  /**
   * Drops readers unseen for the retention, then deletes rows no reader reads and processed rows older than the
   * retention, in batches of {@link PRUNE_BATCH}, when the last pass is at least
   * {@link PRUNE_EVERY_MS} ago (the first pass runs at once); returns how many rows went.
   * @throws PegasError STORE_UNAVAILABLE when the outbox cannot be written.
   */
  async pruneIfDue(signal?: AbortSignal): Promise<number> {
    if (this.retentionMs === 0) return 0;
    const now = performance.now();
    if (this.prunedAt !== null && now - this.prunedAt < PRUNE_EVERY_MS) return 0;
    this.prunedAt = now;
    const gone = await this.outbox.expireReaders(this.retentionMs / 1000); // their rows go with the unread ones below
    if (gone.length) log.warn("outbox: readers unseen for the retention period dropped", { readers: gone });
    let total = 0;
    while (!signal?.aborted) {
      const n = await this.outbox.prune(this.retentionMs / 1000, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) break;
    }
    if (total > 0)
      log.info("outbox: rows no reader reads and processed rows past retention deleted", {
        rows: total,
        retentionH: this.retentionMs / 3_600_000,
      });
    return total;
  }

  /** Resolves, applies and acks one claimed batch (see {@link OutboxWorker.applyRows}). */
  private async batch(rows: OutboxRow[]): Promise<RunOnceResult> {
    const started = performance.now();
    const r = await this.applyRows(rows);
    if (r.failed + r.dead > 0) this.failures.batch++;
    else {
      this.failures.batch = 0;
      this.totals.lastError = null;
    }
    return this.record({ applied: r.applied, failed: r.failed, dead: r.dead, batches: 1 }, started);
  }

  /**
   * Resolves, applies and acks rows. An outage (a sink or the store unreachable, a sink that cannot be prepared)
   * fails them all with a capped backoff that never dead-letters. Any other failure is taken as a row's own: the rows
   * are split in halves and each half tried again (bisection), so that only the rows that fail by themselves back
   * off toward the dead letter and the rest are applied and acked.
   */
  private async applyRows(rows: OutboxRow[]): Promise<{ applied: number; failed: number; dead: number }> {
    const ids = rows.map((r) => r.id);
    try {
      await this.applyAll(orderChanges(await this.outbox.resolve(rows, this.model)));
    } catch (err) {
      const outage =
        err instanceof SinkFailure ? err.outage : err instanceof PegasError && err.code === "STORE_UNAVAILABLE";
      if (!outage && rows.length > 1) {
        const mid = Math.ceil(rows.length / 2);
        const [a, b] = [await this.applyRows(rows.slice(0, mid)), await this.applyRows(rows.slice(mid))];
        return { applied: a.applied + b.applied, failed: a.failed + b.failed, dead: a.dead + b.dead };
      }
      const message = err instanceof SinkFailure ? err.message : sinkError("canonical store", err);
      const policy = outage ? { ...this.policy, maxAttempts: OUTAGE_MAX_ATTEMPTS } : this.policy;
      const { retried, dead } = await this.outbox.fail(ids, this.token, message, policy);
      this.totals.lastError = message;
      log.warn("outbox rows failed; they retry with backoff", {
        rows: rows.length,
        outage,
        retried,
        dead,
        failures: this.failures.batch + 1,
        error: message,
      });
      return { applied: 0, failed: retried, dead };
    }
    const acked = await this.outbox.ack(ids, this.token);
    if (acked < ids.length) {
      log.warn("outbox lease ended before the ack; another worker applies those rows again", {
        rows: ids.length,
        acked,
        leaseMs: this.leaseMs,
      });
    }
    return { applied: acked, failed: 0, dead: 0 };
  }

  private record(r: RunOnceResult, started: number): RunOnceResult {
    this.totals.applied += r.applied;
    this.totals.failed += r.failed;
    this.totals.dead += r.dead;
    this.totals.batches += 1;
    this.totals.lastBatchAt = Date.now();
    this.totals.lastBatchMs = Math.round(performance.now() - started);
    return r;
  }

  /**
   * Prepares each sink not prepared yet, then hands it the changes of its entities, all sinks at once.
   * @throws PegasError with every failed sink's "<sink>: <message>", joined by "; " (the code of the first).
   */
  private async applyAll(changes: ProjectionChange[]): Promise<void> {
    const preparing = new Set<ProjectionSink>();
    const results = await Promise.allSettled(
      this.sinks.map(async (sink) => {
        if (!this.prepared.has(sink)) {
          preparing.add(sink);
          await sink.prepare();
          preparing.delete(sink);
          this.prepared.add(sink);
        }
        const mine = changes.filter((c) => sink.entities.has(c.entity));
        if (mine.length) await sink.apply(mine);
      }),
    );
    const failures: Array<{ sink: ProjectionSink; err: unknown }> = [];
    for (const [i, r] of results.entries())
      if (r.status === "rejected") failures.push({ sink: this.sinks[i], err: r.reason });
    if (!failures.length) return;
    // A sink that failed is prepared again next time: a restarted Qdrant may have lost its collection.
    for (const f of failures) this.prepared.delete(f.sink);
    const first = failures[0].err;
    // A sink that cannot even be prepared (down, misconfigured, a collection of another dimension) says nothing
    // about the rows: that is an outage, like an unreachable engine.
    const outage = failures.some(
      (f) => preparing.has(f.sink) || (f.err instanceof PegasError && OUTAGE_CODES.has(f.err.code)),
    );
    throw new SinkFailure(
      first instanceof PegasError ? first.code : "INDEX_UNAVAILABLE",
      failures.map((f) => sinkError(f.sink.name, f.err)).join("; "),
      { cause: first },
      outage,
    );
  }
}
