/**
 * One hop for a question about someone related to a named one («Кто был единственным приятелем доктора Андрея
 * Ефимыча?», "Who was the founder of Oracle Corporation?"): among the first {@link HOP_DEPTH} fused hits, the atoms
 * with a sentence that names the asked-about entity and introduces another one beside it («…приходит почтмейстер,
 * Михаил Аверьяныч, единственный во всем городе человек, общество которого для Андрея Ефимыча не тягостно») move
 * to the front, in their fused order. The set of those hits does not change; only their order does.
 */
import { extractMentions } from "../../../domain/entities/mentions.ts";
import { detectLang } from "../../../domain/text.ts";
import type { AtomView } from "../../../ports/store/atom-reads.ts";
import { findName, introductionScore, type NameStems, nameStems } from "./introduction.ts";
import type { Focus } from "./question.ts";
import { sentencesOf } from "./score.ts";

/** Fused hits a hop question reorders. */
export const HOP_DEPTH = 10;

/** The best score of a sentence as the introduction of an entity other than the anchor, 0 when none. */
function otherIntroduced(sentence: string, anchor: NameStems[], keys: Set<string>): number {
  if (!anchor.some((n) => findName(sentence, n))) return 0;
  let best = 0;
  for (const m of extractMentions(sentence, detectLang(sentence))) {
    if (keys.has(m.key) || anchor.some((n) => findName(m.surface, n))) continue;
    best = Math.max(best, introductionScore(sentence, nameStems(m.name)));
  }
  return best;
}

/** Ids of the atoms among `atoms` (in the given order) that introduce another entity beside the anchor. */
export function hopIntroductions(atoms: AtomView[], focus: Focus, min: number): number[] {
  const anchor = focus.names.map(nameStems).filter((n) => n.stems.length > 0);
  const keys = new Set(focus.keys);
  return atoms.filter((a) => sentencesOf(a).some((u) => otherIntroduced(u, anchor, keys) >= min)).map((a) => a.id);
}
