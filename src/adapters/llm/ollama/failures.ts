/**
 * Translation of what goes wrong between us and an Ollama server (HTTP errors of the `ollama` client, network
 * errors of `fetch`, timeouts, cancellation) into {@link PegasError}s that name the host and the model and say what
 * to do next. The core never sees the client's own error; it stays in `cause`.
 */
import { networkCode } from "../../../platform/network-codes.ts";
import { PegasError } from "../../../errors.ts";

/** Where requests go: `host` as configured (used for requests), `shown` without credentials (used in messages). */
export interface OllamaTarget {
  readonly host: string;
  readonly shown: string;
  readonly model: string;
  /** What the requests do, for the wording of errors: `embed` (the default) or `chat`. */
  readonly task?: OllamaTask;
}

/** The kind of request an {@link OllamaTarget} sends; it changes only how failures are worded. */
export type OllamaTask = "embed" | "chat";

const WORDING: Record<
  OllamaTask,
  Record<"noun" | "request" | "response" | "failed" | "path" | "setting" | "slowHint", string>
> = {
  embed: {
    noun: "embedding",
    request: "an embedding request",
    response: "an embedding response",
    failed: "failed to embed",
    path: "/api/embed",
    setting: "PEGAS_EMBED_MODEL (embed_model)",
    slowHint: "lower ollama_batch_size",
  },
  chat: {
    noun: "chat",
    request: "a chat request",
    response: "a chat response",
    failed: "failed a chat request",
    path: "/api/chat",
    setting: "PEGAS_LLM_MODEL (llm_model)",
    slowHint: "lower distill_num_predict",
  },
};

const wordsFor = (target: OllamaTarget) => WORDING[target.task ?? "embed"];

/** Errors made by {@link timedOut}, so that callers can tell a timeout from other failures. */
const TIMEOUTS = new WeakSet<object>();

/** True when `err` is the LLM_FAILED error of {@link timedOut}. */
export function isTimeout(err: unknown): boolean {
  return typeof err === "object" && err !== null && TIMEOUTS.has(err);
}

/** The configured host without user:password, for messages and logs. */
export function displayHost(host: string): string {
  try {
    const u = new URL(host);
    u.username = "";
    u.password = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return host.replace(/\/\/[^/@]*@/, "//");
  }
}

/** HTTP status of an error thrown by the `ollama` client (its `ResponseError.status_code`), else undefined. */
function httpStatus(err: unknown): number | undefined {
  const status = (err as { status_code?: unknown } | null)?.status_code;
  return typeof status === "number" ? status : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * True when `err` (or the error it wraps) is Ollama refusing an input longer than the model's context: HTTP 400
 * or 500 whose message mentions the context or the length (Ollama says e.g. "input length exceeds the context
 * length"; the wording has changed between releases, hence the loose match).
 */
export function isContextLengthError(err: unknown): boolean {
  const inner = err instanceof PegasError && err.cause !== undefined ? err.cause : err;
  const status = httpStatus(inner);
  if (status !== 400 && status !== 500) return false;
  return /context|too long|length/i.test(messageOf(inner));
}

/** Network failures of Bun's and Node's fetch, by their error codes. */
function isNetworkError(err: unknown): boolean {
  return networkCode(err) !== undefined;
}

/** The request was cancelled by the caller's AbortSignal. */
export function cancelled(target: OllamaTarget, cause?: unknown): PegasError {
  return new PegasError(
    "CANCELLED",
    `${wordsFor(target).noun} with model '${target.model}' on ${target.shown} was cancelled`,
    { cause },
  );
}

/** The request did not finish within `timeoutMs`. */
export function timedOut(target: OllamaTarget, timeoutMs: number, cause?: unknown): PegasError {
  const w = wordsFor(target);
  const err = new PegasError(
    "LLM_FAILED",
    `Ollama at ${target.shown} did not answer ${w.request} for model '${target.model}' within ${timeoutMs} ms`,
    { hint: `raise ollama_timeout_ms, ${w.slowHint}, or check what holds the GPU with \`ollama ps\``, cause },
  );
  TIMEOUTS.add(err);
  return err;
}

/**
 * Wraps anything an Ollama request threw into a PegasError LLM_FAILED with the host and model named: model not
 * pulled (HTTP 404 about a model), a server that is not Ollama (other 404), other HTTP errors, connection failures,
 * responses that are not JSON. A PegasError passes through unchanged.
 */
export function describeFailure(err: unknown, target: OllamaTarget): PegasError {
  if (err instanceof PegasError) return err;
  const { shown, model } = target;
  const w = wordsFor(target);
  const status = httpStatus(err);
  const msg = messageOf(err);
  const fail = (message: string, hint?: string) => new PegasError("LLM_FAILED", message, { hint, cause: err });
  if (status === 404 && /model/i.test(msg)) {
    return fail(
      `model '${model}' is not pulled on ${shown}: run \`ollama pull ${model}\``,
      `or set ${w.setting} to a model that \`ollama list\` shows`,
    );
  }
  if (status === 404) {
    return fail(
      `${shown} answered HTTP 404 to ${w.path} ('${msg}'): it does not look like an Ollama server`,
      "set OLLAMA_HOST (ollama_host) to the Ollama base URL, e.g. http://127.0.0.1:11434",
    );
  }
  if (status !== undefined) {
    return fail(
      `Ollama at ${shown} ${w.failed} with model '${model}': HTTP ${status} '${msg}'`,
      "check the Ollama server log and `ollama ps`; retry later",
    );
  }
  if (isNetworkError(err)) {
    return fail(
      `cannot reach Ollama at ${shown} (model '${model}'): ${msg}`,
      "start it with `ollama serve`, or set OLLAMA_HOST (ollama_host) to where it runs",
    );
  }
  if (err instanceof SyntaxError) {
    return fail(
      `Ollama at ${shown} sent ${w.response} for model '${model}' that is not JSON: ${msg}`,
      "check that OLLAMA_HOST points at Ollama itself and not at a proxy page",
    );
  }
  return fail(`${w.noun} with model '${model}' on ${shown} failed: ${msg}`);
}
