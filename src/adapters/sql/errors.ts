/**
 * Maps driver errors (postgres.js / PostgreSQL SQLSTATE) to PegasError, so the core never sees a driver's error.
 */
import { PegasError } from "../../errors.ts";
import type { Sql } from "postgres";
import { type Database, isConnectionLost } from "./database.ts";

/**
 * Runs `fn` on `db` (retried by {@link Database.run} when the embedded host went away) and maps whatever it throws
 * with {@link mapSqlError}, naming `what` was being done: the one wrapper every SQL adapter class calls.
 * @throws PegasError (STORE_UNAVAILABLE, MIGRATION_REQUIRED, INVALID_INPUT, INTERNAL …), never a driver's error.
 */
export async function guard<T>(db: Database, what: string, fn: (sql: Sql<any>) => Promise<T>): Promise<T> {
  try {
    return await db.run(fn);
  } catch (err) {
    throw mapSqlError(err, what);
  }
}

/** Converts any error thrown by SQL code into a PegasError with a stable code; the original stays as `cause`. */
export function mapSqlError(err: unknown, what: string): PegasError {
  if (err instanceof PegasError) return err;
  const e = err as { code?: string; message?: string; constraint_name?: string };
  const msg = e?.message ?? String(err);
  if (isConnectionLost(err)) {
    return new PegasError("STORE_UNAVAILABLE", `database unreachable while trying to ${what}: ${msg}`, {
      hint: "check that the database server runs (pegas-memory stats shows where it is) and retry",
      cause: err,
    });
  }
  switch (e?.code) {
    case "42P01":
    case "42703":
    case "42704":
      return new PegasError("MIGRATION_REQUIRED", `the database schema is older than this build (${msg})`, {
        hint: "run `pegas-memory migrate`",
        cause: err,
      });
    case "22021":
    case "22P05":
      return new PegasError("INVALID_INPUT", `text cannot be stored (${msg})`, {
        hint: "remove NUL bytes and invalid UTF-8",
        cause: err,
      });
    case "23503":
      return new PegasError("NOT_FOUND", `a referenced row does not exist while trying to ${what}`, { cause: err });
    case "23514":
    case "23502":
    case "22001":
    case "54000": // program_limit_exceeded: e.g. an index row over the btree's size limit
      return new PegasError("INVALID_INPUT", `value rejected by the schema while trying to ${what}: ${msg}`, {
        cause: err,
      });
    case "53100":
      return new PegasError("STORE_UNAVAILABLE", `the database's disk is full while trying to ${what}`, {
        hint: "free disk space where the database lives, then retry (nothing of this call was stored)",
        cause: err,
      });
    case "3D000":
    case "28000":
    case "28P01":
      return new PegasError("STORE_UNAVAILABLE", `cannot use the database: ${msg}`, {
        hint: "create the database and role, or fix PEGAS_DATABASE_URL",
        cause: err,
      });
    case "57014":
      return new PegasError("CANCELLED", `cancelled while trying to ${what}`, { cause: err });
    default:
      return new PegasError("INTERNAL", `database error while trying to ${what}: ${msg}`, { cause: err });
  }
}
