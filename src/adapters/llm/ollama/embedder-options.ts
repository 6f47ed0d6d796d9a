/** The options of the Ollama embedder (embedder.ts) and the checks of its options and inputs. */
import { PegasError } from "../../../errors.ts";

/** The slice of configuration the Ollama embedder takes (from `ollama_*` and `embed_*` in src/config.ts). */
export interface OllamaEmbedderOptions {
  /** Ollama base URL, e.g. `http://127.0.0.1:11434`. */
  host: string;
  /** Ollama model name, e.g. `embeddinggemma-2-740m-Q8_0`; stored as the embedding's model. */
  model: string;
  /** Dimension the model must return, checked by `ready()`; default 768 (EmbeddingGemma). */
  expectedDim?: number;
  /** Ollama `keep_alive`: how long the model stays loaded after a request ("5m", "0", or seconds as a number). */
  keepAlive: string | number;
  /** Most requests in flight at once from this embedder (≥ 1). */
  concurrency: number;
  /** Texts per `/api/embed` request (≥ 1). */
  batchSize: number;
  /** Bound on one HTTP request, in milliseconds (waiting for a concurrency slot is not counted). */
  timeoutMs: number;
}

/** `v` when it is an integer ≥ 1. @throws PegasError INVALID_INPUT naming the option. */
export function positiveInt(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
    throw new PegasError("INVALID_INPUT", `Ollama embedder option '${name}' is ${String(v)}, expected an integer ≥ 1`);
  }
  return v;
}

/** @throws PegasError INVALID_INPUT naming the index of the first empty or whitespace-only text. */
export function checkTexts(texts: string[]): void {
  if (!Array.isArray(texts)) throw new PegasError("INVALID_INPUT", "texts to embed must be an array of strings");
  texts.forEach((t, i) => {
    if (typeof t !== "string" || t.trim() === "") {
      throw new PegasError("INVALID_INPUT", `cannot embed empty text (input ${i})`, { hint: "give some text" });
    }
  });
}
