/**
 * Weighted reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009, "Reciprocal Rank Fusion outperforms
 * Condorcet and individual Rank Learning Methods"): score(d) = Σ_legs w_leg / (k + rank_leg(d)), ranks from 1.
 */

/** One ranked list to fuse; `ids` best first. */
export interface RankedLeg {
  name: string;
  weight: number;
  ids: number[];
}

/** A fused item: its fused score and its 1-based rank in each leg that returned it. */
export interface FusedItem {
  id: number;
  score: number;
  ranks: Record<string, number>;
}

/** Fuses the legs; ties are broken by the first leg's order, then by id, so the output is deterministic. */
export function reciprocalRankFusion(legs: RankedLeg[], k = 60): FusedItem[] {
  const items = new Map<number, FusedItem>();
  for (const leg of legs) {
    leg.ids.forEach((id, i) => {
      let item = items.get(id);
      if (!item) items.set(id, (item = { id, score: 0, ranks: {} }));
      if (item.ranks[leg.name] !== undefined) return;
      item.ranks[leg.name] = i + 1;
      item.score += leg.weight / (k + i + 1);
    });
  }
  const first = legs[0]?.name;
  const firstRank = (x: FusedItem) => (first && x.ranks[first]) || Number.MAX_SAFE_INTEGER;
  return [...items.values()].sort((a, b) => b.score - a.score || firstRank(a) - firstRank(b) || a.id - b.id);
}
