/**
 * The labelled pair suite of issue 4 (items 3 and 7): pairs of statements, Russian and English, each with the
 * outcome the dedup decision must reach under the lexical embedder's policy and under a semantic embedder's.
 * `a` is quoted verbatim from a fixture of ../shared/fixtures (see SOURCES.md there) unless `source` is null;
 * `b` is written from it (a restatement, a paraphrase, a negation, another number, …) or is another real sentence.
 * Used by tests/dedup/pair-suite.test.ts and bench/calibrate-dedup.ts.
 */
import type { PairOutcome } from "../../src/domain/meaning/dedup.ts";
import { EN_PAIRS } from "./pairs-en.ts";
import { RU_PAIRS } from "./pairs-ru.ts";

/**
 * What a pair is: `restatement` (the same words, case/punctuation/filler aside), `paraphrase` (other words, same
 * meaning), `negation` (the same claim negated, by a word or a prefix: "unsafe", "невозможно"), `other_fact` (the
 * same sentence pattern about another fact), `number` / `date` / `unit` (the same claim with another number, date,
 * unit or rate: "per week" vs "per day"), `comparison` (the same quantity with another comparator: "p < 0.05" vs
 * "p > 0.05", "at least" vs "at most", "не больше" vs "не меньше"), `opposite` (an antonym or another quantifier:
 * "before" vs "after", "all" vs "some", "always" vs "never"), `entity` (the same claim about another named entity,
 * at the start of the sentence too), `roles` (the same names in swapped roles), `unrelated` (nothing in common).
 */
export type PairCategory =
  | "restatement"
  | "paraphrase"
  | "negation"
  | "other_fact"
  | "number"
  | "date"
  | "unit"
  | "comparison"
  | "opposite"
  | "entity"
  | "roles"
  | "unrelated";

/** Every category, in report order. */
export const CATEGORIES: readonly PairCategory[] = [
  "restatement",
  "paraphrase",
  "negation",
  "other_fact",
  "number",
  "date",
  "unit",
  "comparison",
  "opposite",
  "entity",
  "roles",
  "unrelated",
];

/** One labelled pair. */
export interface LabelledPair {
  a: string;
  b: string;
  lang: "en" | "ru";
  /** Path under ../shared/fixtures that `a` is quoted from, or null for a pair written for the suite. */
  source: string | null;
  category: PairCategory;
  /** The outcome under the lexical policy (paraphrase: false) and under the semantic one (paraphrase: true). */
  expected: { lexical: PairOutcome; semantic: PairOutcome };
}

/** Russian pairs first, then English. */
export const PAIRS: readonly LabelledPair[] = [...RU_PAIRS, ...EN_PAIRS];

/**
 * The rule of issue 4 for a category: restatement → merge; paraphrase → merge under the semantic embedder, keep
 * (never a contradiction) under the lexical one; negation, number, date, unit, comparison, opposite → contradiction;
 * swapped roles (issue 21: who did what to whom) → contradiction; other fact, another entity, unrelated → keep. The test checks every pair's label against it, so a
 * label cannot drift from the rule.
 */
export function ruleFor(category: PairCategory): { lexical: PairOutcome; semantic: PairOutcome } {
  switch (category) {
    case "restatement":
      return { lexical: "merge", semantic: "merge" };
    case "paraphrase":
      return { lexical: "keep", semantic: "merge" };
    case "negation":
    case "number":
    case "date":
    case "unit":
    case "comparison":
    case "opposite":
    case "roles":
      return { lexical: "contradiction", semantic: "contradiction" };
    default:
      return { lexical: "keep", semantic: "keep" };
  }
}
