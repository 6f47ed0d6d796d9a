/**
 * A vector index that reads from an external engine (Qdrant) and falls back to the embedded index while it is down
 * (src/adapters/fallback/breaker.ts); writes go to the primary only (the outbox worker feeds it; the embedded index
 * follows the canonical tables on its own).
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { VectorHit, VectorIndex, VectorPoint } from "../../ports/projections/vector-index.ts";
import { FallbackRead } from "./breaker.ts";

/** Reads from `primary`, or from `fallback` (when given) while `primary` fails. */
export class FallbackVectorIndex implements VectorIndex {
  private readonly reads: FallbackRead<VectorIndex>;

  constructor(
    readonly primary: VectorIndex,
    readonly fallback: VectorIndex | null,
    cooldownMs?: number,
  ) {
    // A query vector of the wrong dimension would fail on the fallback as well.
    const callerError = (e: { code: string; message: string }) =>
      e.code === "INVALID_INPUT" && /query vector/.test(e.message);
    this.reads = new FallbackRead(
      primary,
      fallback,
      { primary: primary.name, fallback: fallback?.name ?? "none" },
      callerError,
      cooldownMs,
    );
  }

  get name(): string {
    return this.primary.name;
  }
  get model(): string {
    return this.primary.model;
  }
  get dim(): number {
    return this.primary.dim;
  }

  /** Vectors held by the primary. @throws PegasError INDEX_UNAVAILABLE. */
  count(): Promise<number> {
    return this.primary.count();
  }

  upsert(points: VectorPoint[]): Promise<void> {
    return this.primary.upsert(points);
  }

  delete(atomIds: number[]): Promise<void> {
    return this.primary.delete(atomIds);
  }

  async search(query: Float32Array, k: number, filter?: AtomFilter): Promise<VectorHit[]> {
    return (await this.searchReporting(query, k, filter)).hits;
  }

  /** Search on the primary, or on the fallback with the reason in `degraded`. */
  async searchReporting(
    query: Float32Array,
    k: number,
    filter?: AtomFilter,
  ): Promise<{ hits: VectorHit[]; degraded: string | null }> {
    const r = await this.reads.run((index) => index.search(query, k, filter));
    return { hits: r.value, degraded: r.degraded };
  }
}
