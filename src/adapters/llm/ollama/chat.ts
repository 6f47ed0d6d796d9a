/**
 * One structured-output chat call to Ollama (`POST /api/chat`, non-streaming), shared by the Ollama distiller and
 * judge: the JSON Schema goes in `format` (Ollama turns it into a grammar), `num_ctx` and `num_predict` are always
 * set (Ollama's defaults are small and vary by release), temperature is 0, at most `concurrency` calls are in flight
 * per instance. Failures become {@link LlmFailure}s with a quarantine reason (context_length, timeout, http).
 * Source of the request fields: Ollama's API documentation, "Generate a chat completion" and "Structured outputs".
 */
import type { Message } from "ollama";
import { PegasError } from "../../../errors.ts";
import { LlmFailure } from "../../../ports/models/distill-failure.ts";
import type { RawAnswer } from "../parse.ts";
import type { PromptMessage } from "../prompt.ts";
import { chatRequest } from "./client.ts";
import { cancelled, displayHost, isContextLengthError, isTimeout, type OllamaTarget } from "./failures.ts";
import { Semaphore } from "./semaphore.ts";

/** The slice of configuration a chat adapter takes (`ollama_*`, `llm_model`, `distill_*` in src/config.ts). */
export interface OllamaChatOptions {
  /** Ollama base URL, e.g. `http://127.0.0.1:11434`. */
  host: string;
  /** Chat model name, e.g. `qwen3:8b`. */
  model: string;
  /** Ollama `keep_alive`: how long the model stays loaded ("5m", "0", or seconds as a number). */
  keepAlive: string | number;
  /** Most chat calls in flight at once from this instance (≥ 1); ignored when `slots` is given. */
  concurrency: number;
  /** Bound on one HTTP request in milliseconds (waiting for a slot is not counted). */
  timeoutMs: number;
  /** Ollama `options.num_ctx`: context window in tokens, prompt and answer together. */
  numCtx: number;
  /** Ollama `options.num_predict`: most tokens of one answer (< numCtx). */
  numPredict: number;
  /** A semaphore shared with other Ollama adapters, so that all of them together respect one limit. */
  slots?: Semaphore;
}

function positiveInt(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
    throw new PegasError("INVALID_INPUT", `Ollama chat option '${name}' is ${String(v)}, expected an integer ≥ 1`);
  }
  return v;
}

/** Structured-output chat calls to one model on one Ollama server. */
export class OllamaChat {
  readonly target: OllamaTarget;
  readonly #opts: OllamaChatOptions;
  readonly #slots: Semaphore;

  /** @throws PegasError INVALID_INPUT when the host or model is missing or a number is out of range. */
  constructor(opts: OllamaChatOptions) {
    if (!opts.host)
      throw new PegasError("INVALID_INPUT", "Ollama chat needs a host", { hint: "set OLLAMA_HOST (ollama_host)" });
    if (!opts.model)
      throw new PegasError("INVALID_INPUT", "Ollama chat needs a model", { hint: "set PEGAS_LLM_MODEL (llm_model)" });
    positiveInt("timeoutMs", opts.timeoutMs);
    const ctx = positiveInt("numCtx", opts.numCtx);
    if (positiveInt("numPredict", opts.numPredict) >= ctx) {
      throw new PegasError(
        "INVALID_INPUT",
        `distill_num_predict (${opts.numPredict}) must be below distill_num_ctx (${ctx})`,
        {
          hint: "the answer shares the context window with the prompt; e.g. num_ctx 8192 with num_predict 2048",
        },
      );
    }
    this.#opts = opts;
    this.#slots = opts.slots ?? new Semaphore(positiveInt("concurrency", opts.concurrency));
    this.target = { host: opts.host, shown: displayHost(opts.host), model: opts.model, task: "chat" };
  }

  /** `model '<model>' on <host>` (credentials removed), for messages. */
  get who(): string {
    return `model '${this.target.model}' on ${this.target.shown}`;
  }

  /**
   * Sends the system prompt and `messages` with `format` (a JSON Schema) and returns the answer text and whether it
   * stopped on length. The answer is not checked here.
   * @throws PegasError CANCELLED when `signal` aborts; LlmFailure (LLM_FAILED) with reason context_length, timeout
   *   or http (unreachable, model not pulled, HTTP errors).
   */
  async send(
    system: string,
    messages: PromptMessage[],
    format: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<RawAnswer> {
    const release = await this.#slots.acquire(signal).catch((reason) => {
      throw cancelled(this.target, reason);
    });
    try {
      const all: Message[] = [{ role: "system", content: system }, ...messages];
      const { numCtx, numPredict, keepAlive, timeoutMs } = this.#opts;
      const request = {
        model: this.target.model,
        messages: all,
        format,
        stream: false as const,
        keep_alive: keepAlive,
        options: { num_ctx: numCtx, num_predict: numPredict, temperature: 0 },
      };
      const res = await chatRequest(this.target, request, signal, timeoutMs).catch((err) => {
        throw this.#failure(err);
      });
      const content = (res as { message?: { content?: unknown } } | null)?.message?.content;
      return { text: typeof content === "string" ? content : "", stoppedOnLength: res?.done_reason === "length" };
    } finally {
      release();
    }
  }

  /** A transport failure as an LlmFailure with its quarantine reason; CANCELLED passes through. */
  #failure(err: unknown): unknown {
    if (!(err instanceof PegasError) || err.code !== "LLM_FAILED") return err;
    if (isContextLengthError(err)) {
      return new LlmFailure(
        `the prompt exceeds the context of ${this.who} (num_ctx ${this.#opts.numCtx}): ${err.message}`,
        "context_length",
        err.message,
        {
          hint: "lower chunk_chars or raise distill_num_ctx; the same input would fail again, so it was not retried",
          cause: err,
        },
      );
    }
    return new LlmFailure(err.message, isTimeout(err) ? "timeout" : "http", err.message, {
      hint: err.hint,
      cause: err,
    });
  }
}
