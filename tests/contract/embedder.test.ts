/**
 * Runs the Embedder contract against every adapter available: the local lexical embedder always, the Ollama
 * adapter against the stand-in test server always, and against a real Ollama only when OLLAMA_HOST is set
 * (model from PEGAS_EMBED_MODEL or the default, dimension from PEGAS_EMBED_DIM or 768).
 */
import { afterAll } from "bun:test";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { OllamaEmbedder } from "../../src/adapters/llm/ollama/embedder.ts";
import { DEFAULT_EMBED_MODEL } from "../../src/config.ts";
import { ollamaSkipReason, ollamaUrl } from "../support/contract.ts";
import { STUB_MODEL, startOllamaStub } from "../support/ollama-stub.ts";
import { embedderContract } from "./embedder.contract.ts";

embedderContract("LexicalHashEmbedder (256)", () => new LexicalHashEmbedder(256));
embedderContract("LexicalHashEmbedder (768)", () => new LexicalHashEmbedder(768));

const stub = startOllamaStub({ dim: 768 });
afterAll(() => stub.stop());

embedderContract(
  "OllamaEmbedder against the stand-in server",
  () =>
    new OllamaEmbedder({
      host: stub.url,
      model: STUB_MODEL,
      expectedDim: 768,
      keepAlive: "5m",
      concurrency: 2,
      batchSize: 3,
      timeoutMs: 5000,
    }),
  { meaningful: false },
);

// Tests may read the environment (only src/ may not); a real server is used only when it is named.
const OLLAMA_HOST = process.env.OLLAMA_HOST ?? "";
const model = process.env.PEGAS_EMBED_MODEL || DEFAULT_EMBED_MODEL;
embedderContract(
  `OllamaEmbedder against a real Ollama (OLLAMA_HOST=${OLLAMA_HOST || "unset"}, ${model})`,
  () =>
    new OllamaEmbedder({
      host: ollamaUrl(OLLAMA_HOST),
      model,
      expectedDim: Number(process.env.PEGAS_EMBED_DIM || 768),
      keepAlive: "5m",
      concurrency: 2,
      batchSize: 16,
      timeoutMs: 120_000,
    }),
  { timeoutMs: 180_000 },
  await ollamaSkipReason(),
);
