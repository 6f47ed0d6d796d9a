/**
 * Distiller over an Ollama chat model with structured output (name `ollama:<model>`): the shared prompt and checks
 * of src/adapters/llm/, the answer's JSON Schema in `format`, one retry of a refused answer. Errors:
 * LlmFailure (PegasError LLM_FAILED; `quarantineReason(err)` says why), PegasError CANCELLED.
 */
import type { DistillInput, DistillResult, Distiller } from "../../../ports/models/distiller.ts";
import { distillWithModel } from "../distill.ts";
import { DISTILL_ANSWER_JSON_SCHEMA } from "../schema.ts";
import { OllamaChat, type OllamaChatOptions } from "./chat.ts";

/** What to do when the model fails on a chunk twice. */
const HINT = 'the chunk is quarantined and can be retried later; try another llm_model or distiller = "heuristic"';

/** {@link Distiller} over Ollama's `/api/chat`; options as {@link OllamaChatOptions}. */
export class OllamaDistiller implements Distiller {
  readonly name: string;
  readonly #chat: OllamaChat;

  /** @throws PegasError INVALID_INPUT when an option is missing or out of range. */
  constructor(opts: OllamaChatOptions) {
    this.#chat = new OllamaChat(opts);
    this.name = `ollama:${opts.model}`;
  }

  /** Distills one chunk: atoms whose quotes are in the chunk, links renumbered, warnings for what was dropped. */
  distill(input: DistillInput): Promise<DistillResult> {
    return distillWithModel(input, this.#chat.who, HINT, (system, messages) =>
      this.#chat.send(system, messages, DISTILL_ANSWER_JSON_SCHEMA, input.signal),
    );
  }
}
