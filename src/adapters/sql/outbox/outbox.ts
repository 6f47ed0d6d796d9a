/**
 * The OutboxStore over SQL (PostgreSQL and PGlite alike): leased claims with `FOR UPDATE SKIP LOCKED`, acks and
 * failures fenced by the lease token, exponential backoff with equal jitter, dead letters, the canonical state of
 * changed entities (outbox-resolve.ts) and wake-ups (outbox-wake.ts). Schema: migrations 0001 and 0005.
 */
import type {
  OutboxBacklog,
  OutboxEntity,
  OutboxReader,
  OutboxRow,
  OutboxStore,
  ReadersRegistered,
  RetryPolicy,
  SnapshotPage,
} from "../../../ports/projections/outbox.ts";
import type { ProjectionChange } from "../../../ports/projections/projection-sink.ts";
import { PegasError } from "../../../errors.ts";
import type { Database } from "../database.ts";
import { guard } from "../errors.ts";
import { liveCounts } from "./queries.ts";
import { deleteUnread, expireReaders, registerReaders } from "./readers.ts";
import { KNOWN_ENTITIES, resolveRows, snapshotPage } from "./resolve.ts";
import { OutboxWaker } from "./wake.ts";

/** `last_error` keeps at most this many characters of a failure's message. */
export const MAX_ERROR_CHARS = 4096;

