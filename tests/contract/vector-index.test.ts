/**
 * Runs the VectorIndex contract against every adapter available: the embedded FlatVectorIndex always, the Qdrant
 * adapter against the Qdrant REST stand-in always, and against a real Qdrant only when QDRANT_URL is set (a unique
 * collection per test, dropped after; QDRANT_API_KEY is sent when set).
 */
import { afterAll, expect, test } from "bun:test";
import { AtomCatalog } from "../../src/adapters/embedded/atom-catalog.ts";
import { FlatVectorIndex } from "../../src/adapters/embedded/flat-index.ts";
import { QdrantVectorIndex } from "../../src/adapters/qdrant/index.ts";
import { qdrantSkipReason } from "../support/contract.ts";
import { rejection } from "../support/errors.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";
import { CONTRACT_DIM, vectorIndexContract } from "./vector-index.contract.ts";

const MODEL = "contract-model";

vectorIndexContract("FlatVectorIndex (embedded)", async () => ({
  index: new FlatVectorIndex(MODEL, CONTRACT_DIM, new AtomCatalog()),
  dispose: async () => {},
}));

const standin = await QdrantRestStandin.start();
afterAll(() => standin.stop());
let opened = 0;

vectorIndexContract("QdrantVectorIndex against the Qdrant REST stand-in", async () => {
  const collection = `contract_${++opened}`;
  const index = new QdrantVectorIndex({
    url: standin.url,
    collection,
    model: MODEL,
    dim: CONTRACT_DIM,
    timeoutMs: 5000,
  });
  return { index, dispose: async () => void standin.collections.delete(collection) };
});

// Tests may read the environment (only src/ may not); a real server is used only when it is named.
const QDRANT_URL = process.env.QDRANT_URL;
const run = `${process.pid}_${Date.now().toString(36)}`;
const qdrantSkip = await qdrantSkipReason();

vectorIndexContract(
  "QdrantVectorIndex against a real Qdrant (QDRANT_URL)",
  async () => {
    const url = QDRANT_URL ?? "";
    const collection = `pegas_contract_${run}_${++opened}`;
    const index = new QdrantVectorIndex({
      url,
      apiKey: process.env.QDRANT_API_KEY,
      collection,
      model: MODEL,
      dim: CONTRACT_DIM,
    });
    await index.prepare();
    // Dropping the collection through the adapter's own reset would re-create it; a plain DELETE drops it for good.
    const drop = async () => {
      const headers: Record<string, string> = process.env.QDRANT_API_KEY
        ? { "api-key": process.env.QDRANT_API_KEY }
        : {};
      await fetch(`${url.replace(/\/+$/, "")}/collections/${collection}`, { method: "DELETE", headers });
    };
    return { index, dispose: drop };
  },
  qdrantSkip,
);

/**
 * A collection of another dimension than the embedder's is a clear error and is never written to: on the stand-in
 * always, on a real Qdrant when QDRANT_URL is set.
 */
function dimensionMismatch(name: string, url: () => string | undefined, skip: string | null, apiKey?: string): void {
  test.skipIf(skip !== null)(`${name}: a collection of another dimension is refused and never written to`, async () => {
    const collection = `pegas_dim_${run}_${++opened}`;
    const base = { url: url()!, apiKey, collection, model: MODEL, timeoutMs: 5000 };
    const first = new QdrantVectorIndex({ ...base, dim: CONTRACT_DIM });
    try {
      await first.upsert([{ atomId: 1, vector: new Float32Array(CONTRACT_DIM).fill(1 / Math.sqrt(CONTRACT_DIM)) }]);
      const other = new QdrantVectorIndex({ ...base, dim: CONTRACT_DIM * 2 });
      const err = await rejection(other.upsert([{ atomId: 2, vector: new Float32Array(CONTRACT_DIM * 2).fill(0.1) }]));
      expect(err.code).toBe("INVALID_INPUT");
      expect(err.message).toContain(collection);
      expect(err.message).toContain(String(CONTRACT_DIM * 2));
      expect(await first.count()).toBe(1);
    } finally {
      await first.reset().catch(() => {});
      const headers: Record<string, string> = apiKey ? { "api-key": apiKey } : {};
      await fetch(`${url()!.replace(/\/+$/, "")}/collections/${collection}`, { method: "DELETE", headers }).catch(
        () => {},
      );
    }
  });
}

dimensionMismatch("Qdrant REST stand-in", () => standin.url, null);
dimensionMismatch("real Qdrant (QDRANT_URL)", () => QDRANT_URL, qdrantSkip, process.env.QDRANT_API_KEY);
