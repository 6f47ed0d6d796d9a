/**
 * Scripted vectors for the Ollama stand-in server (tests/support/ollama-stub.ts) that model what a SEMANTIC
 * embedder does with the labelled pairs. This is not EmbeddingGemma and no model runs: each pair gets a target
 * cosine drawn (deterministically, by pair index) from its category's range below, and the stand-in answers two
 * vectors with exactly that cosine. The ranges encode the assumption the dedup rules must survive: a neural
 * sentence embedder puts restatements and paraphrases close, puts the SAME sentence with a negation, another
 * number, date, unit, comparator, antonym, quantifier or name just as close (DESIGN.md failure kind 6), the same
 * names in swapped roles closer still, and puts unrelated sentences far apart.
 * "Other fact" pairs are placed above the 0.90 threshold too, the worst case, so that the words must tell them
 * apart. Real cosines of EmbeddingGemma are not known here (no Ollama on the build machine).
 */
import { DOCUMENT_PROMPT } from "../../src/adapters/llm/ollama/prompts.ts";
import type { ScriptedVectors } from "../support/ollama-stub.ts";
import type { LabelledPair, PairCategory } from "./pairs.ts";

/** Target cosine range per category for the scripted semantic stand-in (see module doc). */
export const SEMANTIC_RANGES: Readonly<Record<PairCategory, readonly [number, number]>> = {
  restatement: [0.97, 0.995],
  paraphrase: [0.91, 0.96],
  negation: [0.92, 0.97],
  number: [0.93, 0.98],
  date: [0.93, 0.98],
  unit: [0.92, 0.97],
  comparison: [0.93, 0.99],
  opposite: [0.92, 0.97],
  entity: [0.9, 0.95],
  roles: [0.95, 0.99],
  other_fact: [0.9, 0.94],
  unrelated: [0.05, 0.4],
};

/** Scripted vectors and the cosine each pair was given. */
export interface SemanticScript {
  vectors: ScriptedVectors;
  targets: number[];
}

/**
 * Builds the script: pair i's `a` is 3·e(2i), its `b` is 3·(t·e(2i) + √(1−t²)·e(2i+1)), so their cosine is t (the
 * stand-in's vectors are deliberately not unit length; the adapter normalizes). Keys carry the document prompt,
 * as the stand-in receives them. Inputs it does not know (the readiness probe) fall back to pseudo-random vectors.
 * @throws Error when a text occurs twice (its vector would be ambiguous) or `dim` < 2 × pairs.
 */
export function scriptSemanticVectors(pairs: readonly LabelledPair[], dim: number): SemanticScript {
  if (dim < 2 * pairs.length) throw new Error(`dimension ${dim} is too small for ${pairs.length} scripted pairs`);
  const byInput = new Map<string, number[]>();
  const put = (text: string, v: number[]) => {
    const key = DOCUMENT_PROMPT + text;
    if (byInput.has(key)) throw new Error(`text occurs twice in the pair suite: '${text.slice(0, 60)}'`);
    byInput.set(key, v);
  };
  const targets = pairs.map((p, i) => {
    const [lo, hi] = SEMANTIC_RANGES[p.category];
    const t = lo + (hi - lo) * ((i * 0.6180339887498949) % 1);
    const a = new Array<number>(dim).fill(0);
    const b = new Array<number>(dim).fill(0);
    a[2 * i] = 3;
    b[2 * i] = 3 * t;
    b[2 * i + 1] = 3 * Math.sqrt(1 - t * t);
    put(p.a, a);
    put(p.b, b);
    return t;
  });
  return { vectors: (input) => byInput.get(input), targets };
}
