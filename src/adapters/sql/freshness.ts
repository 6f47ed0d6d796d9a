/**
 * The FreshnessStore over SQL (PostgreSQL and PGlite alike): the check-state columns of pm_document added by
 * migration 0018. A gone page's atoms are flagged in their metadata (and re-sent to the projections through the
 * outbox), never deleted nor restatused. Driver errors become PegasError.
 */
import type { Sql, TransactionSql } from "postgres";
import type {
  DueUrlDocument,
  FreshnessState,
  FreshnessStore,
  Validators,
  WaitingUrlDocument,
} from "../../ports/store/freshness.ts";
import type { Database } from "./database.ts";
import { guard } from "./errors.ts";
import { enqueueOutbox } from "./knowledge/table-writes.ts";
import { signalOutbox } from "./outbox/signal.ts";

/** The URL documents a refresh may check, due at `olderThanS` seconds (a parameter fragment for the tagged query). */
function dueWhere(sql: Sql<any>, olderThanS: number, waiting = false) {
  const retry = waiting ? sql`next_check_at > now()` : sql`(next_check_at IS NULL OR next_check_at <= now())`;
  return sql`status = 'active' AND content_hash IS NOT NULL AND uri LIKE 'http%' AND ${retry}
    AND GREATEST(checked_at, updated_at) <= now() - make_interval(secs => ${olderThanS}::float8)`;
}

const isoOrNull = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string).toISOString();

/** {@link FreshnessStore} over the canonical tables. */
export class SqlFreshnessStore implements FreshnessStore {
  constructor(private readonly db: Database) {}

  dueUrlDocuments(olderThanS: number, limit: number): Promise<DueUrlDocument[]> {
    return guard(this.db, "list URL documents due for a check", async (sql) => {
      const rows = await sql`
        SELECT id, uri, version, check_failures, gone_at IS NOT NULL AS gone,
               COALESCE(http_etag, metadata->>'etag') AS etag,
               COALESCE(http_last_modified, metadata->>'last_modified') AS last_modified
          FROM pm_document WHERE ${dueWhere(sql, olderThanS)}
         ORDER BY GREATEST(checked_at, updated_at), id LIMIT ${limit}`;
      return rows.map((r) => ({
        id: Number(r.id),
        uri: String(r.uri),
        version: Number(r.version),
        etag: (r.etag as string | null) ?? null,
        lastModified: (r.last_modified as string | null) ?? null,
        failures: Number(r.check_failures),
        gone: r.gone === true,
      }));
    });
  }

  waitingUrlDocuments(olderThanS: number, limit: number): Promise<{ total: number; items: WaitingUrlDocument[] }> {
    return guard(this.db, "list URL documents waiting for a retry", async (sql) => {
      const rows = await sql`
        SELECT id, uri, check_error, next_check_at, check_failures, count(*) OVER () AS total
          FROM pm_document WHERE ${dueWhere(sql, olderThanS, true)}
         ORDER BY next_check_at, id LIMIT ${limit}`;
      const items = rows.map((r) => ({
        id: Number(r.id),
        uri: String(r.uri),
        error: (r.check_error as string | null) ?? null,
        retryAt: new Date(r.next_check_at as string).toISOString(),
        failures: Number(r.check_failures),
      }));
      return { total: rows.length ? Number(rows[0].total) : 0, items };
    });
  }

  countDue(olderThanS: number): Promise<number> {
    return guard(this.db, "count URL documents due for a check", async (sql) => {
      const [r] = await sql`SELECT count(*) AS n FROM pm_document WHERE ${dueWhere(sql, olderThanS)}`;
      return Number(r.n);
    });
  }

  markChecked(docId: number, v: Validators): Promise<void> {
    return guard(this.db, "record a URL check", async (sql) => {
      await sql`
        UPDATE pm_document SET checked_at = now(), next_check_at = NULL, check_failures = 0, check_error = NULL,
               http_etag = CASE WHEN ${v.etag !== undefined}::boolean THEN ${v.etag ?? null}::text ELSE http_etag END,
               http_last_modified = CASE WHEN ${v.lastModified !== undefined}::boolean THEN ${v.lastModified ?? null}::text
                                         ELSE http_last_modified END
         WHERE id = ${docId}`;
    });
  }

