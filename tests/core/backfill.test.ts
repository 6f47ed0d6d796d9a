/** After a switch of embedder (here: the local embedder's dimension), old atoms get vectors of the new model. */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { backfillEmbeddings } from "../../src/core/projections/backfill.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { createServices } from "../../src/wiring/services.ts";
import { migratedPgliteDir, testConfig } from "../support/services.ts";

test("backfill embeds atoms that lack a vector of the active model, once", async () => {
  const dir = await migratedPgliteDir("pegas-backfill-"); // created and migrated: the first start is not the subject
  try {
    const first = await createServices(testConfig({ data_dir: dir, log_level: "warn" }));
    for (const claim of [
      "Флигель стоит во дворе больницы.",
      "Доктор любит ум и честность.",
      "The ward has five beds.",
    ]) {
      await storeAtom(first, { type: "fact", claim });
    }
    await first.close(0);

    const second = await createServices(testConfig({ data_dir: dir, log_level: "warn", local_embed_dim: 64 }));
    try {
      expect(second.embedder.model).toBe("pegas-lexical-hash-v1-d64");
      expect((await stats(second)).projections.vector.vectors).toBe(0);
      expect((await search(second, { query: "флигель во дворе", mode: "vector" })).hits).toEqual([]);
      expect(await backfillEmbeddings(second)).toBe(3);
      expect(await backfillEmbeddings(second)).toBe(0);
      const hits = (await search(second, { query: "флигель во дворе", mode: "vector" })).hits;
      expect(hits[0].claim).toBe("Флигель стоит во дворе больницы.");
      const s = await stats(second);
      expect(s.embeddings["pegas-lexical-hash-v1-d64"]).toBe(3);
      expect(s.embeddings["pegas-lexical-hash-v1-d256"]).toBe(3);
    } finally {
      await second.close(0);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
