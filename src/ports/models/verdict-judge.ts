/**
 * VerdictJudge port: self-critique of one atom against its nearest stored atoms (found by embedding). For each
 * neighbour the judge says whether the atom is `new` knowledge next to it, a `duplicate` of it, `corroborates` it
 * (the same fact from other evidence) or `contradicts` it. Adapters: heuristic (domain/meaning/dedup.ts rules) and an LLM
 * (Ollama chat with structured output). Errors: PegasError LLM_FAILED (the caller falls back to the heuristic
 * judge for that atom and reports it), CANCELLED.
 */

/** A verdict on one (atom, neighbour) pair. */
export type Verdict = "new" | "duplicate" | "corroborates" | "contradicts";

/** An atom as the judge reads it. */
export interface JudgedAtom {
  id: number;
  claim: string;
  content: string;
  lang: string;
}

/** One neighbour with its cosine to the atom under judgement. */
export interface JudgeNeighbour extends JudgedAtom {
  cosine: number;
}

/** The verdict for one neighbour, with a short reason in English. */
export interface NeighbourVerdict {
  id: number;
  verdict: Verdict;
  reason: string;
}

/** A judge adapter. */
export interface VerdictJudge {
  /** `heuristic` or `ollama:<model>`. */
  readonly name: string;
  /** One verdict per neighbour, in the neighbours' order. */
  judge(atom: JudgedAtom, neighbours: JudgeNeighbour[], signal?: AbortSignal): Promise<NeighbourVerdict[]>;
}
