/**
 * A counting semaphore that bounds how many Ollama requests are in flight, so that embedding never takes more of
 * the shared GPU than configured. Waiters are served first-in first-out; a waiter whose signal aborts leaves the
 * queue without taking a permit.
 */
import { PegasError } from "../../../errors.ts";

/** Releases a permit; calling it more than once has no further effect. */
export type Release = () => void;

/** Counting semaphore with `limit` permits (an integer ≥ 1). */
export class Semaphore {
  #free: number;
  readonly #waiters: Array<{ grant: (r: Release) => void }> = [];

  /** @throws PegasError INVALID_INPUT when `limit` is not an integer ≥ 1. */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new PegasError("INVALID_INPUT", `concurrency limit ${limit} is not an integer ≥ 1`, {
        hint: "set ollama_concurrency to 1 or more",
      });
    }
    this.#free = limit;
  }

  /** Permits currently held. */
  get inUse(): number {
    return this.limit - this.#free;
  }

  /** Callers waiting for a permit. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /**
   * Waits for a permit and returns its release function.
   * @throws the signal's reason when `signal` aborts before a permit is granted (nothing is held then).
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter = {
        grant: (r: Release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(r);
        },
      };
      const onAbort = () => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Hand the permit straight to the next waiter so that a newcomer cannot overtake the queue.
      const next = this.#waiters.shift();
      if (next) next.grant(this.#releaser());
      else this.#free++;
    };
  }
}
