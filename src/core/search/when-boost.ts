/**
 * "When" questions rank dated evidence (issue 22): for a question that asks when (domain/time/when-question.ts), the
 * atoms among the best {@link WINDOW} fused candidates that have an event time form one more reciprocal-rank-fusion
 * leg, `dated`, in their fused order and with weight {@link DATED_WEIGHT}; a dated atom so gains what one more
 * ranker's vote would give it. Any other question is returned untouched, so it ranks exactly as without this hook.
 */
import type { FusedItem } from "../../domain/rrf.ts";
import { asksWhen } from "../../domain/time/when-question.ts";
import type { Services } from "../services.ts";

/** Fused candidates looked at: the dated leg ranks only these. */
export const WINDOW = 50;
/** Weight of the dated leg (the lexical leg's is 1). */
export const DATED_WEIGHT = 0.5;

/** `fused` reranked with the dated leg when `query` asks when; else `fused` itself. `rrfK` is the fusion's k. */
export async function rankDatedForWhen(
  services: Pick<Services, "searchReads">,
  query: string,
  fused: FusedItem[],
  rrfK: number,
): Promise<FusedItem[]> {
  if (!fused.length || !asksWhen(query)) return fused;
  const head = fused.slice(0, WINDOW);
  const dated = await services.searchReads.eventTimes(head.map((f) => f.id));
  if (!dated.size) return fused;
  let rank = 0;
  const boosted = head.map((f) => {
    if (!dated.has(f.id)) return f;
    rank++;
    return { ...f, score: f.score + DATED_WEIGHT / (rrfK + rank), ranks: { ...f.ranks, dated: rank } };
  });
  // Stable: equal scores keep the fused order (itself deterministic).
  const order = new Map(head.map((f, i) => [f.id, i]));
  boosted.sort((a, b) => b.score - a.score || order.get(a.id)! - order.get(b.id)!);
  return [...boosted, ...fused.slice(WINDOW)];
}
