/** memory_stats: the store's counters plus the state of every projection (this process's and the external ones). */
import { toPegasError } from "../../errors.ts";
import type { StoreStats } from "../../ports/store/maintenance.ts";
import { type ProjectionCounts, type ProjectionSink, expectedCounts } from "../../ports/projections/projection-sink.ts";
import { DEFAULT_REFRESH_AGE_S } from "../documents/freshness-policy.ts";
import { MIN_MISS_REPEATS } from "../gaps/miss.ts";
import type { Services } from "../services.ts";

/**
 * An external projection beside the canonical counts: `drift` = canonical − held per entity (0 when in step);
 * `lag_s` is the age of the oldest outbox row not yet applied (0 when none); `error` when it could not be read.
 */
export interface ExternalProjectionStats {
  name: string;
  held: ProjectionCounts | null;
  canonical: ProjectionCounts;
  drift: ProjectionCounts | null;
  lag_s: number;
  error?: string;
}

/** Counters of memory_stats. */
export interface StatsResult extends StoreStats {
  /** Distinct queries missed at least twice and asked by no gap yet (memory_list_gaps offers them as suggested gaps). */
  suggested_gaps: number;
  /** Searches logged as misses (their best hit covered less than half of the query's terms). */
  search_misses: number;
  /** Fetched URL documents due for `pegas-memory refresh` (last checked over 7 days ago, no retry pending). */
  urls_due: number;
  store: { backend: string; location: string };
  embedder: { model: string; dim: number; kind: "lexical" | "neural" };
  projections: {
    /** This process's BM25 index: atoms held, atoms not yet held, its high-water mark, seconds since it caught up. */
    lexical: { atoms_indexed: number; lag_atoms: number; mark: string; lag_s: number };
    /** This process's vector index (the embedded one) beside the stored vectors of the active model. */
    vector: { backend: string; model: string; vectors: number; lag_vectors: number };
    /** Qdrant and Memgraph when configured (fed by the outbox). */
    external: ExternalProjectionStats[];
  };
}

function drift(canonical: ProjectionCounts, held: ProjectionCounts): ProjectionCounts {
  const out: ProjectionCounts = {};
  for (const [k, v] of Object.entries(canonical) as Array<[keyof ProjectionCounts, number]>)
    out[k] = v - (held[k] ?? 0);
  return out;
}

/** One external projection's counts beside the canonical ones (`counts` from OutboxStore.canonicalCounts); never throws. */
export async function externalStats(
  sink: ProjectionSink,
  counts: Record<string, number>,
  lagS: number,
): Promise<ExternalProjectionStats> {
  const canonical = expectedCounts(sink, counts);
  try {
    const held = await sink.counts();
    return { name: sink.name, held, canonical, drift: drift(canonical, held), lag_s: lagS };
  } catch (err) {
    return { name: sink.name, held: null, canonical, drift: null, lag_s: lagS, error: toPegasError(err).message };
  }
}

/** Reads the counters after bringing this process's projections up to date; an unreachable projection is reported, not thrown. */
export async function stats(
  services: Pick<
    Services,
    "describe" | "embedder" | "freshness" | "gaps" | "maintenance" | "outbox" | "projection" | "sinks" | "vectorIndex"
  >,
): Promise<StatsResult> {
  await services.projection.sync();
  const s = await services.maintenance.stats();
  const vectors = await services.vectorIndex.count().catch(() => 0);
  const st = services.projection.state;
  const stored = s.embeddings[services.embedder.model] ?? 0;
  const lagS = s.outbox.oldest_pending_age_s ?? 0;
  const counts = services.sinks.length ? await services.outbox.canonicalCounts(services.embedder.model) : {};
  const gaps = await services.gaps.counters(MIN_MISS_REPEATS);
  const urlsDue = await services.freshness.countDue(DEFAULT_REFRESH_AGE_S);
  return {
    ...s,
    suggested_gaps: gaps.suggested,
    search_misses: gaps.misses,
    urls_due: urlsDue,
    store: { backend: services.describe.store, location: services.describe.storeLocation },
    embedder: { model: services.embedder.model, dim: services.embedder.dim, kind: services.embedder.kind },
    projections: {
      lexical: {
        atoms_indexed: st.atoms,
        lag_atoms: Math.max(0, s.atoms.total - st.atoms),
        mark: st.mark,
        lag_s: st.lastSyncAt ? Math.max(0, Math.round((Date.now() - st.lastSyncAt) / 1000)) : 0,
      },
      vector: {
        backend: services.vectorIndex.name,
        model: services.vectorIndex.model,
        vectors,
        lag_vectors: Math.max(0, stored - vectors),
      },
      external: await Promise.all(services.sinks.map((sink) => externalStats(sink, counts, lagS))),
    },
  };
}