  markFailed(docId: number, error: string, retryAt: Date): Promise<void> {
    return guard(this.db, "record a failed URL check", async (sql) => {
      await sql`
        UPDATE pm_document SET check_failures = check_failures + 1, check_error = ${error.slice(0, 500)},
               next_check_at = ${retryAt.toISOString()}::timestamptz
         WHERE id = ${docId}`;
    });
  }

  markGone(docId: number, status: number): Promise<number> {
    return this.reflag("mark a URL document gone", docId, async (tx) => {
      // A page still gone keeps the time it was first found gone, and its atoms their flag.
      const [doc] = await tx`
        UPDATE pm_document d SET gone_at = COALESCE(d.gone_at, now()), checked_at = now(), next_check_at = NULL,
               check_failures = 0, check_error = ${`HTTP ${status}`}
          FROM (SELECT gone_at FROM pm_document WHERE id = ${docId}) AS old
         WHERE d.id = ${docId} RETURNING d.uri, old.gone_at IS NULL AS newly`;
      if (!doc) return null;
      const atoms = await tx`
        UPDATE pm_atom SET metadata = metadata || jsonb_build_object('source_gone', jsonb_build_object(
                 'doc_id', ${docId}::bigint, 'uri', ${String(doc.uri)}::text, 'status', ${status}::int,
                 'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')))
         WHERE id IN (SELECT atom_id FROM pm_citation WHERE doc_id = ${docId} AND chunk_id IS NOT NULL)
           AND (metadata->'source_gone'->>'doc_id') IS DISTINCT FROM ${String(docId)}::text
        RETURNING id`;
      return { doc: doc.newly === true, atoms };
    });
  }

  markBack(docId: number): Promise<number> {
    return this.reflag("mark a URL document back", docId, async (tx) => {
      const [doc] = await tx`
        UPDATE pm_document SET gone_at = NULL, checked_at = now(), next_check_at = NULL, check_failures = 0,
               check_error = NULL
         WHERE id = ${docId} AND gone_at IS NOT NULL RETURNING id`;
      const atoms = await tx`
        UPDATE pm_atom SET metadata = metadata - 'source_gone'
         WHERE id IN (SELECT atom_id FROM pm_citation WHERE doc_id = ${docId} AND chunk_id IS NOT NULL)
           AND (metadata->'source_gone'->>'doc_id')::bigint = ${docId}
        RETURNING id`;
      return { doc: doc !== undefined, atoms };
    });
  }

  /**
   * Runs `change` (the document's row, then its atoms' flag) in one transaction and sends what it changed (the
   * document when `doc`, the atoms it returned) to the projections; resolves to the atoms changed (0 when `change`
   * found no document).
   */
  private async reflag(
    what: string,
    docId: number,
    change: (tx: TransactionSql<any>) => Promise<{ doc: boolean; atoms: readonly unknown[] } | null>,
  ): Promise<number> {
    const ids = await guard(this.db, what, (sql) =>
      sql.begin(async (tx) => {
        const changed = await change(tx);
        if (!changed) return [] as number[];
        const atomIds = changed.atoms.map((r) => Number((r as { id: unknown }).id));
        if (changed.doc) await enqueueOutbox(tx, "document", [docId], "upsert");
        if (atomIds.length) await enqueueOutbox(tx, "atom", atomIds, "upsert");
        return atomIds;
      }),
    );
    signalOutbox();
    return ids.length;
  }

  freshness(docId: number): Promise<FreshnessState | null> {
    return guard(this.db, "read a document's check state", async (sql) => {
      const [r] = await sql`
        SELECT COALESCE(http_etag, metadata->>'etag') AS etag,
               COALESCE(http_last_modified, metadata->>'last_modified') AS last_modified,
               checked_at, next_check_at, check_failures, check_error, gone_at
          FROM pm_document WHERE id = ${docId}`;
      if (!r) return null;
      return {
        etag: (r.etag as string | null) ?? null,
        lastModified: (r.last_modified as string | null) ?? null,
        checkedAt: isoOrNull(r.checked_at),
        nextCheckAt: isoOrNull(r.next_check_at),
        failures: Number(r.check_failures),
        lastError: (r.check_error as string | null) ?? null,
        goneAt: isoOrNull(r.gone_at),
      };
    });
  }
}
