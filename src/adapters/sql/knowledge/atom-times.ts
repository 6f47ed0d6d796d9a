/**
 * The time columns of written atoms (migrations/0016_atom_time.sql), set after the atoms are written in the same
 * transaction. An atom stored again keeps its earliest `observed_at` (when the memory first heard it said) and the
 * event time it was first given; an absorbed near-duplicate keeps its own row's time, the atom it merged into is
 * left alone (its own text dates it).
 */
import type { TransactionSql } from "postgres";
import type { EventTime, TimeGranularity } from "../../../domain/time/atom-time.ts";
import type { PlannedAtom } from "../../../ports/store/atom-writes.ts";
import type { SqlLike } from "../database.ts";

type Tx = TransactionSql<any>;

const BATCH = 500;

/**
 * Stamps each planned atom's time on its own row (`ownIds[i]`, the row its text is stored in). Rows are updated
 * only when something changes, so an undated ingest writes nothing here.
 */
export async function writeAtomTimes(tx: Tx, planned: PlannedAtom[], ownIds: number[]): Promise<void> {
  const rows = planned.flatMap((p, i) =>
    p.atom.time?.observedAt || p.atom.time?.event ? [{ id: ownIds[i], t: p.atom.time }] : [],
  );
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    await tx`
      UPDATE pm_atom a SET
        observed_at = LEAST(a.observed_at, x.obs),
        event_start = COALESCE(a.event_start, x.es),
        event_end = CASE WHEN a.event_start IS NULL THEN x.ee ELSE a.event_end END,
        event_granularity = CASE WHEN a.event_start IS NULL THEN x.eg ELSE a.event_granularity END
        FROM unnest(${part.map((r) => r.id)}::bigint[],
                    ${part.map((r) => r.t.observedAt ?? null)}::timestamptz[],
                    ${part.map((r) => r.t.event?.start ?? null)}::timestamptz[],
                    ${part.map((r) => r.t.event?.end ?? null)}::timestamptz[],
                    ${part.map((r) => r.t.event?.granularity ?? null)}::text[]) AS x(id, obs, es, ee, eg)
       WHERE a.id = x.id
         AND ((x.obs IS NOT NULL AND (a.observed_at IS NULL OR x.obs < a.observed_at))
              OR (x.es IS NOT NULL AND a.event_start IS NULL))`;
  }
}

/** The event time of each dated atom among `atomIds` (ISO UTC instants), by primary key. */
export async function eventTimes(sql: SqlLike, atomIds: number[]): Promise<Map<number, EventTime>> {
  const out = new Map<number, EventTime>();
  if (!atomIds.length) return out;
  const rows = await sql`
    SELECT id, event_start, event_end, event_granularity FROM pm_atom
     WHERE id = ANY(${atomIds}::bigint[]) AND event_start IS NOT NULL`;
  for (const r of rows)
    out.set(Number(r.id), {
      start: new Date(r.event_start).toISOString(),
      end: new Date(r.event_end).toISOString(),
      granularity: String(r.event_granularity) as TimeGranularity,
    });
  return out;
}
