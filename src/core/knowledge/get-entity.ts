/**
 * memory_get of an entity (issue 22, item 2): `entity:<id>` or a name → a short cited profile — kind, name, aliases,
 * how many atoms name it, the statements that best describe it (introductions and definitions first, scored as the
 * search focus scores them: search/entity-focus/score.ts) and the entities named beside it most often. A name is
 * matched on its key and on its forms in any case («Андрея Ефимыча» is «Андрей Ефимыч»); a name several entities
 * answer to gives the candidates instead of a guess.
 */
import { extractMentions } from "../../domain/entities/mentions.ts";
import { nameKey } from "../../domain/entities/names.ts";
import type { EntityKind } from "../../domain/entities/types.ts";
import { detectLang } from "../../domain/text.ts";
import { invalidInput, PegasError } from "../../errors.ts";
import type { EntityRow } from "../../ports/entities.ts";
import type { AtomView, CitationView } from "../../ports/store/atom-reads.ts";
import { nameStems } from "../search/entity-focus/introduction.ts";
import { scoreIntroductions } from "../search/entity-focus/score.ts";
import type { Services } from "../services.ts";

/** Mentions read for one profile (the most named entities are cut there, and the profile says so). */
export const PROFILE_MENTIONS = 500;
/** Statements and related entities a profile holds by default, and at most. */
export const PROFILE_LIMITS = { statements: { default: 5, max: 30 }, related: 8 } as const;
/** Candidates listed for an ambiguous name. */
const CANDIDATES = 10;
/** Statuses a profile shows (as search's default). */
const SHOWN = new Set(["candidate", "verified", "contested"]);

/** An entity named in a profile or as a candidate. */
export interface EntityBrief {
  entity_id: number;
  kind: EntityKind;
  name: string;
  aliases: string[];
}

/** One statement about the entity: an atom, the sentence that describes the entity best, its citations. */
export interface EntityStatement {
  atom_id: number;
  type: string;
  status: string;
  sentence: string;
  citations: CitationView[];
}

/** The profile of one entity. */
export interface EntityProfile extends EntityBrief {
  /** Atoms that name it (counted up to {@link PROFILE_MENTIONS} mentions; `mentions_cut` when more). */
  atoms: number;
  mentions_cut: boolean;
  statements: EntityStatement[];
  statements_total: number;
  related: Array<EntityBrief & { shared_atoms: number }>;
}

/** What memory_get answers for an entity reference: one profile, or the candidates of an ambiguous name. */
export type EntityLookup = { profile: EntityProfile } | { candidates: Array<EntityBrief & { atoms: number }> };

/** An entity row as the brief a profile or a candidate list gives. */
export const brief = (r: EntityRow): EntityBrief => ({
  entity_id: r.id,
  kind: r.kind,
  name: r.name,
  aliases: r.aliases,
});

/**
 * The root entities `ref` (`entity:<id>` or a name) names: one, or several when a name is ambiguous.
 * @throws PegasError INVALID_INPUT (empty), NOT_FOUND (no such entity or name).
 */
export async function resolveEntityRef(s: Pick<Services, "entities">, ref: string): Promise<EntityRow[]> {
  const text = ref.trim();
  if (!text) throw invalidInput("entity is empty", "give entity:<id> or a name, e.g. «Андрей Ефимыч»");
  const id = /^entity:(\d{1,15})$/u.exec(text);
  if (id) {
    const [row] = await s.entities.entitiesByIds([Number(id[1])]);
    if (!row)
      throw new PegasError("NOT_FOUND", `no entity '${text}'`, {
        hint: "call memory_get with the entity's name, or memory_query_graph from an atom to list entity:<id> nodes",
      });
    if (row.mergedInto === null) return [row];
    return s.entities.entitiesByIds([await s.entities.rootOf(row.id)]);
  }
  const keys = new Set([nameKey(text), ...extractMentions(text, detectLang(text)).map((m) => m.key)]);
  const rows = await s.entities.entitiesByKeys([...keys]);
  if (rows.length === 0)
    throw new PegasError("NOT_FOUND", `no entity named '${text.slice(0, 80)}'`, {
      hint: "memory_search finds the atoms that mention it; names are matched whole («Андрей Ефимыч», not «Андрей»)",
    });
  return rows;
}

