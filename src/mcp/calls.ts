/**
 * Bookkeeping of tool calls in flight, for a shutdown that lets them finish within a grace period and cancels the
 * rest (their transactions roll back when the database closes under them).
 */

/** The calls in flight and whether the server is shutting down. */
export class CallTracker {
  /** Abort controllers of the calls in flight. */
  readonly inflight = new Set<AbortController>();
  /** True once shutdown began: a call failing from then on is reported as cancelled. */
  stopping = false;
  private waiters: Array<() => void> = [];

  /** Registers a call. */
  add(ac: AbortController): void {
    this.inflight.add(ac);
  }

  /** Unregisters a call; wakes {@link settle} waiters when none is left. */
  delete(ac: AbortController): void {
    this.inflight.delete(ac);
    if (this.inflight.size === 0) for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when no call is in flight, or after `ms` milliseconds, whichever comes first. */
  settle(ms: number): Promise<void> {
    if (this.inflight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Aborts every call in flight with `reason`. */
  abortAll(reason: Error): void {
    for (const ac of this.inflight) ac.abort(reason);
  }
}
