/**
 * Asking a model with one retry: an answer that stopped on length, is empty, is not JSON or fails its check is
 * asked for again once, with a note saying what was wrong; a second bad answer is an {@link LlmFailure} whose
 * quarantine reason is the second answer's. Transport failures (HTTP, timeout, context length, cancellation) are
 * thrown by `ask` and pass through unretried: the same input would meet the same refusal.
 */
import { PegasError } from "../../errors.ts";
import { log } from "../../log.ts";
import { LlmFailure } from "../../ports/models/distill-failure.ts";
import type { Checked, RawAnswer, Refusal } from "./parse.ts";
import { retryNote } from "./prompt.ts";

/** What {@link askTwice} needs. */
export interface TwoTries<T> {
  /** Who answers, for messages: e.g. `model 'qwen3:8b' on http://127.0.0.1:11434`. */
  who: string;
  /** What was asked, for messages: e.g. `for a chunk of 1200 characters`. */
  what: string;
  /** One attempt; `note` is undefined on the first and the retry note on the second. */
  ask: (note: string | undefined) => Promise<RawAnswer>;
  /** Checks one answer (parse, schema, ids…). */
  check: (raw: RawAnswer) => Checked<T>;
  /** What to do when both answers are bad. */
  hint: string;
  signal?: AbortSignal;
}

/** Advice per refusal cause, appended to the caller's hint. */
const CAUSE_HINTS: Record<Refusal["cause"], string> = {
  length: "raise distill_num_predict or lower chunk_chars",
  json: "use a model that follows structured output",
  schema: "use a model that follows structured output",
  empty: "check the model with `ollama run` or the client's model settings",
};

function throwIfCancelled(signal: AbortSignal | undefined, who: string): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", `request to ${who} was cancelled`, { cause: signal.reason });
}

/**
 * Runs `ask` once, or twice when the first answer is refused; returns the first accepted value.
 * @throws LlmFailure (PegasError LLM_FAILED) when both answers are refused, naming the reason of the second;
 *   PegasError CANCELLED when `signal` aborts between attempts; whatever `ask` throws.
 */
export async function askTwice<T>(t: TwoTries<T>): Promise<T> {
  let note: string | undefined;
  let last: Refusal | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    throwIfCancelled(t.signal, t.who);
    const checked = t.check(await t.ask(note));
    if (checked.ok) return checked.value;
    last = checked;
    if (attempt === 1) {
      log.warn("model answer refused; asking once more", {
        who: t.who,
        what: t.what,
        cause: checked.cause,
        problem: checked.problem,
      });
      note = retryNote(checked.cause, checked.problem);
    }
  }
  const refusal = last as Refusal;
  throw new LlmFailure(
    `${t.who} gave no usable answer ${t.what} in 2 attempts; the last was refused (${refusal.cause}): ${refusal.problem}`,
    refusal.cause,
    refusal.detail,
    { hint: `${t.hint}; ${CAUSE_HINTS[refusal.cause]}` },
  );
}