/** The entities named in the same atoms, by atoms shared. */
async function relatedOf(
  s: Pick<Services, "entities">,
  rootId: number,
  atomIds: number[],
): Promise<EntityProfile["related"]> {
  const shared = new Map<number, Set<number>>();
  for (const m of await s.entities.mentionsOfAtoms(atomIds.slice(0, PROFILE_MENTIONS))) {
    if (m.rootId === rootId) continue;
    const set = shared.get(m.rootId) ?? new Set<number>();
    set.add(m.atomId);
    shared.set(m.rootId, set);
  }
  const top = [...shared]
    .map(([id, set]) => [id, set.size] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, PROFILE_LIMITS.related);
  const rows = new Map((await s.entities.entitiesByIds(top.map(([id]) => id))).map((r) => [r.id, r]));
  return top.flatMap(([id, n]) => {
    const r = rows.get(id);
    return r ? [{ ...brief(r), shared_atoms: n }] : [];
  });
}

/** The profile of a root entity (see module doc); `statements` most statements. */
async function profileOf(
  s: Pick<Services, "entities" | "atomReads">,
  row: EntityRow,
  statements: number,
): Promise<EntityProfile> {
  const mentions = await s.entities.mentionsOfEntity(row.id, { limit: PROFILE_MENTIONS });
  const atomIds = [...new Set(mentions.map((m) => m.atomId))];
  const atoms = (await s.atomReads.atomsByIds(atomIds, 2)).filter((a) => SHOWN.has(a.status));
  const surfaces = [...new Set(mentions.map((m) => m.surface))].slice(0, 8);
  const names = [...new Set([row.name, ...row.aliases, ...surfaces])].map(nameStems).filter((n) => n.stems.length);
  const scores = scoreIntroductions(atoms, names);
  const byId = new Map<number, AtomView>(atoms.map((a) => [a.id, a]));
  // One statement per sentence: a sentence stored twice (a text and a fact atom of one passage) is said once.
  const said = new Set<string>();
  const ranked = atoms
    .map((a) => ({ a, sc: scores.get(a.id) ?? { score: 0, sentence: a.claim } }))
    .sort((x, y) => y.sc.score - x.sc.score || x.a.id - y.a.id)
    .filter(({ sc }) => {
      const key = sc.sentence.toLowerCase().replace(/\s+/gu, " ").trim();
      if (said.has(key)) return false;
      said.add(key);
      return true;
    });
  return {
    ...brief(row),
    atoms: atomIds.length,
    mentions_cut: mentions.length >= PROFILE_MENTIONS,
    statements: ranked.slice(0, statements).map(({ a, sc }) => ({
      atom_id: a.id,
      type: a.type,
      status: a.status,
      sentence: sc.sentence,
      citations: byId.get(a.id)?.citations ?? [],
    })),
    statements_total: ranked.length,
    related: await relatedOf(s, row.id, atomIds),
  };
}

/**
 * The profile of the entity `ref` names (`entity:<id>` or a name), or the candidates when a name is ambiguous.
 * `statements`: most statements (default 5, 1..30).
 * @throws PegasError INVALID_INPUT (empty reference, bad count), NOT_FOUND (no such entity), STORE_UNAVAILABLE.
 */
export async function getEntity(
  s: Pick<Services, "entities" | "atomReads">,
  ref: string,
  statements: number = PROFILE_LIMITS.statements.default,
): Promise<EntityLookup> {
  if (!Number.isInteger(statements) || statements < 1 || statements > PROFILE_LIMITS.statements.max)
    throw invalidInput(`statements must be an integer from 1 to ${PROFILE_LIMITS.statements.max}, got ${statements}`);
  const rows = await resolveEntityRef(s, ref);
  if (rows.length === 1) return { profile: await profileOf(s, rows[0], statements) };
  return { candidates: await entityCandidates(s, rows) };
}

/** The first candidates of an ambiguous name, each with how many atoms name it (counted up to 200). */
export async function entityCandidates(
  s: Pick<Services, "entities">,
  rows: EntityRow[],
): Promise<Array<EntityBrief & { atoms: number }>> {
  const listed = rows.slice(0, CANDIDATES);
  const counts = await Promise.all(
    listed.map(
      async (r) => new Set((await s.entities.mentionsOfEntity(r.id, { limit: 200 })).map((m) => m.atomId)).size,
    ),
  );
  return listed.map((r, i) => ({ ...brief(r), atoms: counts[i] }));
}
