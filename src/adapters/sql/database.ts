/**
 * A SQL database handle shared by both canonical-store backends. Both speak the PostgreSQL wire protocol through
 * `postgres` (porsager), so the same SQL runs on both and row shapes are identical by construction:
 * - `postgres`: a PostgreSQL ≥ 15 server reached by URL;
 * - `pglite`: the embedded PGlite, hosted by one process on a local socket and shared by every process that
 *   opens the same data dir.
 */
import type { Sql } from "postgres";

/** Which backend a {@link Database} talks to. */
export type DatabaseKind = "postgres" | "pglite";

/** An open database. */
export interface Database {
  readonly kind: DatabaseKind;
  /** The postgres.js client (pooled); use it through {@link Database.run} so that a lost host is retried. */
  readonly sql: Sql<any>;
  /** Where it is, for logs and stats (a URL with the password masked, or the data dir). */
  readonly location: string;
  /**
   * Runs `fn` and, when the connection is lost because the embedded host went away, waits for a new host (this
   * process may become it) and runs `fn` again, at most a few times. `fn` must be safe to run again: a transaction
   * whose connection broke was rolled back, unless its COMMIT had already been applied, so writes must be idempotent.
   * @throws PegasError STORE_UNAVAILABLE when no host can be reached in time.
   */
  run<T>(fn: (sql: Sql<any>) => Promise<T>): Promise<T>;
  /**
   * Closes the database: in-flight queries get `graceMs` to finish, then connections are terminated (an open
   * transaction is rolled back). An embedded host also closes PGlite cleanly and hands the data dir over.
   */
  close(graceMs?: number): Promise<void>;
}

/** Driver errors that mean "the connection is gone", not "the statement failed". */
export function isConnectionLost(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return (
    code === "CONNECTION_CLOSED" ||
    code === "CONNECTION_DESTROYED" ||
    code === "CONNECTION_ENDED" ||
    code === "CONNECT_TIMEOUT" ||
    code === "ECONNREFUSED" ||
    code === "ECONNRESET" ||
    code === "ENOENT" ||
    code === "EPIPE" ||
    code === "57P01" // admin_shutdown
  );
}

/** A client or a transaction: anything that runs tagged-template queries. */
export type SqlLike = Sql<any> | import("postgres").TransactionSql<any>;
