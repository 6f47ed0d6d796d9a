/**
 * The search-miss log: a search whose best hit (among the first {@link MISS_TOP_HITS}) contains less than
 * {@link MISS_THRESHOLD} of the query's lexemes — or that found nothing — is logged (query, time, best score). The
 * fused RRF score of memory_search says where a hit ranks, not whether it is relevant (rank 1 always scores about
 * 1/(k+1)), so the score logged is this term coverage, computed in SQL from the atoms' stored lexemes. Queries
 * missed at least {@link MIN_MISS_REPEATS} times (same key: sorted unique lexemes) are suggested as gaps.
 * Logging is fire-and-forget, off the search's path: a failure is logged as a warning and never reaches the caller.
 */
import { within } from "../../domain/deadline.ts";
import { toPegasError } from "../../errors.ts";
import { log } from "../../log.ts";
import type { Services } from "../services.ts";

/** Least share of the query's lexemes (0..1) the best hit must contain not to be a miss. */
export const MISS_THRESHOLD = 0.5;
/** Hits looked at for the best score. */
export const MISS_TOP_HITS = 3;
/** Misses of one query (by key) before it is suggested as a gap. */
export const MIN_MISS_REPEATS = 2;

const inflight = new Set<Promise<void>>();

/** Logs the search as a miss when it is one (module doc); returns at once. Never throws. */
export function noteSearchOutcome(services: Pick<Services, "gaps">, query: string, atomIds: readonly number[]): void {
  const failed = (err: unknown) => log.warn("search miss not logged", { err: toPegasError(err).message });
  let p: Promise<void>;
  try {
    p = services.gaps
      .recordSearch(query, atomIds.slice(0, MISS_TOP_HITS), MISS_THRESHOLD)
      .then(() => undefined, failed)
      .finally(() => inflight.delete(p));
  } catch (err) {
    failed(err); // services without a gap store (a test's partial bundle): the search goes on
    return;
  }
  inflight.add(p);
}

/**
 * Waits for the miss writes in flight (tests, and before closing the services), at most `maxMs` milliseconds when
 * given. Never throws.
 */
export async function settleSearchMisses(maxMs?: number): Promise<void> {
  const all = Promise.all([...inflight]);
  await (maxMs === undefined ? all : within(all, maxMs));
}
