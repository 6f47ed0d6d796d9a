/**
 * Paced garbage collection for long ingests. The embedded PostgreSQL (PGlite) keeps ≈ 300–400 MiB of WebAssembly
 * memory that JavaScriptCore counts as heap, and its collector lets garbage grow in proportion to the heap before it
 * runs: ingesting a 20 MB text so peaked above 1.3 GiB RSS, mostly strings already dead. Callers count the text they
 * process; every {@link CHECK_EVERY_UNITS} the resident set is read. When it grew by {@link EDEN_GROWTH} since the
 * last reading after a collection, a young-generation (eden) collection runs: the garbage of an ingest is young
 * (tokens, statements, parameter arrays), and an eden collection costs a fraction of a full one, which marks the
 * whole live heap. A full collection runs only when the resident set grew by {@link RSS_GROWTH} over its floor (after
 * the last full collection, or its lowest reading since): what outlived the eden collections.
 * Bun-only (`bun:jsc` edenGC, `Bun.gc`); elsewhere a no-op. The environment variables PEGAS_GC_UNITS, PEGAS_GC_EDEN and
 * PEGAS_GC_FULL (MiB; 0 turns eden collections off) override the three constants, for measurements only.
 */

/** Text processed (UTF-16 code units, summed by callers) between two readings of the resident set. */
export const CHECK_EVERY_UNITS = Number(process.env.PEGAS_GC_UNITS ?? 256 * 1024);
/** Growth of the resident set (bytes) over its last floor that triggers a full collection. */
export const RSS_GROWTH = Number(process.env.PEGAS_GC_FULL ?? 64) * 1024 * 1024;
/**
 * Growth of the resident set (bytes) since the last collection that triggers a young-generation collection; 0 (the
 * default) turns them off: at 16 MiB they cost 20 MB of prose 49.0 → 59.7 CPU-s and saved no memory (688 vs 726 MiB;
 * log text 106.8 vs 107.2 CPU-s, 856 vs 896 MiB), measured on a quiet host (bench/notes.md).
 */
export const EDEN_GROWTH = Number(process.env.PEGAS_GC_EDEN ?? 0) * 1024 * 1024;

let pending = 0;
let floor = 0;
let edenFloor = 0;

interface Collectors {
  full(): void;
  eden(): void;
}

let collectors: Collectors | null | undefined;

function load(): Collectors | null {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (!bun) return null;
  let eden: (() => void) | undefined;
  try {
    eden = (require("bun:jsc") as { edenGC(): void }).edenGC;
  } catch {
    eden = undefined;
  }
  return { full: () => bun.gc(true), eden: eden ?? (() => bun.gc(true)) };
}

/**
 * Counts `units` of text processed; once {@link CHECK_EVERY_UNITS} have passed, reads the resident set and collects
 * garbage synchronously: an eden collection when it grew by {@link EDEN_GROWTH} since the last collection, a full one
 * when it grew by {@link RSS_GROWTH} over its floor (the resident set after the last full collection, or its lowest
 * reading since).
 */
export function processedText(units: number): void {
  pending += units;
  if (pending < CHECK_EVERY_UNITS) return;
  pending = 0;
  if (collectors === undefined) collectors = load();
  if (!collectors) return;
  const rss = process.memoryUsage.rss();
  if (floor === 0 || rss < floor) floor = rss;
  if (edenFloor === 0 || rss < edenFloor) edenFloor = rss;
  if (rss - floor >= RSS_GROWTH) {
    collectors.full();
    floor = edenFloor = process.memoryUsage.rss();
  } else if (EDEN_GROWTH > 0 && rss - edenFloor >= EDEN_GROWTH) {
    collectors.eden();
    edenFloor = process.memoryUsage.rss();
  }
}
