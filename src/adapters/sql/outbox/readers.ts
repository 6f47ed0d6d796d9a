/**
 * The outbox's readers (migration 0014): the external projections some process has configured, each with the outbox
 * entity types it reads. A rule leaves every outbox row no reader reads out of its INSERT, in the writer's transaction; here readers
 * are registered at a process's start, refreshed by its worker's retention passes, dropped when no process has seen
 * them for the retention period, and the rows nobody reads any more are deleted.
 */
import type { Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import type { OutboxReader, ReadersRegistered } from "../../../ports/projections/outbox.ts";

/**
 * Upserts `readers` with `seen_at = now()`. A reader is reported `added` when it had no row, or its row had lapsed
 * (not seen for `lapsedAfterS` seconds, 0 meaning never: writes in between may not have been queued for it).
 */
export async function registerReaders(
  sql: Sql<any>,
  readers: readonly OutboxReader[],
  lapsedAfterS: number,
): Promise<ReadersRegistered> {
  if (!readers.length) return { added: [], storeHasAtoms: false };
  const lapse = lapsedAfterS > 0 && Number.isFinite(lapsedAfterS) ? lapsedAfterS : null; // 0: readers never lapse
  for (const r of readers)
    if (!r.name || !r.entityTypes.length)
      throw new PegasError("INVALID_INPUT", `outbox reader '${r.name}' names no entity type`);
  const rows = await sql`
    WITH given AS (
      SELECT * FROM jsonb_to_recordset(${sql.json(readers.map((r) => ({ name: r.name, types: [...r.entityTypes] })))})
        AS g(name text, types text[])),
    before AS (
      SELECT g.name, r.seen_at FROM given g LEFT JOIN pm_outbox_reader r ON r.name = g.name),
    up AS (
      INSERT INTO pm_outbox_reader (name, entity_types) SELECT name, types FROM given
      ON CONFLICT (name) DO UPDATE SET entity_types = EXCLUDED.entity_types, seen_at = now()
      RETURNING name)
    SELECT b.name, (b.seen_at IS NULL OR b.seen_at < now() - ${lapse}::float8 * interval '1 second') AS added,
           EXISTS (SELECT 1 FROM pm_atom) AS has_atoms
      FROM before b JOIN up USING (name)`;
  return {
    added: rows.filter((r) => r.added).map((r) => String(r.name)),
    storeHasAtoms: rows.some((r) => r.has_atoms),
  };
}

/** Refreshes `own` readers, drops the others unseen for `ttlS` seconds; returns the names dropped. */
export async function expireReaders(sql: Sql<any>, own: readonly string[], ttlS: number): Promise<string[]> {
  if (!(ttlS > 0)) throw new PegasError("INVALID_INPUT", `outbox reader lifetime ${ttlS} s is not > 0`);
  if (own.length) await sql`UPDATE pm_outbox_reader SET seen_at = now() WHERE name = ANY(${own as string[]}::text[])`;
  const gone = await sql`
    DELETE FROM pm_outbox_reader
     WHERE seen_at < now() - ${ttlS}::float8 * interval '1 second' AND NOT (name = ANY(${own as string[]}::text[]))
    RETURNING name`;
  return gone.map((r) => String(r.name));
}

/** Deletes up to `limit` unprocessed rows (pending or dead) of entity types no reader reads; returns how many. */
export async function deleteUnread(sql: Sql<any>, limit: number): Promise<number> {
  const r = await sql`
    DELETE FROM pm_outbox WHERE id IN (
      SELECT o.id FROM pm_outbox o
       WHERE o.processed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM pm_outbox_reader r WHERE o.entity_type = ANY (r.entity_types))
       ORDER BY o.id LIMIT ${limit}::int)`;
  return r.count;
}
