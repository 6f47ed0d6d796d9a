/**
 * Cooperative yielding for CPU-bound loops: a synchronous step awaited in a loop only runs microtasks, so timers,
 * signals, stdin and cancellation would wait until the loop ends. Awaiting {@link yieldToEventLoop} between steps
 * lets them run.
 */

/** Resolves after the event loop has had one turn (setImmediate: after pending I/O callbacks). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
