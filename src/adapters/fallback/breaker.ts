/**
 * A read that prefers a primary engine and falls back to an embedded one: after the primary fails, it is skipped for
 * a cool-down (a circuit breaker, Nygard, "Release It!", ch. 5) so that every read does not wait for a dead engine,
 * then tried again. Only engine failures fall back; CANCELLED and INVALID_INPUT about the caller's own arguments
 * propagate.
 */
import { type PegasError, toPegasError } from "../../errors.ts";
import { log } from "../../log.ts";

/** Default cool-down after a primary failure (ms). */
export const BREAKER_COOLDOWN_MS = 30_000;

/** The outcome of a read: its value and, when the fallback answered, why. */
export interface FallbackResult<R> {
  value: R;
  degraded: string | null;
}

/** Primary/fallback reader with a breaker. `isCallerError` tells errors that the fallback would repeat. */
export class FallbackRead<T> {
  private openUntil = 0;
  private lastReason = "";

  constructor(
    readonly primary: T,
    readonly fallback: T | null,
    private readonly names: { primary: string; fallback: string },
    private readonly isCallerError: (err: PegasError) => boolean,
    private readonly cooldownMs = BREAKER_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `fn` on the primary, or on the fallback when the primary failed now or within the cool-down. */
  async run<R>(fn: (engine: T) => Promise<R>): Promise<FallbackResult<R>> {
    if (this.fallback && this.now() < this.openUntil) {
      return { value: await fn(this.fallback), degraded: this.describe() };
    }
    try {
      const value = await fn(this.primary);
      this.openUntil = 0;
      return { value, degraded: null };
    } catch (err) {
      const e = toPegasError(err);
      if (!this.fallback || e.code === "CANCELLED" || this.isCallerError(e)) throw err;
      this.openUntil = this.now() + this.cooldownMs;
      this.lastReason = e.message;
      log.warn(`${this.names.primary} failed; reads go to ${this.names.fallback}`, {
        err: e.message,
        retry_in_ms: this.cooldownMs,
      });
      return { value: await fn(this.fallback), degraded: this.describe() };
    }
  }

  /** True while reads skip the primary. */
  get degraded(): boolean {
    return this.fallback !== null && this.now() < this.openUntil;
  }

  private describe(): string {
    return `${this.names.primary} unavailable (${this.lastReason}); answered by ${this.names.fallback}`;
  }
}
