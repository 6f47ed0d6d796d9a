/**
 * Temporary PostgreSQL databases for tests: one fresh database per suite on the server named by
 * PEGAS_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards. Returns null, with the
 * reason, when no server answers, so suites can skip with a printed reason.
 */
import postgres from "postgres";

/** Admin URL of the test server. */
export const TEST_PG_URL = process.env.PEGAS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A temporary database. */
export interface TempDb {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a temporary database, or returns the reason why none can be had. `opts.icu` makes its default collation ICU
 * en-US (where ids do not sort by code point: a test that an adapter orders by code point, not by collation).
 */
export async function createTempPgDatabase(prefix = "pegas_t", opts: { icu?: boolean } = {}): Promise<TempDb | string> {
  const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  try {
    await admin.unsafe(
      `CREATE DATABASE ${name}${opts.icu ? " TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'" : ""}`,
    );
  } catch (err) {
    await admin.end({ timeout: 1 }).catch(() => {});
    return `PostgreSQL at ${TEST_PG_URL} unavailable: ${(err as Error).message}`;
  }
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end({ timeout: 1 });
    },
  };
}

/**
 * Why PostgreSQL suites must be skipped here (null when a server answers), without printing it. Under CI (CI=true)
 * a missing server is an error, not a skip: .ci/run starts one.
 * @throws Error naming the server when CI is set and it does not answer.
 */
export async function pgUnavailable(): Promise<string | null> {
  const probe = postgres(TEST_PG_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  try {
    await probe`SELECT 1`;
    return null;
  } catch (err) {
    const reason = `PostgreSQL at ${TEST_PG_URL} unavailable: ${(err as Error).message}`;
    if (process.env.CI) throw new Error(`${reason} (CI must run the PostgreSQL suites)`);
    return reason;
  } finally {
    await probe.end({ timeout: 1 }).catch(() => {});
  }
}

/** {@link pgUnavailable}, printing "skipped: <reason>" when there is one (for suites that are not contract suites). */
export async function pgSkipReason(): Promise<string | null> {
  const reason = await pgUnavailable();
  if (reason) console.warn(`skipped: ${reason}`);
  return reason;
}
