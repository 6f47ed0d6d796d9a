/**
 * With PostgreSQL down, each call fails fast: the pool's reconnect backoff is capped at 1 s (postgres.js's default
 * grows to 20 s per attempt: concurrent calls then waited 2–17 s each to fail, and a restarted server stayed unreached).
 */
import { expect, test } from "bun:test";
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";

// ≈ 2 s here; with postgres.js's default backoff the same rounds took 35–56 s here, beyond the test's 20 s limit.
test("eight rounds of three concurrent calls against a closed port all fail, within a few seconds in all", async () => {
  const db = openPostgres("postgres://pegas@127.0.0.1:1/none");
  let failed = 0;
  for (let i = 0; i < 8; i++) await Promise.all([1, 2, 3].map(() => db.sql`SELECT 1`.catch(() => failed++)));
  await db.close(0);
  expect(failed).toBe(24);
}, 20_000);
