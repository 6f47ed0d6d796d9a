/**
 * In-process wake-up of outbox workers on the embedded database. PGlite is served over a local socket that carries
 * no LISTEN/NOTIFY between processes, so the store calls {@link signalOutbox} after it committed writes that added
 * outbox rows, and waiting workers of this process wake at once; workers of other processes sharing the data dir
 * fall back to polling (`waitForWork`'s timeout).
 */

type Listener = () => void;

const listeners = new Set<Listener>();

/**
 * Tells this process's outbox workers that rows may be due. Call it after the writing transaction COMMITTED (a
 * worker woken earlier would not see the rows). Cheap and synchronous; listeners never throw into the caller.
 */
export function signalOutbox(): void {
  for (const fn of [...listeners]) {
    try {
      fn();
    } catch {
      // A listener is a waker; a failing one must not break the writer that signals.
    }
  }
}

/** Subscribes `fn` to {@link signalOutbox}; returns the unsubscribe function. */
export function onOutboxSignal(fn: Listener): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}
