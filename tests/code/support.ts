/**
 * Code-memory services for tests: real services (PostgreSQL or PGlite, tests/support/services.ts) plus a SqlCodeStore
 * on the same database and an extractor (the real tree-sitter one unless a test hands in its own).
 */
import { afterAll, beforeAll } from "bun:test";
import { SqlCodeStore } from "../../src/adapters/sql/code/store.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import type { Services } from "../../src/core/services.ts";
import type { SymbolExtractor } from "../../src/ports/models/symbol-extractor.ts";
import { pgSkipReason } from "../support/pg.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

/** Services whose code store and extractor are the ones {@link withCode} put in. */
export type TestCodeServices = Services;

/** Adds the code store and an extractor to services. */
export function withCode(services: Services, extractor: SymbolExtractor = treeSitterExtractor()): TestCodeServices {
  const db = (services.maintenance as SqlCanonicalStore).db;
  return Object.assign(Object.create(services), { code: new SqlCodeStore(db), extractor }) as TestCodeServices;
}

/** The SQL client of services (for assertions on rows). */
export function sqlOf(services: Services) {
  return (services.maintenance as SqlCanonicalStore).db.sql;
}

/**
 * Opens code services for a test file (beforeAll) and disposes them (afterAll); a missing PostgreSQL skips with a
 * printed reason (`skip` is set in beforeAll). `flags` are config flags (e.g. ingest_roots).
 */
export function codeSuite(
  backend: "postgres" | "pglite",
  flags: Record<string, unknown> = {},
  extractor?: () => SymbolExtractor,
) {
  let t: TestServices | undefined;
  const state: { s: TestCodeServices | null; skip: string | null } = { s: null, skip: null };
  beforeAll(async () => {
    if (backend === "postgres") state.skip = await pgSkipReason();
    if (state.skip) return;
    const opened = await openTestServices(backend, { ...flags });
    if (typeof opened === "string") {
      state.skip = opened;
      return;
    }
    t = opened;
    state.s = withCode(opened.services, extractor?.());
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  }, 30_000);
  return state;
}
