/**
 * Pure helpers of the outbox worker: the order in which resolved changes reach a sink, and the backoff delay.
 */
import type { RetryPolicy } from "../ports/projections/outbox.ts";
import type { ProjectionChange } from "../ports/projections/projection-sink.ts";

/** Rank of a change in the apply order: node upserts, edge upserts, edge removals, node removals. */
function rank(c: ProjectionChange): number {
  if (c.entity === "edge") return c.state ? 1 : 2;
  return c.state ? 0 : 3;
}

/**
 * Orders changes so that no edge arrives before its endpoints and no node leaves before its edges: node upserts,
 * edge upserts, edge removals, node removals; stable within each group (atoms, documents, symbols as resolved).
 */
export function orderChanges(changes: readonly ProjectionChange[]): ProjectionChange[] {
  return changes
    .map((c, i) => ({ c, i, r: rank(c) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.c);
}

/**
 * Delay before retry number `attempt` (1-based), in ms: d = min(maxMs, baseMs·2^(attempt−1)), then d/2 + random(0,
 * d/2) — "equal jitter" from the AWS Architecture Blog, "Exponential Backoff And Jitter" (M. Brooker, 2015); the
 * same formula as SqlOutbox.fail uses per row. `random` returns a number in [0, 1).
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const d = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 60));
  return d / 2 + random() * (d / 2);
}

/** "<sink>: <message>" of a sink's error, as recorded in `pm_outbox.last_error`. */
export function sinkError(sink: string, err: unknown): string {
  return `${sink}: ${err instanceof Error ? err.message : String(err)}`;
}
