/**
 * A vector the embedder cannot return right (NaN or all zeros, from the stand-in Ollama test server of
 * ollama-stub.ts, which is not Ollama) quarantines that chunk with reason `embedding` instead of failing the whole
 * document; the other chunks are stored, and a retry once the embedder answers right stores the chunk's atoms.
 */
import { describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { retryQuarantine } from "../../src/core/documents/quarantine.ts";
import { search } from "../../src/core/search/search.ts";
import { STUB_MODEL, startOllamaStub } from "../support/ollama-stub.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const skip = await pgSkipReason();
const stub = startOllamaStub();
const t = suiteServices(
  "postgres",
  { ollama_host: stub.url, embed_model: STUB_MODEL, chunk_chars: 100 },
  { skip, after: () => stub.stop() },
);

const TEXT = [
  "The ward stands in the hospital yard. It is surrounded by burdock and nettles.",
  "POISON paragraph: the embedder returns a bad vector for every atom of this one.",
  "Andrey Yefimitch Ragin was a remarkable man. He had been very devout in his youth.",
].join("\n\n");

describe.skipIf(skip !== null)("bad vectors quarantine their chunk", () => {
  for (const failure of ["nan", "zero"] as const) {
    test(`${failure} vectors: the chunk is quarantined, the rest stored; a retry stores it`, async () => {
      stub.failure = failure;
      stub.failOn = (input) => input.includes("POISON");
      // Texts differ per case: the embedder may cache the vectors of texts it embedded before.
      const r = await ingest(t.services, {
        text: TEXT.replaceAll("POISON", `POISON ${failure}`).replaceAll("nettles.", `nettles (${failure}).`),
      });
      expect(r.chunks).toBeGreaterThanOrEqual(3);
      expect(r.chunks_quarantined).toBe(1);
      expect(r.warnings.join(" ")).toContain("could not be embedded");
      const open = await t.services.ingestWrites.openQuarantine(10, r.doc_id!);
      expect(open.map((q) => [q.reason, q.chunkText.includes("POISON")])).toEqual([["embedding", true]]);
      const hit = (await search(t.services, { query: "POISON paragraph", k: 5, mode: "lexical", doc_id: r.doc_id! }))
        .hits;
      expect(hit.some((h) => h.content.includes("POISON"))).toBe(false);
      expect(
        (await search(t.services, { query: "burdock nettles", k: 1, mode: "lexical", doc_id: r.doc_id! })).hits.length,
      ).toBe(1);

      const again = await retryQuarantine(t.services, { doc_id: r.doc_id! });
      expect(again).toMatchObject({ retried: 1, resolved: 0 });
      expect(again.failed[0].reason).toBe("embedding");
      stub.failure = null;
      const fixed = await retryQuarantine(t.services, { doc_id: r.doc_id! });
      expect(fixed).toMatchObject({ retried: 1, resolved: 1 });
      expect(
        (await search(t.services, { query: "POISON paragraph", k: 5, mode: "lexical", doc_id: r.doc_id! })).hits.length,
      ).toBeGreaterThan(0);
    });
  }

  test("when no atom can be embedded, the document fails whole and nothing is stored", async () => {
    stub.failure = "nan";
    stub.failOn = () => true;
    const before = (await t.services.maintenance.stats()).documents.total;
    await rejectsWith(ingest(t.services, { text: "Only one paragraph, and its vector is broken." }), "LLM_FAILED");
    expect((await t.services.maintenance.stats()).documents.total).toBe(before);
    stub.failure = null;
  });
});
