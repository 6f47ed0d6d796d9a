/**
 * VerdictJudge over an Ollama chat model (name `ollama:<model>`): one structured-output call per atom with its
 * neighbours listed; the answer's `id` is constrained to the neighbours' ids, and every neighbour must get exactly
 * one verdict. A refused answer is asked for once more. Errors: LlmFailure (PegasError LLM_FAILED; the caller
 * falls back to the heuristic judge), PegasError CANCELLED, INVALID_INPUT (neighbour ids repeated).
 */
import { PegasError } from "../../../errors.ts";
import type {
  JudgedAtom,
  JudgeNeighbour,
  NeighbourVerdict,
  VerdictJudge,
} from "../../../ports/models/verdict-judge.ts";
import { checkVerdicts, JUDGE_SYSTEM_PROMPT, judgeJsonSchema, judgeMessages } from "../judge.ts";
import { askTwice } from "../retry.ts";
import { OllamaChat, type OllamaChatOptions } from "./chat.ts";

/** {@link VerdictJudge} over Ollama's `/api/chat`; options as {@link OllamaChatOptions}. */
export class OllamaJudge implements VerdictJudge {
  readonly name: string;
  readonly #chat: OllamaChat;

  /** @throws PegasError INVALID_INPUT when an option is missing or out of range. */
  constructor(opts: OllamaChatOptions) {
    this.#chat = new OllamaChat(opts);
    this.name = `ollama:${opts.model}`;
  }

  /** One verdict per neighbour, in the neighbours' order; no call when there are none. */
  async judge(atom: JudgedAtom, neighbours: JudgeNeighbour[], signal?: AbortSignal): Promise<NeighbourVerdict[]> {
    if (neighbours.length === 0) return [];
    const ids = neighbours.map((n) => n.id);
    const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
    if (repeated !== undefined) {
      throw new PegasError("INVALID_INPUT", `neighbour ${repeated} is listed twice for atom ${atom.id}`, {
        hint: "pass each neighbour once",
      });
    }
    const format = judgeJsonSchema(ids);
    return askTwice({
      who: this.#chat.who,
      what: `judging atom ${atom.id} against ${neighbours.length} neighbour(s)`,
      ask: (note) => this.#chat.send(JUDGE_SYSTEM_PROMPT, judgeMessages(atom, neighbours, note), format, signal),
      check: (raw) => checkVerdicts(raw, neighbours),
      hint: "use the heuristic verdict for this atom, or another llm_model",
      signal,
    });
  }
}
