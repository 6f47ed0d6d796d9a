/**
 * Graph reads from Memgraph, answered by SQL over the canonical tables while Memgraph is down
 * (src/adapters/fallback/breaker.ts); a result answered by SQL carries the reason in `degraded`.
 */
import type {
  GraphCounters,
  GraphPath,
  GraphStore,
  NeighbourQuery,
  PathQuery,
  Subgraph,
} from "../../ports/projections/graph-store.ts";
import { FallbackRead } from "./breaker.ts";

/** Reads from `primary`, or from `fallback` while `primary` fails. */
export class FallbackGraphStore implements GraphStore {
  private readonly reads: FallbackRead<GraphStore>;

  constructor(
    readonly primary: GraphStore,
    readonly fallback: GraphStore,
    cooldownMs?: number,
  ) {
    // Bad ids, depths and unknown nodes are the caller's: SQL would answer the same.
    const callerError = (e: { code: string }) => e.code === "INVALID_INPUT" || e.code === "NOT_FOUND";
    this.reads = new FallbackRead(
      primary,
      fallback,
      { primary: primary.name, fallback: fallback.name },
      callerError,
      cooldownMs,
    );
  }

  get name(): string {
    return this.primary.name;
  }

  async neighbours(q: NeighbourQuery): Promise<Subgraph> {
    const r = await this.reads.run((g) => g.neighbours(q));
    return r.degraded ? { ...r.value, degraded: r.degraded } : r.value;
  }

  async shortestPath(q: PathQuery): Promise<GraphPath | null> {
    const r = await this.reads.run((g) => g.shortestPath(q));
    return r.degraded && r.value ? { ...r.value, degraded: r.degraded } : r.value;
  }

  async counters(): Promise<GraphCounters> {
    const r = await this.reads.run((g) => g.counters());
    return r.degraded ? { ...r.value, degraded: r.degraded } : r.value;
  }
}
