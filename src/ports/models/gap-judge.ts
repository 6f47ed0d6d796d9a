/**
 * GapAnswerJudge port: whether atoms answer a research gap's question (an LLM when one is configured; without one
 * the search rule of src/core/gaps/answer.ts decides). Adapter: src/adapters/llm/ollama/gap-judge.ts.
 */

/** An atom offered to a {@link GapAnswerJudge}. */
export interface GapAnswerCandidate {
  id: number;
  claim: string;
  content: string;
}

/** A judge's word on one atom: does it answer the question, and why (English, short). */
export interface GapAnswerVerdict {
  id: number;
  answers: boolean;
  reason: string;
}

/**
 * Decides whether atoms answer a research question (an LLM when one is configured). Errors: PegasError LLM_FAILED
 * (the caller falls back to the search rule and says so), CANCELLED.
 */
export interface GapAnswerJudge {
  /** `ollama:<model>`, … */
  readonly name: string;
  /** One verdict per atom, in the atoms' order. */
  judge(question: string, atoms: GapAnswerCandidate[], signal?: AbortSignal): Promise<GapAnswerVerdict[]>;
}
