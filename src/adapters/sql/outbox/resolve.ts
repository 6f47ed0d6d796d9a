/**
 * From outbox rows to projection changes (the CURRENT canonical state of each distinct entity, null when it is gone
 * or retracted), and keyset pages of every live entity for rebuilds. One query per entity kind, whatever the count.
 */
import type { Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { MAX_MERGE_DEPTH } from "../entities/rows.ts";
import type { OutboxEntity, OutboxRow, SnapshotPage } from "../../../ports/projections/outbox.ts";
import type { ProjectionChange } from "../../../ports/projections/projection-sink.ts";
import {
  EDGE_TABLES,
  type EdgeTable,
  liveAtoms,
  liveDocuments,
  liveEdges,
  liveEntities,
  liveSymbols,
} from "./queries.ts";

/** The edge table behind each edge entity type of the outbox. */
export const EDGE_TABLE_OF: Readonly<
  Record<"atom_link" | "atom_symbol_link" | "code_dependency" | "entity_mention", EdgeTable>
> = {
  atom_link: "pm_atom_link",
  atom_symbol_link: "pm_atom_symbol_link",
  code_dependency: "pm_code_dependency",
  entity_mention: "pm_entity_mention",
};

/** Every entity type this build resolves (claims leave other types pending for a build that knows them). */
export const KNOWN_ENTITIES: readonly OutboxEntity[] = [
  "atom",
  "document",
  "code_symbol",
  "atom_link",
  "atom_symbol_link",
  "code_dependency",
  "entity",
  "entity_mention",
];

type Kind = "atom" | "document" | "code_symbol" | "entity" | EdgeTable;

/** Groups the rows' entity ids by kind, deduplicated; ids that are no positive integer are logged and dropped. */
function groupIds(rows: readonly OutboxRow[]): Map<Kind, number[]> {
  const sets = new Map<Kind, Set<number>>();
  for (const row of rows) {
    const kind: Kind | undefined =
      row.entityType === "atom" ||
      row.entityType === "document" ||
      row.entityType === "code_symbol" ||
      row.entityType === "entity"
        ? row.entityType
        : EDGE_TABLE_OF[row.entityType as keyof typeof EDGE_TABLE_OF];
    const id = /^[1-9]\d{0,15}$/.test(row.entityId) ? Number(row.entityId) : NaN;
    if (kind === undefined || !Number.isSafeInteger(id)) {
      log.warn("outbox row names no projectable entity; skipped", {
        id: row.id,
        entityType: row.entityType,
        entityId: row.entityId,
      });
      continue;
    }
    let set = sets.get(kind);
    if (!set) sets.set(kind, (set = new Set()));
    set.add(id);
  }
  return new Map([...sets].map(([k, s]) => [k, [...s].sort((a, b) => a - b)]));
}

/**
 * The mention rows whose edge may have changed with the named mentions and entities (a mention edge is the first
 * mention of its atom and root entity: graph/sql.ts): every mention of the atoms of `mentionIds` (a new mention may
 * take the edge's key from another, or raise its confidence), and every mention of the merge trees of `entityIds`
 * (a merge or its undo moves them all between roots). Includes `mentionIds` themselves (gone ones resolve to null).
 */
async function mentionEdgeIds(sql: Sql<any>, mentionIds: number[], entityIds: number[]): Promise<number[]> {
  const rows = await sql`
    WITH RECURSIVE up(id, cur, d) AS (
      SELECT id, id, 0 FROM pm_entity WHERE id = ANY(${entityIds}::bigint[])
      UNION ALL
      SELECT up.id, x.merged_into, up.d + 1 FROM up JOIN pm_entity x ON x.id = up.cur
       WHERE x.merged_into IS NOT NULL AND up.d < ${MAX_MERGE_DEPTH}),
    down(id) AS (
      SELECT cur FROM up
      UNION
      SELECT x.id FROM down JOIN pm_entity x ON x.merged_into = down.id)
    SELECT m.id FROM pm_entity_mention m WHERE m.entity_id IN (SELECT id FROM down)
    UNION
    SELECT s.id FROM pm_entity_mention s
     WHERE s.atom_id IN (SELECT atom_id FROM pm_entity_mention WHERE id = ANY(${mentionIds}::bigint[]))`;
  const all = new Set([...mentionIds, ...rows.map((r) => Number(r.id))]);
  return [...all].sort((a, b) => a - b);
}

/**
 * The current state of every distinct entity named by `rows`, as changes in kind order (atoms, documents, symbols,
 * entities, edges), null state for an entity that is gone or retracted (and for an edge with a retracted endpoint atom).
 * A merged entity is gone as a node; the mention edges a change of mentions or of a merge touches are resolved with it.
 */
export async function resolveRows(
  sql: Sql<any>,
  rows: readonly OutboxRow[],
  model: string,
): Promise<ProjectionChange[]> {
  const groups = groupIds(rows);
  const ids = (k: Kind) => groups.get(k) ?? [];
  if (ids("pm_entity_mention").length || ids("entity").length)
    groups.set("pm_entity_mention", await mentionEdgeIds(sql, ids("pm_entity_mention"), ids("entity")));
  const none = Promise.resolve(new Map<number, never>());
  const [atoms, docs, symbols, entities, ...edges] = await Promise.all([
    ids("atom").length ? liveAtoms(sql, { ids: ids("atom") }, model) : none,
    ids("document").length ? liveDocuments(sql, { ids: ids("document") }) : none,
    ids("code_symbol").length ? liveSymbols(sql, { ids: ids("code_symbol") }) : none,
    ids("entity").length ? liveEntities(sql, { ids: ids("entity") }) : none,
    ...EDGE_TABLES.map((t) => (ids(t).length ? liveEdges(sql, t, { ids: ids(t) }) : none)),
  ]);
  const changes: ProjectionChange[] = [];
  for (const id of ids("atom")) changes.push({ entity: "atom", id, state: atoms.get(id) ?? null });
  for (const id of ids("document")) changes.push({ entity: "document", id, state: docs.get(id) ?? null });
  for (const id of ids("code_symbol")) changes.push({ entity: "symbol", id, state: symbols.get(id) ?? null });
  for (const id of ids("entity")) changes.push({ entity: "entity", id, state: entities.get(id) ?? null });
  EDGE_TABLES.forEach((t, i) => {
    for (const id of ids(t)) changes.push({ entity: "edge", key: `${t}:${id}`, state: edges[i].get(id) ?? null });
  });
  return changes;
}

function badCursor(entity: string, cursor: string): PegasError {
  return new PegasError("INVALID_INPUT", `snapshot cursor '${cursor}' is not one of ${entity}`, {
    hint: "pass null to start, then the `next` of the previous page",
  });
}

/** A page of up to `limit` live nodes of one kind after `cursor` (an id as text); `next` is null at the end. */
async function nodePage(
  sql: Sql<any>,
  entity: "atom" | "document" | "symbol" | "entity",
  cursor: string | null,
  limit: number,
  model: string,
): Promise<SnapshotPage> {
  if (cursor !== null && !/^\d{1,16}$/.test(cursor)) throw badCursor(entity, cursor);
  const p = { after: cursor === null ? 0 : Number(cursor), limit };
  const changes: ProjectionChange[] = [];
  if (entity === "atom") for (const [id, state] of await liveAtoms(sql, p, model)) changes.push({ entity, id, state });
  else if (entity === "document")
    for (const [id, state] of await liveDocuments(sql, p)) changes.push({ entity, id, state });
  else if (entity === "symbol")
    for (const [id, state] of await liveSymbols(sql, p)) changes.push({ entity, id, state });
  else for (const [id, state] of await liveEntities(sql, p)) changes.push({ entity, id, state });
  const last = changes.at(-1);
  return { changes, next: changes.length === limit && last && "id" in last ? String(last.id) : null };
}

/** A page of up to `limit` live edges after `cursor` (`<table>:<id>`), walking the edge tables in order. */
async function edgePage(sql: Sql<any>, cursor: string | null, limit: number): Promise<SnapshotPage> {
  let table = 0;
  let after = 0;
  if (cursor !== null) {
    const m = /^([a-z_]+):(\d{1,16})$/.exec(cursor);
    table = m ? EDGE_TABLES.indexOf(m[1] as EdgeTable) : -1;
    if (!m || table < 0) throw badCursor("edge", cursor);
    after = Number(m[2]);
  }
  const changes: ProjectionChange[] = [];
  for (; table < EDGE_TABLES.length && changes.length < limit; table++, after = 0) {
    const t = EDGE_TABLES[table];
    for (const [id, state] of await liveEdges(sql, t, { after, limit: limit - changes.length })) {
      changes.push({ entity: "edge", key: `${t}:${id}`, state });
    }
  }
  const last = changes.at(-1);
  return { changes, next: changes.length === limit && last && "key" in last ? last.key : null };
}

/**
 * One keyset page of every live entity of a kind, in the shapes of {@link resolveRows} (never a null state).
 * @throws PegasError INVALID_INPUT for a malformed cursor or a limit outside 1..10 000.
 */
export function snapshotPage(
  sql: Sql<any>,
  entity: ProjectionChange["entity"],
  cursor: string | null,
  limit: number,
  model: string,
): Promise<SnapshotPage> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    return Promise.reject(new PegasError("INVALID_INPUT", `snapshot limit ${limit} is outside 1..10000`));
  }
  return entity === "edge" ? edgePage(sql, cursor, limit) : nodePage(sql, entity, cursor, limit, model);
}
