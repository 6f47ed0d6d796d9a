/**
 * One chunk through a language model, independent of the transport: the shared prompt, one retry on a refused
 * answer, the schema check, then the repairs and the quote check of normalize.ts. The Ollama and MCP sampling
 * distillers differ only in `send`.
 */
import type { DistillInput, DistillResult } from "../../ports/models/distiller.ts";
import { toDistillResult } from "./normalize.ts";
import { parseAnswer, type RawAnswer } from "./parse.ts";
import { DISTILL_SYSTEM_PROMPT, distillMessages, type PromptMessage } from "./prompt.ts";
import { askTwice } from "./retry.ts";
import { DistillAnswerSchema } from "./schema.ts";

/** Sends the system prompt and `messages` to a model and returns its answer; throws on transport failures. */
export type SendPrompt = (systemPrompt: string, messages: PromptMessage[]) => Promise<RawAnswer>;

/**
 * Distills `input` with the model behind `send`. A chunk with no visible text is answered without a call.
 * @param who the model and where it runs, for messages.
 * @param hint what to do when the model fails twice.
 * @throws LlmFailure (PegasError LLM_FAILED) with a quarantine reason after two refused answers; whatever `send`
 *   throws (LlmFailure for transport failures, PegasError CANCELLED).
 */
export async function distillWithModel(
  input: DistillInput,
  who: string,
  hint: string,
  send: SendPrompt,
): Promise<DistillResult> {
  if (input.text.trim() === "") return { atoms: [], warnings: [] };
  const answer = await askTwice({
    who,
    what: `for a chunk of ${input.text.length} characters`,
    ask: (note) => send(DISTILL_SYSTEM_PROMPT, distillMessages(input, note)),
    check: (raw) => parseAnswer(raw, DistillAnswerSchema),
    hint,
    signal: input.signal,
  });
  return toDistillResult(answer, input);
}
