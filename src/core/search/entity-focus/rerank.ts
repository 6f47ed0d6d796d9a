/**
 * Entity focus for search (issue 22, item 2): when a question asks who or what one thing is (question.ts), the
 * atoms that introduce or define it come first. Candidates are the fused hits, the atoms holding the name itself
 * (BM25 over the name alone, so the question's other words do not pull in passages that merely mention it) and the
 * atoms the entity store ties to the entity by key or alias. Each is scored by its best sentence as an
 * introduction of the name (introduction.ts), plus the first sentence of its document that names it and a
 * `definition` atom whose claim opens with it. Up to {@link LEAD} atoms that clearly introduce it move to the
 * front; when none does and it is a proper name, the best atom holding a document's first mention of it leads
 * (where a text first names someone is where it introduces them). Every other hit keeps its place. A question about someone related to a name reorders its first hits
 * only (hop.ts). A question with no focus gets the fused list back unchanged.
 */
import type { AtomFilter } from "../../../domain/atom.ts";
import type { AtomView } from "../../../ports/store/atom-reads.ts";
import type { Services } from "../../services.ts";
import { HOP_DEPTH, hopIntroductions } from "./hop.ts";
import { nameStems } from "./introduction.ts";
import { type Focus, questionFocus } from "./question.ts";
import { scoreIntroductions } from "./score.ts";

/** A fused hit as search ranks them. */
export interface Ranked {
  id: number;
  score: number;
  ranks: { lexical?: number; vector?: number };
}

/** Most atoms moved to the front. */
export const LEAD = 3;
/** Least introduction score that moves an atom to the front. */
export const MIN_INTRODUCTION = 2;
/** Atoms read per name from the name-only lexical search and from the entity store. */
const NAME_DEPTH = 200;
/** Fused hits considered. */
const FUSED_DEPTH = 100;
/** The position of an atom the fused list does not hold. */
const FAR = 1e9;

type FocusServices = Pick<Services, "atomReads" | "projection" | "searchReads"> & Partial<Pick<Services, "entities">>;

/** The names to look for: the question's, and the aliases of stored entities with the same key. */
async function namesOf(s: FocusServices, focus: Focus): Promise<{ names: string[]; mentioned: number[] }> {
  if (!s.entities) return { names: focus.names, mentioned: [] };
  const rows = (await s.entities.entitiesByKeys(focus.keys)).slice(0, 3);
  const names = [...new Set([...focus.names, ...rows.flatMap((r) => [r.name, ...r.aliases])])];
  const mentioned: number[] = [];
  for (const r of rows)
    for (const m of await s.entities.mentionsOfEntity(r.id, { limit: NAME_DEPTH })) mentioned.push(m.atomId);
  return { names, mentioned };
}

/** The hits of a one-hop question that introduce another entity beside the named one first (hop.ts). */
async function hopFirst(s: FocusServices, focus: Focus, fused: Ranked[]): Promise<Ranked[]> {
  const top = fused.slice(0, HOP_DEPTH);
  const read = await s.atomReads.atomsByIds(
    top.map((f) => f.id),
    0,
  );
  const byId = new Map(read.map((a) => [a.id, a]));
  const atoms = top.flatMap((f) => byId.get(f.id) ?? []);
  const moved = new Set(hopIntroductions(atoms, focus, MIN_INTRODUCTION).slice(0, LEAD));
  if (moved.size === 0) return fused;
  return [...fused.filter((f) => moved.has(f.id)), ...fused.filter((f) => !moved.has(f.id))];
}

/** Whether an atom the focus adds passes the search's filter (the fused hits passed it already). */
function passes(a: AtomView, f: AtomFilter): boolean {
  if (a.status === "retracted" || (f.status && !f.status.includes(a.status))) return false;
  if (f.types && !f.types.includes(a.type)) return false;
  return !f.docIds || (a.doc_id !== null && f.docIds.includes(a.doc_id));
}

/**
 * `fused` reordered for the question's focus (see module doc); the same array when the question has none.
 * Atoms found only by the focus enter with score 0 and no ranks.
 * @throws PegasError STORE_UNAVAILABLE from the reads.
 */
export async function focusOnEntities(
  s: FocusServices,
  query: string,
  fused: Ranked[],
  filter: AtomFilter,
): Promise<Ranked[]> {
  const focus = questionFocus(query);
  if (!focus) return fused;
  if (focus.hop) return hopFirst(s, focus, fused);
  const { names, mentioned } = await namesOf(s, focus);
  const stems = names.map(nameStems).filter((st) => st.stems.length > 0);
  if (stems.length === 0) return fused;
  const pool = new Set([...fused.slice(0, FUSED_DEPTH).map((f) => f.id), ...mentioned]);
  for (const name of names) {
    const lexemes = await s.searchReads.analyze(name);
    for (const h of s.projection.lexical(lexemes, NAME_DEPTH, filter, { neighbours: false })) pool.add(h.atomId);
  }
  const atoms = (await s.atomReads.atomsByIds([...pool], 0)).filter((a) => passes(a, filter));
  const scores = scoreIntroductions(atoms, stems);
  const position = new Map(fused.map((f, i) => [f.id, i]));
  const ranked = [...scores].sort(
    ([a, x], [b, y]) => y.score - x.score || (position.get(a) ?? FAR) - (position.get(b) ?? FAR) || a - b,
  );
  let lead = ranked.filter(([, sc]) => sc.score >= MIN_INTRODUCTION).slice(0, LEAD);
  // Nothing presents a proper name in so many words: a document introduces it where it first names it
  // (discourse-new first mention), so the best such atom leads. A plain term's first use is often in passing.
  if (lead.length === 0 && stems.some((st) => st.proper)) lead = ranked.filter(([, sc]) => sc.first).slice(0, 1);
  return reorder(
    fused,
    lead.map(([id]) => id),
  );
}

/** `fused` with the `lead` atoms first, in that order; the others keep their order. */
function reorder(fused: Ranked[], lead: number[]): Ranked[] {
  if (lead.length === 0) return fused;
  const moved = new Set(lead);
  const byId = new Map(fused.map((f) => [f.id, f]));
  return [...lead.map((id) => byId.get(id) ?? { id, score: 0, ranks: {} }), ...fused.filter((f) => !moved.has(f.id))];
}
