/**
 * Per-word memory for the pure word functions a statement read calls on every token (stemming, antonym poles,
 * directions, case folding): a text repeats its words, and dedup reads thousands of texts per ingest, so most calls
 * find their word already done. Bounded: a table is emptied when it reaches its size. Pure in effect.
 */

/** `fn` remembered per string argument, for at most `max` strings at a time. `fn` must be pure. */
export function memoByWord<T>(fn: (w: string) => T, max = 8192): (w: string) => T {
  const seen = new Map<string, T>();
  return (w) => {
    let v = seen.get(w);
    if (v === undefined) {
      v = fn(w);
      if (seen.size >= max) seen.clear();
      seen.set(w, v);
    }
    return v;
  };
}