/** Cuts a failure message to {@link MAX_ERROR_CHARS} without splitting a surrogate pair; drops NUL (text refuses it). */
export function clipError(message: string): string {
  const clean = message.replaceAll("\u0000", "");
  if (clean.length <= MAX_ERROR_CHARS) return clean;
  const cut = clean.slice(0, MAX_ERROR_CHARS - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

function positiveInt(name: string, v: number, max: number): void {
  if (!Number.isInteger(v) || v < 1 || v > max)
    throw new PegasError("INVALID_INPUT", `${name} ${v} is outside 1..${max}`);
}

/** A claim slower than this (ms) suggests stale planner statistics. */
const SLOW_CLAIM_MS = 250;
/** Least time between two ANALYZE runs of one process (ms). */
const ANALYZE_EVERY_MS = 300_000;

/** {@link OutboxStore} over a {@link Database}; errors are PegasError (STORE_UNAVAILABLE when the database is away). */
export class SqlOutbox implements OutboxStore {
  private readonly waker: OutboxWaker;
  private lastAnalyzeAt = 0;

  /** Readers this store registered (refreshed by {@link SqlOutbox.expireReaders}). */
  private readonly ownReaders: string[] = [];

  /**
   * `readerLapseS`: a reader registered again after this many seconds unseen is reported new (writes in between may
   * not have been queued for it); 0 means readers never lapse (the default: `outbox_retention_hours` 0 keeps rows).
   */
  constructor(
    private readonly db: Database,
    private readonly readerLapseS = 0,
  ) {
    this.waker = new OutboxWaker(db);
  }

  /**
   * One statement. Heads are due rows whose entity has no earlier pending row and no row leased by another worker
   * (locked with SKIP LOCKED, so concurrent claimers pass each other); the claim takes the heads' entities' pending
   * rows up to `limit` in id order (a row's head always precedes it), so two workers never hold one entity at once
   * and a burst of rows of one entity is resolved once.
   */
  async claim(limit: number, leaseMs: number, token: string): Promise<OutboxRow[]> {
    positiveInt("claim limit", limit, 100_000);
    positiveInt("lease", leaseMs, 86_400_000);
    if (!token) throw new PegasError("INVALID_INPUT", "claim token is empty");
    this.waker.markClaimed();
    const started = performance.now();
    const claimed = await this.claimRows(limit, leaseMs, token);
    if (performance.now() - started > SLOW_CLAIM_MS) await this.refreshStatistics();
    return claimed;
  }

  /**
   * Statistics of a table that grew by a burst (a bulk ingest) are stale until autovacuum analyzes it, and PGlite never
   * does: then the planner walks the pending index for the head test of every candidate row (3.8 s per claim at 80k
   * pending rows, against 2 ms with statistics). A slow claim refreshes them, at most once per {@link ANALYZE_EVERY_MS}.
   */
  private async refreshStatistics(): Promise<void> {
    if (Date.now() - this.lastAnalyzeAt < ANALYZE_EVERY_MS) return;
    this.lastAnalyzeAt = Date.now();
    await guard(this.db, "analyze the outbox", (sql) => sql`ANALYZE pm_outbox`).catch(() => {});
  }

  private claimRows(limit: number, leaseMs: number, token: string): Promise<OutboxRow[]> {
    return guard(this.db, "claim outbox rows", async (sql) => {
      // The head test and the pick are correlated subqueries with LIMIT and the update goes by primary key, so that
      // the planner cannot make joins of them: without statistics (PGlite never analyzes; a fresh table) an anti-join
      // plan scanned the whole outbox per candidate row (0.5 s per claim at 10 000 rows), and with statistics a hash
      // join scanned all of its processed history. The head test's ORDER BY is the entity index's key order: with
      // statistics the planner otherwise walked the pending index per candidate row (3.8 s per claim at 80k pending).
      const rows = await sql`
        WITH heads AS MATERIALIZED (
          SELECT o.entity_type, o.entity_id FROM pm_outbox o
           WHERE o.processed_at IS NULL AND o.dead_at IS NULL AND o.available_at <= now()
             AND o.entity_type = ANY(${KNOWN_ENTITIES as string[]}::text[])
             AND (SELECT 1 FROM pm_outbox p
                   WHERE p.entity_type = o.entity_type AND p.entity_id = o.entity_id AND p.id <> o.id
                     AND p.processed_at IS NULL AND p.dead_at IS NULL
                     AND (p.id < o.id OR (p.claim_token IS NOT NULL AND p.available_at > now()))
                   ORDER BY p.entity_type, p.entity_id, p.id
                   LIMIT 1) IS NULL
           ORDER BY o.id LIMIT ${limit}::int
           FOR UPDATE OF o SKIP LOCKED),
        picked AS (
          SELECT x.id FROM heads h CROSS JOIN LATERAL (
                   SELECT t.id FROM pm_outbox t
                    WHERE t.entity_type = h.entity_type AND t.entity_id = h.entity_id
                      AND t.processed_at IS NULL AND t.dead_at IS NULL
                    ORDER BY t.id LIMIT ${limit}::int) x
           ORDER BY x.id LIMIT ${limit}::int)
        UPDATE pm_outbox t
           SET claim_token = ${token}, attempts = t.attempts + 1, available_at = now() + ${leaseMs}::float8 * interval '1 millisecond'
         WHERE t.id = ANY(ARRAY(SELECT id FROM picked)) AND t.processed_at IS NULL AND t.dead_at IS NULL
        RETURNING t.id, t.entity_type, t.entity_id, t.op, t.attempts, t.created_at`;
      return rows
        .map((r) => ({
          id: Number(r.id),
          entityType: r.entity_type as OutboxEntity,
          entityId: String(r.entity_id),
          op: r.op as "upsert" | "delete",
          attempts: Number(r.attempts),
          createdAt: (r.created_at as Date).getTime(),
        }))
        .sort((a, b) => a.id - b.id);
    });
  }

  ack(ids: number[], token: string): Promise<number> {
    if (!ids.length) return Promise.resolve(0);
    return guard(this.db, "acknowledge outbox rows", async (sql) => {
      const r = await sql`
        UPDATE pm_outbox SET processed_at = now()
         WHERE id = ANY(${ids}::bigint[]) AND claim_token = ${token} AND processed_at IS NULL AND dead_at IS NULL`;
      return r.count;
    });
  }

  /**
   * Backoff per row: d = min(maxMs, baseMs·2^(attempts−1)), waited d/2 + random(0, d/2) — "equal jitter" of the AWS
   * Architecture Blog, "Exponential Backoff And Jitter" (M. Brooker, 2015). A row at `maxAttempts` becomes dead.
   * The lease token is cleared, so a failed row is free for any worker once due.
   */
  async fail(
    ids: number[],
    token: string,
    error: string,
    policy: RetryPolicy,
  ): Promise<{ retried: number; dead: number }> {
    positiveInt("maxAttempts", policy.maxAttempts, 1_000_000);
    if (!(policy.baseMs >= 0 && policy.maxMs >= policy.baseMs)) {
      throw new PegasError(
        "INVALID_INPUT",
        `retry policy base ${policy.baseMs} ms / max ${policy.maxMs} ms is not 0 ≤ base ≤ max`,
      );
    }
    if (!ids.length) return { retried: 0, dead: 0 };
    return guard(this.db, "record an outbox failure", async (sql) => {
      const rows = await sql`
        UPDATE pm_outbox SET
               last_error = ${clipError(error)},
               claim_token = NULL,
               dead_at = CASE WHEN attempts >= ${policy.maxAttempts}::int THEN now() END,
               available_at = CASE WHEN attempts >= ${policy.maxAttempts}::int THEN available_at
                 ELSE now() + least(${policy.maxMs}::float8, ${policy.baseMs}::float8 * power(2::float8, least(attempts - 1, 60)))
                              * (0.5 + random() / 2) * interval '1 millisecond' END
         WHERE id = ANY(${ids}::bigint[]) AND claim_token = ${token} AND processed_at IS NULL AND dead_at IS NULL
        RETURNING dead_at IS NOT NULL AS dead`;
      const dead = rows.filter((r) => r.dead === true).length;
      return { retried: rows.length - dead, dead };
    });
  }

  retryDead(entityType?: OutboxEntity): Promise<number> {
    return guard(this.db, "retry dead outbox rows", async (sql) => {
      const r = await sql`
        UPDATE pm_outbox SET dead_at = NULL, attempts = 0, available_at = now(), claim_token = NULL
         WHERE dead_at IS NOT NULL AND processed_at IS NULL
           ${entityType === undefined ? sql`` : sql`AND entity_type = ${entityType}`}`;
      return r.count;
    });
  }

  resolve(rows: OutboxRow[], model: string): Promise<ProjectionChange[]> {
    if (!rows.length) return Promise.resolve([]);
    return guard(this.db, "read the state of changed entities", (sql) => resolveRows(sql, rows, model));
  }

  snapshot(
    entity: ProjectionChange["entity"],
    cursor: string | null,
    limit: number,
    model: string,
  ): Promise<SnapshotPage> {
    return guard(this.db, `read a page of ${entity} state`, (sql) => snapshotPage(sql, entity, cursor, limit, model));
  }

  canonicalCounts(model: string): Promise<Record<ProjectionChange["entity"] | "atom_vectors", number>> {
    return guard(this.db, "count canonical entities", (sql) => liveCounts(sql, model));
  }

  backlog(): Promise<OutboxBacklog> {
    return guard(this.db, "read the outbox backlog", async (sql) => {
      const [r] = await sql`
        SELECT (SELECT count(*) FROM pm_outbox WHERE processed_at IS NULL AND dead_at IS NULL) AS pending,
               (SELECT count(*) FROM pm_outbox WHERE dead_at IS NOT NULL) AS dead,
               (SELECT extract(epoch FROM now() - min(created_at)) FROM pm_outbox
                 WHERE processed_at IS NULL AND dead_at IS NULL) AS age`;
      return {
        pending: Number(r.pending),
        dead: Number(r.dead),
        oldestPendingAgeS: r.age === null ? null : Math.max(0, Number(r.age)),
      };
    });
  }

  /**
   * Rows no reader reads first (readers.ts), then processed rows: walks the primary key from the oldest id (processed
   * rows cluster there), so no index on processed_at is needed.
   */
  async prune(olderThanS: number, limit: number): Promise<number> {
    if (!(olderThanS >= 0)) throw new PegasError("INVALID_INPUT", `outbox retention ${olderThanS} s is not ≥ 0`);
    positiveInt("limit", limit, 1_000_000);
    const unread = await guard(this.db, "delete outbox rows no reader reads", (sql) => deleteUnread(sql, limit));
    if (unread >= limit) return unread;
    return guard(this.db, "delete processed outbox rows", async (sql) => {
      const r = await sql`
        DELETE FROM pm_outbox WHERE id IN (
          SELECT id FROM pm_outbox
           WHERE processed_at IS NOT NULL AND processed_at < now() - ${olderThanS}::float8 * interval '1 second'
           ORDER BY id LIMIT ${limit - unread}::int)`;
      return unread + r.count;
    });
  }

  async registerReaders(readers: readonly OutboxReader[]): Promise<ReadersRegistered> {
    const r = await guard(this.db, "register outbox readers", (sql) =>
      registerReaders(sql, readers, this.readerLapseS),
    );
    for (const x of readers) if (!this.ownReaders.includes(x.name)) this.ownReaders.push(x.name);
    return r;
  }

  expireReaders(ttlS: number): Promise<string[]> {
    return guard(this.db, "expire outbox readers", (sql) => expireReaders(sql, this.ownReaders, ttlS));
  }

  waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.waker.wait(timeoutMs, signal);
  }

  close(): Promise<void> {
    return this.waker.close();
  }
}
