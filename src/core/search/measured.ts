/**
 * memory_search with a measurement filter in its query (issue 24; syntax: domain/quantity/filter.ts): "cold start
 * < 1.5 s" finds the atoms whose stored measurement (pm_atom_quantity) is of the filter's dimension and inside its
 * range, whatever unit they were written in ("1200 ms" as well as "1.2 s"), ranked by how many of the query's other
 * words name what they measured (the measurement's subject counts twice, the claim once; a 5-letter stem match,
 * English and Russian). When the query has other words, an atom must share more than half of them. Paged like every
 * search; the entity focus and `valid_at`/`known_at` do not apply.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import { phraseStems } from "../../domain/quantity/compare.ts";
import type { QuantityFilter } from "../../domain/quantity/filter.ts";
import type { QuantityRange, QuantityRow } from "../../ports/store/quantities.ts";
import type { Services } from "../services.ts";
import { hydrateHits, type RankedId, type SearchHit } from "./hits.ts";

/** Most stored measurements read per filtered search (the closest matches are ranked among them). */
export const MEASURED_CANDIDATES = 5000;

/** A bound widened (closed) or narrowed (open) by a relative 1e-9, so that 1200 × 0.001 s is 1.2 s. */
function nudged(v: number | undefined, open: boolean, up: boolean): number | undefined {
  if (v === undefined) return undefined;
  const eps = Math.max(Math.abs(v), 1e-300) * 1e-9;
  return up === open ? v - eps : v + eps;
}

/** The store's range of a parsed filter. */
export function rangeOf(f: QuantityFilter): QuantityRange {
  return {
    canonicalUnit: f.canonicalUnit,
    low: nudged(f.low, f.lowOpen, false),
    high: nudged(f.high, f.highOpen, true),
    lowOpen: f.lowOpen,
    highOpen: f.highOpen,
  };
}

/** Ranks the atoms of `rows` by the stems of `rest` (see module doc); best first, then by atom id; others left out. */
export function rankMeasured(rows: QuantityRow[], rest: string): RankedId[] {
  const words = [...new Set(phraseStems(rest))];
  const best = new Map<number, number>();
  for (const r of rows) {
    let score = 1;
    if (words.length) {
      const subject = new Set(phraseStems(r.subject));
      const claim = new Set(phraseStems(r.claim ?? ""));
      let hits = 0;
      let matched = 0;
      for (const w of words) {
        hits += (subject.has(w) ? 2 : 0) + (claim.has(w) ? 1 : 0);
        if (subject.has(w) || claim.has(w)) matched++;
      }
      if (2 * matched <= words.length) continue; // "cold start" is not "warm start"
      score = hits / (3 * words.length);
    }
    best.set(r.atomId, Math.max(best.get(r.atomId) ?? 0, score));
  }
  return [...best].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id, score]) => ({ id, score, ranks: {} }));
}

/** One page of a filtered search: the hits from `offset` (at most `k`) and whether more follow. */
export async function measuredPage(
  services: Pick<Services, "atomReads" | "quantities">,
  f: QuantityFilter,
  filter: AtomFilter,
  offset: number,
  k: number,
): Promise<{ hits: SearchHit[]; more: boolean }> {
  const rows = await services.quantities.matching(rangeOf(f), filter, MEASURED_CANDIDATES);
  const ranked = rankMeasured(rows, f.rest);
  return { hits: await hydrateHits(services, ranked.slice(offset, offset + k)), more: ranked.length > offset + k };
}
