/** Helpers for tests of the Ollama adapter against the stand-in server of ollama-stub.ts. */
import { OllamaEmbedder, type OllamaEmbedderOptions } from "../../src/adapters/llm/ollama/embedder.ts";
import { l2normalize } from "../../src/ports/models/embedder.ts";
import { type OllamaStub, STUB_MODEL, stubVector } from "./ollama-stub.ts";

/** An OllamaEmbedder pointed at `stub` (768 dimensions, batch 4, 2 in flight, 5 s timeout), with overrides. */
export function stubEmbedder(stub: OllamaStub, over: Partial<OllamaEmbedderOptions> = {}): OllamaEmbedder {
  return new OllamaEmbedder({
    host: stub.url,
    model: STUB_MODEL,
    expectedDim: 768,
    keepAlive: "5m",
    concurrency: 2,
    batchSize: 4,
    timeoutMs: 5000,
    ...over,
  });
}

/** The unit vector a correct adapter returns for `input` (prompt included) from the stub. */
export function expectedVector(stub: OllamaStub, input: string, model = STUB_MODEL): Float32Array {
  return l2normalize(Float32Array.from(stubVector(model, input, stub.dim)));
}

/** The largest absolute component difference between two vectors (Infinity when the lengths differ). */
export function maxDiff(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** A port on 127.0.0.1 where nothing listens: bound by a server that is stopped at once. */
export async function closedPort(): Promise<number> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port as number;
  await s.stop(true);
  return port;
}
