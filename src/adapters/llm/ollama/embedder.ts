/**
 * Embedder over an Ollama server (`/api/embed`), meant for EmbeddingGemma (768 dimensions): batched, at most
 * `concurrency` requests in flight per embedder, every vector checked and L2-normalized, all-or-nothing per call.
 */
import type { EmbedRequest } from "ollama";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import type { Embedder } from "../../../ports/models/embedder.ts";
import { embedRequest, ollamaCall } from "./client.ts";
import { cancelled, displayHost, isContextLengthError, type OllamaTarget } from "./failures.ts";
import { checkTexts, type OllamaEmbedderOptions, positiveInt } from "./embedder-options.ts";

export type { OllamaEmbedderOptions };
import { documentPrompt, type PromptFn, queryPrompt } from "./prompts.ts";
import { Semaphore } from "./semaphore.ts";
import { firstHalf, toUnitVector } from "./vectors.ts";

/** Text of the readiness probe; short, so that the probe costs almost nothing. */
const PROBE_TEXT = "pegas-memory readiness probe";

/**
 * {@link Embedder} over Ollama. Documents get EmbeddingGemma's document prompt, queries its query prompt
 * (see prompts.ts). `dim` is the expected dimension until `ready()` has read and verified the real one.
 * Errors: PegasError INVALID_INPUT (empty text), CANCELLED (signal aborted), LLM_FAILED (unreachable, model not
 * pulled, timeout, dimension mismatch, bad or missing vectors, input beyond the context even when halved).
 */
export class OllamaEmbedder implements Embedder {
  readonly kind = "neural" as const;
  /**
   * Near-duplicate candidate cosine: DESIGN.md's 0.90 for EmbeddingGemma, NOT calibrated (no Ollama on the build
   * machine). Calibrate with `OLLAMA_HOST=… bun bench/calibrate-dedup.ts` and set the value it reports; until then
   * `near_dup_threshold` in the configuration overrides it.
   */
  readonly nearDupThreshold = 0.9;
  readonly model: string;
  readonly expectedDim: number;
  readonly #target: OllamaTarget;
  readonly #keepAlive: string | number;
  readonly #batchSize: number;
  readonly #timeoutMs: number;
  readonly #slots: Semaphore;
  #verifiedDim = 0;
  #ready?: Promise<void>;

  /** @throws PegasError INVALID_INPUT when an option is out of range. */
  constructor(opts: OllamaEmbedderOptions) {
    if (!opts.host) throw new PegasError("INVALID_INPUT", "Ollama embedder needs a host", { hint: "set OLLAMA_HOST" });
    if (!opts.model)
      throw new PegasError("INVALID_INPUT", "Ollama embedder needs a model", { hint: "set PEGAS_EMBED_MODEL" });
    this.model = opts.model;
    this.expectedDim = positiveInt("expectedDim", opts.expectedDim ?? 768);
    this.#batchSize = positiveInt("batchSize", opts.batchSize);
    this.#timeoutMs = positiveInt("timeoutMs", opts.timeoutMs);
    this.#slots = new Semaphore(positiveInt("concurrency", opts.concurrency));
    this.#keepAlive = opts.keepAlive;
    this.#target = { host: opts.host, shown: displayHost(opts.host), model: opts.model };
  }

  /** Vector dimension: verified after `ready()`, the expected one before. */
  get dim(): number {
    return this.#verifiedDim || this.expectedDim;
  }

