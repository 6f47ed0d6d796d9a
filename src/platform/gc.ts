/**
 * Paced garbage collection for long ingests. The embedded PostgreSQL (PGlite) keeps ≈ 400 MiB of WebAssembly memory
 * that JavaScriptCore counts as heap, and its collector lets garbage grow in proportion to the heap before it runs:
 * ingesting a 20 MB text so peaked above 1.3 GiB RSS, mostly strings already dead. Callers count the text they
 * process; every {@link CHECK_EVERY_UNITS} the resident set is read, and a full collection runs only when it grew
 * by {@link RSS_GROWTH} since the last one (or since its lowest reading): a collection after every MiB of text
 * cost ≈ 15 % of an ingest's CPU (each one marks the whole live heap), most of them finding little to free.
 * Bun-only (`Bun.gc`); elsewhere a no-op.
 */

/**
 * Text processed (UTF-16 code units, summed by callers) between two readings of the resident set. A reading is cheap;
 * with 256 KiB the resident set overshot its threshold between readings (dedup of a part of log text makes more
 * garbage than its counted text): 20 MB of log text peaked at 611 MiB with 256 KiB (one run), 598–619 MiB with 64 KiB
 * (three runs; bench/notes.md, ingest).
 */
export const CHECK_EVERY_UNITS = 64 * 1024;
/** Growth of the resident set (bytes) over its last floor that triggers a full collection. */
export const RSS_GROWTH = 64 * 1024 * 1024;

let pending = 0;
let floor = 0;

/**
 * Counts `units` of text processed; once {@link CHECK_EVERY_UNITS} have passed, collects garbage synchronously when
 * the resident set grew by {@link RSS_GROWTH} over its floor (see {@link collectIfGrown}).
 */
export function processedText(units: number): void {
  pending += units;
  if (pending < CHECK_EVERY_UNITS) return;
  pending = 0;
  collectIfGrown();
}

/**
 * Reads the resident set now and collects garbage synchronously when it grew by {@link RSS_GROWTH} over its floor
 * (the resident set after the last collection, or its lowest reading since); true when it collected. For loops whose
 * garbage is not text counted by {@link processedText}: each page of the in-process indexes' catch-up.
 */
export function collectIfGrown(): boolean {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (!bun) return false;
  const rss = process.memoryUsage.rss();
  if (floor === 0 || rss < floor) floor = rss;
  if (rss - floor < RSS_GROWTH) return false;
  bun.gc(true);
  floor = process.memoryUsage.rss();
  return true;
}

/**
 * Collects garbage synchronously now (after a bulk load whose garbage the process need not keep until its collector
 * runs, such as a first catch-up of the in-process indexes), and takes the resident set after it as the new floor.
 */
export function collectNow(): void {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (!bun) return;
  bun.gc(true);
  floor = process.memoryUsage.rss();
}
