/**
 * Reads of the entity tables: entities by id or key, mentions of an entity (its merged entities included) or of
 * atoms, merges, counts and the atoms a backfill walks. Mentions of retracted atoms are never returned.
 */
import type { AtomText, EntityCounts, EntityMergeRecord, EntityRow, MentionRow } from "../../../ports/entities.ts";
import type { SqlLike } from "../database.ts";
import { rootsOf, subtreeOf, toEntity, toMention, toMerge } from "./rows.ts";

/** Most mentions one read returns. */
export const MAX_MENTIONS = 1000;

/** Entities by id, in the order asked; unknown ids left out. */
export async function entitiesByIds(sql: SqlLike, ids: number[]): Promise<EntityRow[]> {
  if (!ids.length) return [];
  const rows = await sql`SELECT * FROM pm_entity WHERE id = ANY(${ids}::bigint[])`;
  const byId = new Map(rows.map((r) => [Number(r.id), toEntity(r)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** Root entities holding one of `keys` as key or alias key, by id. */
export async function entitiesByKeys(sql: SqlLike, keys: string[]): Promise<EntityRow[]> {
  if (!keys.length) return [];
  const hits = await sql`SELECT id FROM pm_entity WHERE key = ANY(${keys}::text[]) OR alias_keys && ${keys}::text[]`;
  const roots = await rootsOf(
    sql,
    hits.map((r) => Number(r.id)),
  );
  const ids = [...new Set(roots.values())].sort((a, b) => a - b);
  return entitiesByIds(sql, ids);
}

/** pm_entity_mention rows as {@link MentionRow}s, each with its entity's root after merges. */
async function withRoots(sql: SqlLike, rows: Array<Record<string, unknown>>): Promise<MentionRow[]> {
  const roots = await rootsOf(sql, [...new Set(rows.map((r) => Number(r.entity_id)))]);
  return rows.map((r) => toMention({ ...r, root_id: roots.get(Number(r.entity_id)) ?? r.entity_id }));
}

/** Mentions of `entityId` and of the entities merged into it, atoms not retracted, by id after `afterId`. */
export async function mentionsOfEntity(
  sql: SqlLike,
  entityId: number,
  limit: number,
  afterId: number,
): Promise<MentionRow[]> {
  const ids = await subtreeOf(sql, entityId);
  const rows = await sql`
    SELECT m.* FROM pm_entity_mention m JOIN pm_atom a ON a.id = m.atom_id
     WHERE m.entity_id = ANY(${ids}::bigint[]) AND a.status <> 'retracted' AND m.id > ${afterId}
     ORDER BY m.id LIMIT ${Math.min(Math.max(1, limit), MAX_MENTIONS)}`;
  return withRoots(sql, rows);
}

/** Mentions in the given atoms (not retracted), by atom, field, span. */
export async function mentionsOfAtoms(sql: SqlLike, atomIds: number[]): Promise<MentionRow[]> {
  if (!atomIds.length) return [];
  const rows = await sql`
    SELECT m.* FROM pm_entity_mention m JOIN pm_atom a ON a.id = m.atom_id
     WHERE m.atom_id = ANY(${atomIds}::bigint[]) AND a.status <> 'retracted'
     ORDER BY m.atom_id, m.field, m.span_start, m.span_end`;
  return withRoots(sql, rows);
}

/** Merges involving `entityId` on either side (every merge when undefined), newest first. */
export async function entityMerges(sql: SqlLike, entityId?: number): Promise<EntityMergeRecord[]> {
  const rows =
    entityId === undefined
      ? await sql`SELECT * FROM pm_entity_merge ORDER BY id DESC`
      : await sql`SELECT * FROM pm_entity_merge WHERE from_entity_id = ${entityId} OR into_entity_id = ${entityId} ORDER BY id DESC`;
  return rows.map(toMerge);
}

/** Counts of the entity tables (mentions of retracted atoms left out). */
export async function entityCounts(sql: SqlLike): Promise<EntityCounts> {
  const [r] = await sql`
    SELECT (SELECT count(*) FROM pm_entity WHERE merged_into IS NULL) AS entities,
           (SELECT count(*) FROM pm_entity WHERE merged_into IS NOT NULL) AS merged,
           (SELECT count(*) FROM pm_entity_mention m JOIN pm_atom a ON a.id = m.atom_id WHERE a.status <> 'retracted') AS mentions,
           (SELECT count(*) FROM pm_entity_merge WHERE undone_at IS NULL) AS merges`;
  return {
    entities: Number(r.entities),
    merged: Number(r.merged),
    mentions: Number(r.mentions),
    merges: Number(r.merges),
  };
}

/** Up to `limit` non-retracted atoms after `afterId`, ascending. */
export async function atomsAfter(sql: SqlLike, afterId: number, limit: number): Promise<AtomText[]> {
  const rows = await sql`
    SELECT id, claim, content, lang FROM pm_atom WHERE id > ${afterId} AND status <> 'retracted' ORDER BY id LIMIT ${limit}`;
  return rows.map((r) => ({
    id: Number(r.id),
    claim: String(r.claim),
    content: String(r.content),
    lang: String(r.lang),
  }));
}