  /**
   * Probes the model once (one short embedding) and checks its dimension against `expectedDim`. A failed probe is
   * forgotten, so a later call probes again (Ollama may have been started meanwhile).
   * @throws PegasError LLM_FAILED when unreachable, the model is not pulled, or the dimension differs.
   */
  ready(): Promise<void> {
    this.#ready ??= this.#probe().catch((err) => {
      this.#ready = undefined;
      throw err;
    });
    return this.#ready;
  }

  /**
   * Asks Ollama whether the model is pulled (`GET /api/tags`: no embedding, no model load, no GPU memory taken), for
   * /readyz; not counted against `concurrency`, so a busy embedder still answers it.
   * @throws PegasError LLM_FAILED when Ollama does not answer within `timeoutMs` or the model is not among those it holds.
   */
  async probe(timeoutMs: number): Promise<void> {
    const { models } = await ollamaCall(this.#target, undefined, timeoutMs, (c) => c.list());
    const names = new Set(models.map((m) => m.name));
    if (names.has(this.model) || (!this.model.includes(":") && names.has(`${this.model}:latest`))) return;
    throw new PegasError(
      "LLM_FAILED",
      `model '${this.model}' is not pulled on ${this.#target.shown}: run \`ollama pull ${this.model}\``,
      {
        hint: "or set PEGAS_EMBED_MODEL (embed_model) to a model that `ollama list` shows",
      },
    );
  }

  /** Embeds passages with the document prompt; vectors in input order, unit norm; all or nothing. */
  async embedDocuments(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    checkTexts(texts);
    if (texts.length === 0) return [];
    await this.#readyUnless(signal);
    return this.#embedAll(texts, documentPrompt, signal);
  }

  /** Embeds one search query with the query prompt; unit norm. */
  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    checkTexts([text]);
    await this.#readyUnless(signal);
    const [v] = await this.#embedAll([text], queryPrompt, signal);
    return v;
  }

  async #probe(): Promise<void> {
    const release = await this.#slots.acquire();
    try {
      const req = { model: this.model, input: [documentPrompt(PROBE_TEXT)], keep_alive: this.#keepAlive };
      const raw = (await embedRequest(this.#target, req, undefined, this.#timeoutMs)).embeddings as unknown;
      const first = Array.isArray(raw) && raw.length === 1 ? (raw[0] as unknown) : undefined;
      if (!Array.isArray(first)) {
        throw this.#failed(`did not return one vector for the readiness probe`, "check the model with `ollama show`");
      }
      if (first.length !== this.expectedDim) {
        throw this.#failed(
          `returns ${first.length}-dimensional vectors, but ${this.expectedDim} are expected`,
          `set PEGAS_EMBED_DIM=${first.length} (embed_dim) if this model is the one you want, ` +
            `or set PEGAS_EMBED_MODEL (embed_model) to a ${this.expectedDim}-dimensional model`,
        );
      }
      const v = toUnitVector(first, first.length);
      if (typeof v === "string") throw this.#failed(`returned a bad vector for the readiness probe: ${v}`);
      this.#verifiedDim = first.length;
      log.info("ollama embedder ready", { host: this.#target.shown, model: this.model, dim: this.#verifiedDim });
    } finally {
      release();
    }
  }

  /** Waits for `ready()` but gives up (CANCELLED) as soon as `signal` aborts; the probe itself goes on. */
  async #readyUnless(signal?: AbortSignal): Promise<void> {
    if (!signal) return this.ready();
    if (signal.aborted) throw cancelled(this.#target, signal.reason);
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(cancelled(this.#target, signal.reason));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([this.ready(), aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Runs all batches concurrently (bounded by the semaphore); the first failure cancels the rest. */
  async #embedAll(texts: string[], prompt: PromptFn, signal?: AbortSignal): Promise<Float32Array[]> {
    if (signal?.aborted) throw cancelled(this.#target, signal.reason);
    const inner = new AbortController();
    const onAbort = () => inner.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const out = new Array<Float32Array>(texts.length);
    let failure: unknown;
    const starts: number[] = [];
    for (let s = 0; s < texts.length; s += this.#batchSize) starts.push(s);
    try {
      // Every batch is awaited, even after a failure, so that no request is left running when this returns.
      await Promise.all(
        starts.map(async (start) => {
          try {
            const batch = texts.slice(start, start + this.#batchSize);
            const vs = await this.#runBatch(batch, start, prompt, inner.signal);
            for (const [i, v] of vs.entries()) out[start + i] = v;
          } catch (err) {
            if (failure === undefined) failure = err;
            inner.abort();
          }
        }),
      );
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    if (failure !== undefined) throw failure;
    return out;
  }

  /** One batch inside one concurrency slot; falls back to one text at a time on a context-length error. */
  async #runBatch(texts: string[], offset: number, prompt: PromptFn, signal: AbortSignal): Promise<Float32Array[]> {
    const release = await this.#slots.acquire(signal).catch((reason) => {
      throw cancelled(this.#target, reason);
    });
    try {
      try {
        return await this.#embedChecked(texts.map(prompt), offset, signal, false);
      } catch (err) {
        if (!isContextLengthError(err)) throw err;
      }
      // Ollama does not say which input was too long, so each is tried alone.
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) {
        out.push(await this.#embedFitting(texts[i], offset + i, prompt, signal, texts.length === 1));
      }
      return out;
    } finally {
      release();
    }
  }

  /** Embeds one text; beyond the context it retries once with its first half and `truncate: true`. */
  async #embedFitting(
    text: string,
    index: number,
    prompt: PromptFn,
    signal: AbortSignal,
    triedWhole: boolean,
  ): Promise<Float32Array> {
    if (!triedWhole) {
      try {
        return (await this.#embedChecked([prompt(text)], index, signal, false))[0];
      } catch (err) {
        if (!isContextLengthError(err)) throw err;
      }
    }
    const half = firstHalf(text);
    log.warn("embedding input exceeds the model context; its vector will cover only its first half", {
      model: this.model,
      index,
      chars: text.length,
      keptChars: half.length,
    });
    try {
      return (await this.#embedChecked([prompt(half)], index, signal, true))[0];
    } catch (err) {
      if (!isContextLengthError(err)) throw err;
      throw this.#failed(
        `cannot embed input ${index} (${text.length} chars): it exceeds the model's context length ` +
          `even halved to ${half.length} chars`,
        "split the text into smaller chunks (chunk_chars) and retry",
        err,
      );
    }
  }

  /** One request; checks the vector count and every vector; throws rather than return part of a batch. */
  async #embedChecked(
    inputs: string[],
    offset: number,
    signal: AbortSignal,
    truncate: boolean,
  ): Promise<Float32Array[]> {
    const req: EmbedRequest = { model: this.model, input: inputs, keep_alive: this.#keepAlive };
    if (truncate) req.truncate = true;
    const raw = (await embedRequest(this.#target, req, signal, this.#timeoutMs)).embeddings as unknown;
    const last = offset + inputs.length - 1;
    if (!Array.isArray(raw) || raw.length !== inputs.length) {
      const got = Array.isArray(raw) ? raw.length : "no";
      const what = `returned ${got} vectors for ${inputs.length} inputs (inputs ${offset}..${last})`;
      throw this.#failed(what, "nothing from this batch was kept; retry");
    }
    return raw.map((r, i) => {
      const v = toUnitVector(r, this.dim);
      if (typeof v === "string") {
        const hint = "nothing from this batch was kept; retry, or check the model with `ollama show`";
        throw this.#failed(`returned a bad vector for input ${offset + i}: ${v}`, hint);
      }
      return v;
    });
  }

  #failed(what: string, hint?: string, cause?: unknown): PegasError {
    return new PegasError("LLM_FAILED", `model '${this.model}' on ${this.#target.shown} ${what}`, { hint, cause });
  }
}
