/**
 * Wake-ups for outbox workers: LISTEN on channel `pm_outbox` on PostgreSQL (fed by the statement-level trigger of
 * migration 0005), the in-process {@link onOutboxSignal} on PGlite. A generation counter makes the wake-up
 * level-triggered: a notification that arrives while the worker is busy is not lost, the next wait returns at once.
 */
import { log } from "../../../log.ts";
import type { Database } from "../database.ts";
import { onOutboxSignal } from "./signal.ts";

/** The NOTIFY channel of migration 0005. */
export const OUTBOX_CHANNEL = "pm_outbox";

/** After a failed LISTEN, how long waits poll before subscribing again (ms). */
const RESUBSCRIBE_MS = 30_000;

/** Level-triggered wake-ups of one {@link Database}. */
export class OutboxWaker {
  private generation = 0;
  private seen = 0;
  private readonly waiters = new Set<() => void>();
  private subscription: Promise<void> | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private retryAt = 0;
  private closed = false;

  constructor(private readonly db: Database) {}

  /** Call when a claim starts: notifications received so far are covered by it. */
  markClaimed(): void {
    this.seen = this.generation;
  }

  /**
   * Resolves at once when a notification arrived since the last claim or wait, else on the next notification,
   * after `timeoutMs`, or when `signal` aborts. The first call subscribes (and returns at once: rows written before
   * the subscription would otherwise wait for the timeout). Never throws: a failed LISTEN degrades to polling.
   */
  async wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    if (!this.closed && !this.subscription && Date.now() >= this.retryAt) await (this.subscription = this.subscribe());
    if (this.generation !== this.seen) {
      this.seen = this.generation;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
    this.seen = this.generation;
  }

  /** Stops listening and releases every waiter; later waits only poll. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of [...this.waiters]) w();
    await this.subscription;
    const off = this.unsubscribe;
    this.unsubscribe = null;
    await off?.().catch((err) => log.debug("outbox unlisten failed", { err }));
  }

  private bump(): void {
    this.generation++;
    for (const w of [...this.waiters]) w();
  }

  private async subscribe(): Promise<void> {
    if (this.db.kind !== "postgres") {
      const off = onOutboxSignal(() => this.bump());
      this.unsubscribe = async () => off();
      this.bump();
      return;
    }
    try {
      // onlisten runs on the first LISTEN and again after postgres.js re-listened on a new connection: either way
      // notifications may have been missed, so it wakes the worker.
      const meta = await this.db.sql.listen(
        OUTBOX_CHANNEL,
        () => this.bump(),
        () => this.bump(),
      );
      if (this.closed)
        await meta.unlisten(); // close() ran while LISTEN was on its way
      else this.unsubscribe = () => meta.unlisten();
    } catch (err) {
      log.warn("cannot LISTEN for outbox rows; polling instead", {
        location: this.db.location,
        retryInMs: RESUBSCRIBE_MS,
        err,
      });
      this.retryAt = Date.now() + RESUBSCRIBE_MS;
      this.subscription = null;
    }
  }
}
