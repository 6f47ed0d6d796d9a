/**
 * Entities for the admin page (issue 22): a list of root entities (kind, canonical name, aliases, live mentions and
 * atoms), filtered by a name, and one entity's page — its cited profile (memory_get's: the statements that describe
 * it best, the entities named beside it) and every atom that names it, page by page, with its citations. A name is
 * matched on its key as a substring («ефимыч» finds «Андрей Ефимыч») and whole in any inflected form («Андрея
 * Ефимыча»), as memory_get matches it.
 */
import { extractMentions } from "../../domain/entities/mentions.ts";
import { nameKey } from "../../domain/entities/names.ts";
import { ENTITY_KINDS, type EntityKind } from "../../domain/entities/types.ts";
import { detectLang } from "../../domain/text.ts";
import { PegasError } from "../../errors.ts";
import type { EntityListRow, EntityRow } from "../../ports/entities.ts";
import type { AtomView } from "../../ports/store/atom-reads.ts";
import type { Page } from "../../ports/store/document-catalog.ts";
import { type EntityProfile, getEntity } from "../knowledge/get-entity.ts";
import type { Services } from "../services.ts";

/** Entities per page of the list, and atoms per page of one entity. */
export const ENTITY_PAGE = 50;
/** Mentions read for one entity's atom list (its atoms are counted up to there; `atoms_cut` says when more). */
export const ENTITY_ATOM_MENTIONS = 1000;
/** Statements of the profile on an entity's page. */
const PAGE_STATEMENTS = 10;
/** Longest name filter kept (characters). */
const MAX_QUERY = 200;

/** The list's filter: a name (any case or form) and a kind; a kind outside the vocabulary is ignored. */
export interface EntityListQuery {
  q?: string;
  kind?: string;
}

/** True when `k` is one of the entity kinds. */
export const isEntityKind = (k: string | undefined): k is EntityKind =>
  k !== undefined && (ENTITY_KINDS as readonly string[]).includes(k);

/**
 * Page `page` (1-based, {@link ENTITY_PAGE} rows) of the root entities matching `query`, most-mentioned first.
 * @throws PegasError STORE_UNAVAILABLE.
 */
export async function listEntities(
  s: Pick<Services, "entities">,
  query: EntityListQuery,
  page: number,
): Promise<Page<EntityListRow>> {
  const q = (query.q ?? "").trim().slice(0, MAX_QUERY);
  const exact = q ? [...new Set(extractMentions(q, detectLang(q)).map((m) => m.key))] : [];
  return s.entities.listEntities(
    { contains: q ? nameKey(q) : undefined, exact, kind: isEntityKind(query.kind) ? query.kind : undefined },
    (page - 1) * ENTITY_PAGE,
    ENTITY_PAGE,
  );
}

/** One entity's page: its profile and page `page` of the atoms that name it. */
export interface EntityPage {
  entity: EntityRow;
  profile: EntityProfile;
  /** Entities merged into this one (their mentions are its mentions). */
  merged: EntityRow[];
  atoms: Page<AtomView>;
  /** More than {@link ENTITY_ATOM_MENTIONS} mentions: the atom list stops there. */
  atomsCut: boolean;
}

/**
 * The page of entity `id` (a root): {@link EntityPage}; for an entity merged into another, `{ root }` (the page to go
 * to instead). @throws PegasError NOT_FOUND (no such entity), STORE_UNAVAILABLE.
 */
export async function entityPage(
  s: Pick<Services, "entities" | "atomReads">,
  id: number,
  page: number,
): Promise<EntityPage | { root: number }> {
  const [entity] = await s.entities.entitiesByIds([id]);
  if (!entity) throw new PegasError("NOT_FOUND", `no entity ${id}`, { hint: "the entity list finds them by name" });
  if (entity.mergedInto !== null) return { root: await s.entities.rootOf(id) };
  const found = await getEntity(s, `entity:${id}`, PAGE_STATEMENTS);
  if (!("profile" in found)) throw new PegasError("INTERNAL", `entity ${id} resolved to several entities`);
  const mentions = await s.entities.mentionsOfEntity(id, { limit: ENTITY_ATOM_MENTIONS });
  const atomIds = [...new Set(mentions.map((m) => m.atomId))].sort((a, b) => a - b);
  const slice = atomIds.slice((page - 1) * ENTITY_PAGE, page * ENTITY_PAGE);
  const views = new Map((await s.atomReads.atomsByIds(slice, 2)).map((a) => [a.id, a]));
  const mergedIds = [...new Set(mentions.map((m) => m.entityId))].filter((e) => e !== id);
  return {
    entity,
    profile: found.profile,
    merged: await s.entities.entitiesByIds(mergedIds),
    atoms: { rows: slice.flatMap((a) => views.get(a) ?? []), total: atomIds.length },
    atomsCut: mentions.length >= ENTITY_ATOM_MENTIONS,
  };
}
