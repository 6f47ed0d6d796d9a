/**
 * Atoms scored as introductions of a name (introduction.ts), for the search focus (rerank.ts) and the entity profile
 * of memory_get (core/knowledge/get-entity.ts): each atom's best sentence for any of the name's forms, the first
 * naming sentence of each document gaining, and a `definition` atom whose claim opens with the name gaining more.
 */
import type { AtomView } from "../../../ports/store/atom-reads.ts";
import { textUnits } from "../snippet.ts";
import { findName, introductionScore, type NameStems } from "./introduction.ts";

/** An atom's score as an introduction and the sentence that earned it. */
export interface IntroScore {
  score: number;
  sentence: string;
  /** The atom holds its document's first sentence that names it. */
  first: boolean;
}

/** The sentences of an atom: paragraphs apart, so a heading line ("Firefox OS") does not run into its text. */
export function sentencesOf(a: Pick<AtomView, "content" | "claim">): string[] {
  return (a.content || a.claim).split(/\n\s*\n/u).flatMap((p) => textUnits(p));
}

/** The atoms that name it at all get a score (see module doc); the others are left out of the map. */
export function scoreIntroductions(atoms: AtomView[], names: NameStems[]): Map<number, IntroScore> {
  const firstOfDoc = new Map<number, number>();
  const units = new Map<number, string[]>();
  for (const a of [...atoms].sort((x, y) => x.id - y.id)) {
    const list = sentencesOf(a);
    units.set(a.id, list);
    const named = list.some((u) => names.some((n) => findName(u, n)));
    if (named && a.doc_id !== null && !firstOfDoc.has(a.doc_id)) firstOfDoc.set(a.doc_id, a.id);
  }
  const scores = new Map<number, IntroScore>();
  for (const a of atoms) {
    const isFirst = a.doc_id !== null && firstOfDoc.get(a.doc_id) === a.id;
    let best: IntroScore = { score: 0, sentence: "", first: isFirst };
    let seen = false;
    for (const u of units.get(a.id) ?? []) {
      for (const n of names) {
        const sc = introductionScore(u, n, isFirst && !seen);
        if (sc > 0) seen = true;
        if (sc > best.score) best = { score: sc, sentence: u, first: isFirst };
      }
    }
    if (best.score === 0) continue;
    if (a.type === "definition" && names.some((n) => findName(a.claim, n)?.start === 0)) best.score += 1.5;
    scores.set(a.id, best);
  }
  return scores;
}
