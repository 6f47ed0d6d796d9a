/**
 * Canonical store backend (b): a PostgreSQL ≥ 15 server reached by URL through `postgres` (porsager).
 */
import postgres from "postgres";
import { maskUrl } from "../../../config-redact.ts";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { CLIENT_OPTIONS } from "../client-options.ts";
import { type Database, isConnectionLost } from "../database.ts";

/**
 * Opens a pooled connection to PostgreSQL (no query is sent until first use) with the shared row shapes of
 * {@link CLIENT_OPTIONS}. A lost connection is retried once by {@link Database.run}.
 */
export function openPostgres(url: string, opts: { max?: number } = {}): Database {
  const sql = postgres(url, {
    ...CLIENT_OPTIONS,
    max: opts.max ?? 8,
    connect_timeout: 10,
    idle_timeout: 60,
    // postgres.js waits up to 20 s (3^n / 100 s, one counter for the pool, reset only by a successful connect)
    // before the next connect: with the server down, every call then took 5–10 s to fail, and a restarted server
    // was not reached for up to 20 s. Seconds, capped at 1.
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
  });
  const location = maskUrl(url);
  return {
    kind: "postgres",
    sql,
    location,
    async run(fn) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await fn(sql);
        } catch (err) {
          if (!isConnectionLost(err)) throw err;
          // A server that never answered is not worth a second wait; a connection lost in use is retried once.
          const neverConnected = ["CONNECT_TIMEOUT", "ECONNREFUSED", "ENOENT"].includes(
            (err as { code?: string }).code ?? "",
          );
          if (attempt >= 2 || neverConnected) {
            throw new PegasError(
              "STORE_UNAVAILABLE",
              `PostgreSQL at '${location}' is unreachable: ${(err as Error).message}`,
              {
                hint: "check that the server runs and that PEGAS_DATABASE_URL (or --database-url) is right",
                cause: err,
              },
            );
          }
          log.warn("postgres connection lost, retrying once", { err });
        }
      }
    },
    async close(graceMs = 1000) {
      await sql.end({ timeout: graceMs / 1000 });
    },
  };
}
