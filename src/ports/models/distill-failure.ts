/**
 * Part of the Distiller port's contract: why a language model failed on one chunk, in a form the ingest records
 * when it quarantines the chunk. Every LLM_FAILED error of the LLM distillers and the LLM judge is an
 * {@link LlmFailure} carrying a machine-readable reason and an excerpt of the last answer or error.
 */
import { PegasError } from "../../errors.ts";

/**
 * Reasons a chunk is quarantined:
 * - `length`: the answer stopped at the token limit (Ollama done_reason "length", MCP stopReason "maxTokens");
 * - `json`: the answer is not JSON; `schema`: JSON that fails the answer schema (or names unknown ids);
 * - `empty`: no answer text at all;
 * - `context_length`: the prompt exceeds the model's context (not retried: the same input fails again);
 * - `http`: the server or client refused or could not be reached; `timeout`: no answer in time.
 */
export type QuarantineReasonCode = "length" | "json" | "schema" | "context_length" | "http" | "timeout" | "empty";

/** What {@link quarantineReason} returns: the reason and an excerpt (≤ {@link DETAIL_MAX_CHARS} chars). */
export interface QuarantineReason {
  reason: QuarantineReasonCode;
  detail: string;
}

/** Longest `detail` kept, in UTF-16 code units (a surrogate pair is never split). */
export const DETAIL_MAX_CHARS = 500;

/** The first {@link DETAIL_MAX_CHARS} characters of `text` (an ellipsis marks a cut; a pair is never split). */
export function excerpt(text: string): string {
  if (text.length <= DETAIL_MAX_CHARS) return text;
  let end = DETAIL_MAX_CHARS - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** PegasError LLM_FAILED with a quarantine reason attached; `detail` is cut to {@link DETAIL_MAX_CHARS}. */
export class LlmFailure extends PegasError {
  readonly quarantine: QuarantineReason;

  constructor(
    message: string,
    reason: QuarantineReasonCode,
    detail: string,
    opts: { hint?: string; cause?: unknown } = {},
  ) {
    super("LLM_FAILED", message, opts);
    this.name = "LlmFailure";
    this.quarantine = { reason, detail: excerpt(detail) };
  }
}

/**
 * The quarantine reason of an error thrown while distilling or judging, or null when the error is not a model
 * failure (CANCELLED, INVALID_INPUT, store errors…: the chunk must not be quarantined for those). An
 * {@link LlmFailure} gives its own reason; any other PegasError LLM_FAILED is classified as `context_length` when
 * Ollama refused the input's length, else `http`, with its message as detail.
 */
export function quarantineReason(err: unknown): QuarantineReason | null {
  if (err instanceof LlmFailure) return err.quarantine;
  if (!(err instanceof PegasError) || err.code !== "LLM_FAILED") return null;
  // Another adapter's LLM_FAILED (an embedder refusing an over-long input says "context length").
  return {
    reason: /context.{0,20}length|too long/i.test(err.message) ? "context_length" : "http",
    detail: excerpt(err.message),
  };
}
