/**
 * Paced garbage collection for long ingests. The embedded PostgreSQL (PGlite) keeps ≈ 400 MiB of WebAssembly memory
 * that JavaScriptCore counts as heap, and its collector lets garbage grow in proportion to the heap before it runs:
 * ingesting a 20 MB text so peaked above 1.3 GiB RSS, mostly strings already dead. A full collection after every
 * {@link GC_EVERY_BYTES} of text processed keeps the peak near what is live, for a few milliseconds per collection.
 * Bun-only (`Bun.gc`); elsewhere a no-op.
 */

/** Text processed (UTF-16 code units, summed by callers) between two collections. */
export const GC_EVERY_BYTES = 1024 * 1024;

let pending = 0;

/** Counts `units` of text processed and collects garbage synchronously once {@link GC_EVERY_BYTES} have passed. */
export function processedText(units: number): void {
  pending += units;
  if (pending < GC_EVERY_BYTES) return;
  pending = 0;
  (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(true);
}
