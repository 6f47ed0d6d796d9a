/**
 * The SupersessionStore over SQL (PostgreSQL and PGlite alike; migration 0017): supersessions recorded as an audited
 * status change of the older atom (actor `supersede`, evidence the newer atom) plus a `supersedes` link newer → older,
 * with outbox rows; the revert hook that removes the link when memory_verify reverts such a change; and the
 * `valid_at` / `known_at` filters of reads. Driver errors become PegasError.
 */
import type { Sql, TransactionSql } from "postgres";
import type {
  AsOf,
  SupersessionApplied,
  SupersessionStore,
  SupersessionSubject,
  SupersessionWrite,
} from "../../../ports/store/supersession.ts";
import type { Database, SqlLike } from "../database.ts";
import { mapSqlError } from "../errors.ts";
import { signalOutbox } from "../outbox/signal.ts";

type Tx = TransactionSql<any>;

const LIVE = ["candidate", "verified", "contested"];
const iso = (v: unknown): string | null => (v ? new Date(v as string).toISOString() : null);

/** Records one supersession in `tx` (see {@link SupersessionStore.applySupersessions}); null when skipped. */
export async function applySupersessionTx(tx: Tx, w: SupersessionWrite): Promise<SupersessionApplied | null> {
  if (w.newerId === w.olderId) return null;
  const rows = await tx`SELECT id, status FROM pm_atom WHERE id IN (${w.newerId}, ${w.olderId}) ORDER BY id FOR UPDATE`;
  const status = new Map(rows.map((r) => [Number(r.id), String(r.status)]));
  if (!LIVE.includes(status.get(w.olderId) ?? "") || !LIVE.includes(status.get(w.newerId) ?? "")) return null;
  // A pair whose supersession was undone is kept apart for good (an ingest may meet it again).
  const [undone] = await tx`
    SELECT 1 FROM pm_atom_status_change WHERE to_status = 'superseded' AND reverted_at IS NOT NULL
       AND ((atom_id = ${w.olderId} AND evidence @> to_jsonb(${w.newerId}::bigint))
         OR (atom_id = ${w.newerId} AND evidence @> to_jsonb(${w.olderId}::bigint))) LIMIT 1`;
  if (undone) return null;
  await tx`UPDATE pm_atom SET status = 'superseded' WHERE id = ${w.olderId}`;
  const [change] = await tx`
    INSERT INTO pm_atom_status_change (atom_id, from_status, to_status, reason, evidence, actor)
    VALUES (${w.olderId}, ${status.get(w.olderId)!}, 'superseded', ${w.reason}, ${tx.json([w.newerId])}, 'supersede')
    RETURNING id`;
  const [link] = await tx`
    INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind, confidence, source)
    VALUES (${w.newerId}, ${w.olderId}, 'supersedes', 0.9, 'supersede')
    ON CONFLICT (src_atom_id, dst_atom_id, kind) DO UPDATE SET confidence = EXCLUDED.confidence RETURNING id`;
  // Supersession wins over a contradiction between the same two atoms.
  const gone = await tx`
    DELETE FROM pm_atom_link WHERE kind = 'contradicts'
       AND ((src_atom_id = ${w.newerId} AND dst_atom_id = ${w.olderId}) OR (src_atom_id = ${w.olderId} AND dst_atom_id = ${w.newerId}))
    RETURNING id`;
  const [a] = await tx`SELECT status, confidence FROM pm_atom WHERE id = ${w.olderId}`;
  await tx`INSERT INTO pm_outbox (entity_type, entity_id, op, payload)
           VALUES ('atom', ${String(w.olderId)}, 'upsert', ${tx.json({ status: String(a.status), confidence: Number(a.confidence) })})`;
  await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom_link', ${String(link.id)}, 'upsert')`;
  for (const g of gone)
    await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom_link', ${String(g.id)}, 'delete')`;
  return { newerId: w.newerId, olderId: w.olderId, changeId: Number(change.id), linkId: Number(link.id) };
}

/**
 * The revert hook of a status change (called by revertStatusChangeTx): when the reverted change made the atom
 * `superseded`, the `supersedes` links from its evidence atoms to it are removed (with outbox `delete` rows).
 */
export async function dropSupersedesLinksTx(
  tx: Tx,
  change: { atom_id: number; to_status: string; evidence: number[] },
) {
  if (change.to_status !== "superseded" || !change.evidence.length) return;
  const gone = await tx`
    DELETE FROM pm_atom_link WHERE kind = 'supersedes' AND dst_atom_id = ${change.atom_id}
       AND src_atom_id = ANY(${change.evidence}::bigint[]) RETURNING id`;
  for (const g of gone)
    await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom_link', ${String(g.id)}, 'delete')`;
}

