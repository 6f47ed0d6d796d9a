/**
 * Bounding a promise by a deadline, with the timer cleared as soon as the promise settles (so a won race keeps no
 * timer alive and a CLI process ends at once). The promise itself goes on: a deadline stops the wait, not the work.
 */

/** Resolves when `p` settles or after `ms` milliseconds, whichever comes first; never rejects. */
export function within(p: Promise<unknown>, ms: number): Promise<void> {
  return withDeadline(
    p.then(
      () => {},
      () => {},
    ),
    ms,
    () => undefined,
  ).catch(() => {});
}

/**
 * Settles as `p` does, or rejects with `late()` after `ms` milliseconds when `p` has not settled by then.
 * @throws whatever `p` rejects with, or the error `late()` makes.
 */
export function withDeadline<T>(p: Promise<T>, ms: number, late: () => unknown): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(late()), ms)));
  return Promise.race([p, expired]).finally(() => clearTimeout(timer));
}
