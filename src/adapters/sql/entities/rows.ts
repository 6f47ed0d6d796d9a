/**
 * Row mappers and shared SQL of the entity tables (migration 0015): one shape for PostgreSQL and PGlite alike
 * (bigint → number, timestamptz → ISO 8601), and the walk from an entity to its root along `merged_into`.
 */
import type { EntityKind } from "../../../domain/entities/types.ts";
import type { EntityMergeRecord, EntityRow, MentionField, MentionRow } from "../../../ports/entities.ts";
import type { SqlLike } from "../database.ts";

/** Longest merge chain followed; merges refuse cycles, this only bounds a damaged table. */
export const MAX_MERGE_DEPTH = 64;

const iso = (v: unknown): string => new Date(v as string).toISOString();

/** A pm_entity row as an {@link EntityRow}. */
export function toEntity(r: Record<string, unknown>): EntityRow {
  return {
    id: Number(r.id),
    kind: r.kind as EntityKind,
    name: String(r.name),
    key: String(r.key),
    aliases: (r.aliases as string[] | null) ?? [],
    aliasKeys: (r.alias_keys as string[] | null) ?? [],
    mergedInto: r.merged_into === null || r.merged_into === undefined ? null : Number(r.merged_into),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** A pm_entity_mention row joined with its root (`root_id`) as a {@link MentionRow}. */
export function toMention(r: Record<string, unknown>): MentionRow {
  return {
    id: Number(r.id),
    entityId: Number(r.entity_id),
    rootId: Number(r.root_id),
    atomId: Number(r.atom_id),
    field: r.field as MentionField,
    start: Number(r.span_start),
    end: Number(r.span_end),
    surface: String(r.surface),
    confidence: Number(r.confidence),
  };
}

/** A pm_entity_merge row as an {@link EntityMergeRecord}. */
export function toMerge(r: Record<string, unknown>): EntityMergeRecord {
  return {
    id: Number(r.id),
    fromEntityId: Number(r.from_entity_id),
    intoEntityId: Number(r.into_entity_id),
    reason: String(r.reason),
    evidence: (r.evidence as Record<string, unknown>) ?? {},
    actor: String(r.actor),
    createdAt: iso(r.created_at),
    undoneAt: r.undone_at === null || r.undone_at === undefined ? null : iso(r.undone_at),
  };
}

/** The root (after merges) of each of `ids` that exists, as entity id → root id. */
export async function rootsOf(sql: SqlLike, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await sql`
    WITH RECURSIVE walk(id, cur, depth) AS (
      SELECT e.id, e.id, 0 FROM pm_entity e WHERE e.id = ANY(${ids}::bigint[])
      UNION ALL
      SELECT w.id, e.merged_into, w.depth + 1 FROM walk w JOIN pm_entity e ON e.id = w.cur
       WHERE e.merged_into IS NOT NULL AND w.depth < ${MAX_MERGE_DEPTH})
    SELECT DISTINCT ON (id) id, cur FROM walk ORDER BY id, depth DESC`;
  return new Map(rows.map((r) => [Number(r.id), Number(r.cur)]));
}

/** An entity and every entity merged into it, directly or through others. */
export async function subtreeOf(sql: SqlLike, id: number): Promise<number[]> {
  const rows = await sql`
    WITH RECURSIVE down(id, depth) AS (
      SELECT ${id}::bigint, 0
      UNION ALL
      SELECT e.id, d.depth + 1 FROM pm_entity e JOIN down d ON e.merged_into = d.id WHERE d.depth < ${MAX_MERGE_DEPTH})
    SELECT DISTINCT id FROM down`;
  return rows.map((r) => Number(r.id));
}