/** The stored atoms `ids` as supersession decides them, in the order of `ids` (missing ones left out). */
export async function supersessionSubjectsOf(sql: SqlLike, ids: number[]): Promise<SupersessionSubject[]> {
  if (!ids.length) return [];
  const rows = await sql`
    SELECT a.id, a.type, a.content, (a.metadata->>'passage') = 'true' AS passage, a.status, a.observed_at, a.event_start, a.created_at,
           ARRAY(SELECT DISTINCT x::bigint FROM pm_atom_status_change h, jsonb_array_elements_text(h.evidence) x
                  WHERE h.atom_id = a.id AND h.to_status = 'superseded' AND h.reverted_at IS NOT NULL) AS undone_by,
           ARRAY(SELECT h.atom_id FROM pm_atom_status_change h
                  WHERE h.to_status = 'superseded' AND h.reverted_at IS NOT NULL AND h.evidence @> to_jsonb(a.id)) AS undone_of
      FROM pm_atom a WHERE a.id = ANY(${ids}::bigint[])`;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id,
        type: String(r.type),
        content: String(r.content),
        passage: r.passage === true,
        status: String(r.status),
        observedAt: iso(r.observed_at),
        eventStart: iso(r.event_start),
        createdAt: iso(r.created_at)!,
        keptApart: [...(r.undone_by as unknown[]), ...(r.undone_of as unknown[])].map(Number),
      },
    ];
  });
}

/** SupersessionStore implementation over a {@link Database}. */
export class SqlSupersessionStore implements SupersessionStore {
  /** @param db the canonical database (migrated to version 17 or later). */
  constructor(readonly db: Database) {}

  private async run<T>(what: string, fn: (sql: Sql<any>) => Promise<T>): Promise<T> {
    try {
      return await this.db.run(fn);
    } catch (err) {
      throw mapSqlError(err, what);
    }
  }

  supersessionSubjects(ids: number[]): Promise<SupersessionSubject[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.run("read atoms for supersession", (sql) => supersessionSubjectsOf(sql, ids));
  }

  async applySupersessions(writes: SupersessionWrite[]): Promise<SupersessionApplied[]> {
    if (!writes.length) return [];
    const out = await this.run(
      "record supersessions",
      (sql) =>
        sql.begin(async (tx) => {
          const done: SupersessionApplied[] = [];
          for (const w of writes) {
            const r = await applySupersessionTx(tx, w);
            if (r) done.push(r);
          }
          return done;
        }) as Promise<SupersessionApplied[]>,
    );
    signalOutbox();
    return out;
  }

  filterAsOf(ids: number[], asOf: AsOf): Promise<number[]> {
    if (!ids.length || (!asOf.validAt && !asOf.knownAt)) return Promise.resolve(ids);
    const valid = asOf.validAt ?? null;
    const known = asOf.knownAt ?? null;
    return this.run("filter atoms by time", async (sql) => {
      const rows = await sql`
        SELECT a.id FROM pm_atom a
         WHERE a.id = ANY(${ids}::bigint[]) AND a.status <> 'retracted'
           AND (${valid}::timestamptz IS NULL OR (COALESCE(a.event_start, a.observed_at, a.created_at) <= ${valid}::timestamptz
                AND NOT EXISTS (SELECT 1 FROM pm_atom_link l JOIN pm_atom b ON b.id = l.src_atom_id
                                 WHERE l.dst_atom_id = a.id AND l.kind = 'supersedes' AND b.status <> 'retracted'
                                   AND COALESCE(b.event_start, b.observed_at, b.created_at) <= ${valid}::timestamptz)))
           AND (${known}::timestamptz IS NULL OR (a.created_at <= ${known}::timestamptz
                AND COALESCE((SELECT c.to_status FROM pm_atom_status_change c
                               WHERE c.atom_id = a.id AND c.created_at <= ${known}::timestamptz ORDER BY c.id DESC LIMIT 1),
                             (SELECT c.from_status FROM pm_atom_status_change c WHERE c.atom_id = a.id ORDER BY c.id LIMIT 1),
                             a.status) NOT IN ('superseded', 'retracted', 'stale')))`;
      const kept = new Set(rows.map((r) => Number(r.id)));
      return ids.filter((id) => kept.has(id));
    });
  }

  supersededBy(ids: number[]): Promise<Map<number, number[]>> {
    if (!ids.length) return Promise.resolve(new Map());
    return this.run("read supersessions", async (sql) => {
      const rows = await sql`
        SELECT l.dst_atom_id AS older, l.src_atom_id AS newer FROM pm_atom_link l JOIN pm_atom b ON b.id = l.src_atom_id
         WHERE l.kind = 'supersedes' AND l.dst_atom_id = ANY(${ids}::bigint[]) AND b.status <> 'retracted'
         ORDER BY l.dst_atom_id, l.src_atom_id`;
      const out = new Map<number, number[]>();
      for (const r of rows) {
        const older = Number(r.older);
        out.set(older, [...(out.get(older) ?? []), Number(r.newer)]);
      }
      return out;
    });
  }
}
