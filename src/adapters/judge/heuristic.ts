/**
 * The heuristic verdict judge (the embedded default, no model): the dedup rules of domain/meaning/dedup.ts read as
 * verdicts. Per neighbour, `decidePair(neighbour, atom, cosine)`:
 * - `contradiction` (a negation, number, date or the roles differ in the same statement about the same subject) →
 *   `contradicts`;
 * - `merge` (the same statement) → `duplicate` when both atoms' evidence comes from the same site (or either has no
 *   evidence at all), `corroborates` when the neighbour brings a site the atom lacks (domain/evidence.ts);
 * - a `keep` that corroborates (the same fact in other words, "in the world" vs "in the whole world", or one text
 *   stating all of the other) → `corroborates` when the neighbour brings another site, else `new` (never a duplicate:
 *   the two texts differ);
 * - any other `keep` (another fact, another subject, a hedged claim, a newer value) → `new`.
 * Pure and deterministic; never throws.
 */
import { type DedupPolicy, decidePair } from "../../domain/meaning/dedup.ts";
import { sameFactVerdict } from "../../domain/evidence.ts";
import type { JudgeNeighbour, JudgedAtom, NeighbourVerdict, VerdictJudge } from "../../ports/models/verdict-judge.ts";

/**
 * An atom with the independent sites of its evidence (registrable domains of http(s) sources, `doc:<id>` for any
 * other source; see domain/evidence.ts). The port's judges may ignore `sites`; this one reads it.
 */
export interface SitedAtom extends JudgedAtom {
  sites?: readonly string[];
}

/** A neighbour with its cosine and sites. */
export type SitedNeighbour = JudgeNeighbour & { sites?: readonly string[] };

/** The text a pair decision reads: the content (which, for distilled atoms, is or contains the claim). */
function textOf(a: JudgedAtom): string {
  return a.content || a.claim;
}

/**
 * Heuristic {@link VerdictJudge} under one embedder's {@link DedupPolicy} (its calibrated near-duplicate cosine and
 * whether it reads paraphrases). Name: `heuristic`.
 */
export class HeuristicJudge implements VerdictJudge {
  readonly name = "heuristic";

  constructor(private readonly policy: DedupPolicy) {}

  /** One verdict per neighbour, in order; reasons are those of decidePair, in English. */
  async judge(atom: SitedAtom, neighbours: SitedNeighbour[]): Promise<NeighbourVerdict[]> {
    return neighbours.map((n) => this.judgeOne(atom, n));
  }

  private judgeOne(atom: SitedAtom, n: SitedNeighbour): NeighbourVerdict {
    const d = decidePair(textOf(n), textOf(atom), n.cosine, this.policy);
    const at = `cosine ${n.cosine.toFixed(3)}`;
    if (d.outcome === "contradiction") return { id: n.id, verdict: "contradicts", reason: `${d.reason} (${at})` };
    if (d.kind === "corroborate") {
      // The same fact in other words (or stated within a longer text): evidence only from another site.
      const other = sameFactVerdict(atom.sites ?? [], n.sites ?? []) === "corroborates";
      const why = other ? `${d.reason}, from another site` : `${d.reason}, from the same site: no independent evidence`;
      return { id: n.id, verdict: other ? "corroborates" : "new", reason: `${why} (${at})` };
    }
    if (d.outcome === "keep") return { id: n.id, verdict: "new", reason: d.reason };
    const verdict = sameFactVerdict(atom.sites ?? [], n.sites ?? []);
    const why =
      verdict === "duplicate" ? "same statement, no independent evidence" : "same statement from another site";
    return { id: n.id, verdict, reason: `${why} (${at})` };
  }
}
