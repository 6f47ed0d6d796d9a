/**
 * `reembed`: every atom gets a vector of another model (kept beside the current model's), that model's own Qdrant
 * collection is filled (here the Qdrant REST stand-in, a test server, not Qdrant), and switching models is a
 * configuration change: services opened with the new model search its vectors with nothing else to do.
 */
import { expect, test } from "bun:test";
import { defaultCollectionName } from "../../src/adapters/qdrant/ids.ts";
import { createServices, makeEmbedderFor, makeVectorSink } from "../../src/wiring/services.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { reembed } from "../../src/core/projections/rebuild.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";
import { fixture, suiteServices, testConfig } from "../support/services.ts";

const skip = await pgSkipReason();
if (skip) console.error(`skipped reembed on PostgreSQL: ${skip}`);
const standin = await QdrantRestStandin.start();
const suite = suiteServices("postgres", { qdrant_url: standin.url }, { skip, after: () => standin.stop() });

test.skipIf(Boolean(skip))(
  "reembed fills the new model's vectors and collection; switching is a config change",
  async () => {
    const s = suite.services;
    await ingest(s, { path: fixture("text/ru_chekhov_palata_no6.txt") }, { trustedPath: true });
    const before = await stats(s);
    const live = before.atoms.total - (before.atoms.by_status.retracted ?? 0);

    const next = await makeEmbedderFor(s.config, "pegas-lexical-hash-v1-d128");
    const sink = await makeVectorSink(s.config, next.model, next.dim);
    const progress: number[] = [];
    const r = await reembed(s, next, sink, (p) => progress.push(p.done));
    expect(r).toMatchObject({ model: "pegas-lexical-hash-v1-d128", dim: 128, embedded: live });
    expect(r.projection?.held).toEqual({ atom: live });
    expect(standin.collections.get(defaultCollectionName(next.model, 128))?.points.size).toBe(live);
    expect(progress.at(-1)).toBe(live);
    // The current model's vectors are untouched; a second run has nothing to do.
    expect((await stats(s)).embeddings).toEqual({ ...before.embeddings, [next.model]: live });
    expect((await reembed(s, next, null)).embedded).toBe(0);

    // Switch: the same database, the local embedder at dimension 128.
    const switched = await createServices(testConfig({ ...s.config, local_embed_dim: 128, log_level: "warn" }));
    try {
      const st = await stats(switched);
      expect(st.embedder.model).toBe(next.model);
      expect(st.projections.vector.lag_vectors).toBe(0);
      expect(st.projections.external[0]).toMatchObject({ name: "qdrant", drift: { atom: 0 } });
      const hits = await search(switched, { query: "больничная палата", k: 3, mode: "vector" });
      expect(hits.hits.length).toBe(3);
      expect(hits.degraded).toBeUndefined();
    } finally {
      await switched.close(0);
    }
  },
  120_000,
);

test.skipIf(Boolean(skip))("an Ollama model without OLLAMA_HOST is a clear error", async () => {
  await rejectsWith(makeEmbedderFor(suite.services.config, "nomic-embed-text"), "INVALID_INPUT");
});
