/**
 * The labelled pair set of issue 21 (tests/dedup/pair-set.jsonl, one pair per line): ≥ 500 pairs of statements,
 * Russian and English, each labelled by reading with what the two say to each other:
 * - `merge`: the same statement (case, punctuation, filler words or a heading line aside);
 * - `corroborate`: the same fact in other words, or one text states all of the other and more — support, not a copy;
 * - `contradict`: the same property of the same subject with an incompatible value: a negation, another number, unit,
 *   date, comparator or antonym, or the same names in swapped roles of an asymmetric relation;
 * - `supersede`: a newer value of the same changing property (another value at another, later time);
 * - `separate`: anything else — another subject (another "Widget 6", another name), another fact, a hedged claim
 *   ("may", «может») against a plain one, overlapping passages that each say more.
 * Origins: `fixtures` — a candidate pair that dedup or verification met on the shared fixtures corpus
 * (bench/dump-dedup-pairs.ts; `source` names the fixture file(s), `cosine` and `met_by` what met it); `suite` — the
 * 130 pairs of tests/dedup/pairs.ts, relabelled by meaning; `written` — pairs written for the failures of issue 21.
 * The check half is frozen by hash ({@link halfOf}): rules are tuned on the other half only.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** What a pair's two statements are to each other (see module doc). */
export type PairLabel = "merge" | "corroborate" | "contradict" | "supersede" | "separate";

/** Every label, in report order. */
export const PAIR_LABELS: readonly PairLabel[] = ["merge", "corroborate", "contradict", "supersede", "separate"];

/** One labelled pair of the set. */
export interface SetPair {
  /** The half it belongs to, as {@link halfOf} computes it (recorded so that a change of the split shows in review). */
  half: "tune" | "check";
  label: PairLabel;
  lang: "en" | "ru";
  origin: "fixtures" | "suite" | "written";
  /** Fixture path(s) under shared/fixtures ("x | y" when the two atoms come from two files), or null. */
  source: string | null;
  /** For `fixtures` pairs: the lexical embedder's cosine and who met the pair (`dedup`, `verify`). */
  cosine?: number;
  met_by?: string[];
  a: string;
  b: string;
}

/**
 * The half of a pair: SHA-256 of `"pegas-pairs-v1:" + a + "|" + b` (UTF-8); an even first byte is `tune`, an odd one
 * `check`. Fixed before any rule was changed for issue 21: rules are fitted on the tune half only.
 */
export function halfOf(a: string, b: string): "tune" | "check" {
  const first = createHash("sha256").update(`pegas-pairs-v1:${a}|${b}`, "utf8").digest()[0];
  return first % 2 === 0 ? "tune" : "check";
}

/** The pairs, in file order. @throws Error naming the line when a line is not a pair. */
export function loadPairSet(path = new URL("./pair-set.jsonl", import.meta.url).pathname): SetPair[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const p = JSON.parse(l) as SetPair;
      if (typeof p.a !== "string" || typeof p.b !== "string" || !PAIR_LABELS.includes(p.label))
        throw new Error(`pair-set.jsonl line ${i + 1} is not a labelled pair`);
      return p;
    });
}

/** The whole set. */
export const PAIR_SET: readonly SetPair[] = loadPairSet();
