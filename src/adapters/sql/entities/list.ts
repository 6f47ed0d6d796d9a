/**
 * The entity list of the admin page: root entities (merged ones are shown through their root), each with its live
 * mentions and the atoms they are in (mentions of retracted atoms left out, merged entities counted with their root),
 * most-mentioned first. A name filter matches the key or an alias key of any entity of a root's merge tree, as a
 * substring or whole; keys are already lower case with ё → е (domain/entities/names.ts), so no SQL case folding is
 * needed (PGlite's C locale would not fold Cyrillic).
 */
import type { EntityListFilter, EntityListRow } from "../../../ports/entities.ts";
import type { SqlLike } from "../database.ts";
import { MAX_MERGE_DEPTH, toEntity } from "./rows.ts";

/** Most entities one page lists. */
export const MAX_LIST = 200;

/** One page of roots matching `f`, with the count of all that match. */
export async function listEntities(
  sql: SqlLike,
  f: EntityListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: EntityListRow[]; total: number }> {
  const contains = f.contains?.trim() ? f.contains.trim() : null;
  const exact = f.exact ?? [];
  const everything = contains === null && exact.length === 0;
  const page = async (off: number, lim: number) => sql`
    WITH RECURSIVE tree(root, id, depth) AS (
      SELECT id, id, 0 FROM pm_entity WHERE merged_into IS NULL AND (${f.kind ?? null}::text IS NULL OR kind = ${f.kind ?? null}::text)
      UNION ALL
      SELECT t.root, e.id, t.depth + 1 FROM pm_entity e JOIN tree t ON e.merged_into = t.id WHERE t.depth < ${MAX_MERGE_DEPTH}),
    hit AS (
      SELECT DISTINCT t.root FROM tree t JOIN pm_entity e ON e.id = t.id
       WHERE ${everything} OR e.key = ANY(${exact}::text[]) OR e.alias_keys && ${exact}::text[]
          OR (${contains}::text IS NOT NULL AND (position(${contains}::text IN e.key) > 0
              OR EXISTS (SELECT 1 FROM unnest(e.alias_keys) AS k(v) WHERE position(${contains}::text IN k.v) > 0)))),
    counts AS (
      SELECT h.root, count(a.id) AS mentions, count(DISTINCT a.id) AS atoms
        FROM hit h JOIN tree t ON t.root = h.root
        LEFT JOIN pm_entity_mention m ON m.entity_id = t.id
        LEFT JOIN pm_atom a ON a.id = m.atom_id AND a.status <> 'retracted'
       GROUP BY h.root)
    SELECT e.*, c.mentions, c.atoms, count(*) OVER () AS total
      FROM counts c JOIN pm_entity e ON e.id = c.root
     ORDER BY c.atoms DESC, e.name, e.id OFFSET ${off} LIMIT ${lim}`;
  const lim = Math.min(Math.max(1, Math.trunc(limit)), MAX_LIST);
  const off = Math.max(0, Math.trunc(offset));
  const rows = await page(off, lim);
  // Past the end the page is empty: the first row of page one tells the total (the UI then goes to the last page).
  const total = rows.length ? Number(rows[0].total) : off > 0 ? Number((await page(0, 1))[0]?.total ?? 0) : 0;
  return {
    rows: rows.map((r) => ({ ...toEntity(r), mentions: Number(r.mentions), atoms: Number(r.atoms) })),
    total,
  };
}
