/** memory_stats: the store's counters plus the state of this process's projections. */
import type { StoreStats } from "../ports/canonical-store.ts";
import type { Services } from "./services.ts";

/** Counters of memory_stats. */
export interface StatsResult extends StoreStats {
  store: { backend: string; location: string };
  embedder: { model: string; dim: number; kind: "lexical" | "neural" };
  projections: {
    lexical: { atoms_indexed: number; lag_atoms: number; mark: string };
    vector: { backend: string; model: string; vectors: number; lag_vectors: number };
  };
}

/** Reads the counters after bringing this process's projections up to date. */
export async function stats(services: Services): Promise<StatsResult> {
  await services.projection.sync();
  const s = await services.store.stats();
  const vectors = await services.vectorIndex.count();
  const st = services.projection.state;
  const stored = s.embeddings[services.embedder.model] ?? 0;
  return {
    ...s,
    store: { backend: services.describe.store, location: services.describe.storeLocation },
    embedder: { model: services.embedder.model, dim: services.embedder.dim, kind: services.embedder.kind },
    projections: {
      lexical: { atoms_indexed: st.atoms, lag_atoms: Math.max(0, s.atoms.total - st.atoms), mark: st.mark },
      vector: { backend: services.vectorIndex.name, model: services.vectorIndex.model, vectors, lag_vectors: Math.max(0, stored - vectors) },
    },
  };
}
