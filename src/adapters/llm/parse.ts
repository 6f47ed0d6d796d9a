/**
 * Reading a model's answer text: stopped on length, empty, not JSON, or not matching the zod schema are each a
 * distinct, retryable outcome with a problem for the retry note and an excerpt for the quarantine record.
 */
import type { z } from "zod";
import { excerpt } from "../../ports/models/distill-failure.ts";
import type { RetryCause } from "./prompt.ts";

/** One answer as a transport returned it. */
export interface RawAnswer {
  /** The answer text (Ollama `message.content`, the MCP sampling result's text). */
  text: string;
  /** True when the model stopped at the token limit (Ollama done_reason "length", MCP stopReason "maxTokens"). */
  stoppedOnLength: boolean;
}

/** A refused answer: why (for the retry note and the quarantine reason) and an excerpt (≤ 500 chars). */
export interface Refusal {
  ok: false;
  cause: RetryCause;
  /** One sentence in our words, e.g. `atoms.0.type: Invalid option…`. */
  problem: string;
  detail: string;
}

/** The outcome of checking an answer. */
export type Checked<T> = { ok: true; value: T } | Refusal;

/** A refusal of `cause` with `problem`; the detail is the answer text (prefixed by the problem for schema errors). */
export function refuse(cause: RetryCause, problem: string, answer: string): Refusal {
  const detail = cause === "schema" ? `${problem}; answer: ${answer}` : answer || "(empty answer)";
  return { ok: false, cause, problem, detail: excerpt(detail) };
}

/** The JSON inside one Markdown code fence (```json … ```), as chat models without a grammar often send it. */
function unfence(text: string): string {
  const m = /^```[a-z]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/i.exec(text);
  return m ? m[1] : text;
}

/** The first zod issues as `path: message` (at most three), for messages and retry notes. */
export function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : "";
  return shown.join("; ") + more;
}

/**
 * Checks one answer against `schema`: a length stop, an empty text, text that is not JSON (after removing one code
 * fence) and JSON that fails the schema are refused; otherwise the parsed value (unknown keys stripped).
 */
export function parseAnswer<S extends z.ZodType>(raw: RawAnswer, schema: S): Checked<z.output<S>> {
  const text = raw.text.trim();
  if (raw.stoppedOnLength) {
    return refuse("length", `the answer stopped at the token limit after ${raw.text.length} characters`, raw.text);
  }
  if (text === "") return refuse("empty", "the answer is empty", raw.text);
  let json: unknown;
  try {
    json = JSON.parse(unfence(text));
  } catch (err) {
    return refuse("json", `the answer is not JSON (${(err as Error).message})`, raw.text);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return refuse("schema", describeIssues(parsed.error), raw.text);
  return { ok: true, value: parsed.data };
}
