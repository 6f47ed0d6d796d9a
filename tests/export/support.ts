/**
 * Helpers of the export/import tests: a store holding every fixture and a row in most tables; export to a file and
 * import from one (as the CLI streams them); every table read back by SQL independent of the export code (each
 * column's PostgreSQL text, in primary-key order); search results of a fixed set of queries.
 */
import { cpSync, createReadStream, mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { SqlExportStore } from "../../src/adapters/sql/export/store.ts";
import type { Database } from "../../src/adapters/sql/database.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { storeCode } from "../../src/core/code/ingest.ts";
import { exportStore, type ExportSummary } from "../../src/core/export/export.ts";
import { addGap } from "../../src/core/gaps/gaps.ts";
import { backfillEntities } from "../../src/core/entities/backfill.ts";
import { settleSearchMisses } from "../../src/core/gaps/miss.ts";
import { importStore, type ImportSummary } from "../../src/core/export/import.ts";
import { infer } from "../../src/core/inference/infer.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { forget, linkNodes } from "../../src/core/knowledge/link-forget.ts";
import { search } from "../../src/core/search/search.ts";
import type { Services } from "../../src/core/services.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { addTrace } from "../../src/core/traces/traces.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { fixturesStoreTemplate } from "../support/fixtures-store.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";

/** The two ends of an export test file: a PGlite source and an empty PostgreSQL target, each a fresh database. */
export interface ExportEnds {
  source: TestServices;
  target: TestServices;
  /** Closes both and drops the target database. */
  dispose(): Promise<void>;
}

/**
 * Opens a fresh PGlite source (config `sourceFlags`; with `opts.fixtures` a copy of the shared fixtures store,
 * tests/support/fixtures-store.ts) and a fresh, migrated PostgreSQL target (a temporary database, tests/support/pg.ts)
 * for a test file's beforeAll.
 * @throws Error naming the backend that could not be opened (call only when pgSkipReason() gave null).
 */
export async function openExportEnds(
  sourceFlags: Record<string, unknown> = {},
  opts: { fixtures?: boolean } = {},
): Promise<ExportEnds> {
  // With `fixtures`, the source starts as a copy of the shared fixtures store (every fixture already ingested).
  const copy = opts.fixtures ? mkdtempSync(join(tmpdir(), "pegas-export-src-")) : null;
  if (copy)
    cpSync(await fixturesStoreTemplate(), copy, { recursive: true, filter: (p) => !/[/\\]\.s\.PGSQL\./.test(p) });
  const opened = await openTestServices("pglite", copy ? { ...sourceFlags, data_dir: copy } : sourceFlags);
  if (typeof opened === "string") throw new Error(`cannot open the PGlite source: ${opened}`);
  const source: TestServices = copy
    ? {
        ...opened,
        dispose: async () => {
          await opened.dispose();
          rmSync(copy, { recursive: true, force: true });
        },
      }
    : opened;
  const target = await openTestServices("postgres").catch(async (err) => {
    await source.dispose();
    throw err;
  });
  if (typeof target === "string") {
    await source.dispose();
    throw new Error(`cannot open the PostgreSQL target: ${target}`);
  }
  return {
    source,
    target,
    dispose: async () => {
      await target.dispose();
      await source.dispose();
    },
  };
}

/** The database under services. */
export const dbOf = (s: Services): Database => (s.maintenance as SqlCanonicalStore).db;

/** Queries whose results must not change across an export and import (English and Russian). */
export const QUERIES = [
  "больничная палата",
  "доктор Андрей Ефимыч Рагин",
  "Иван Дмитрич Громов",
  "геоакустические измерения",
  "Alice White Rabbit",
  "Leaves of Grass",
  "Mozilla Firefox nightly",
  "install Docker Engine",
  "standalone WebAssembly Emscripten",
  "toxins ligatures",
  "Botchan teacher",
  "🦊 огненная лиса",
];

/**
 * Fills `s` with every shared fixture, the project's src/domain as a code repository, an agent fact with emoji and
 * awkward characters, links, a rule and its inference, a trace with nested metadata, a gap, a verification pass, a
 * forgotten atom and a search miss; the ingest itself makes merges. Returns the ids of the agent atoms.
 */
export async function seedEverything(s: Services): Promise<{ fact: number; rule: number }> {
  const r = await ingest(s, { path: fixture("") }, { trustedPath: true });
  if (r.errors.length) throw new Error(`ingest failed: ${JSON.stringify(r.errors)}`);
  await storeCode(
    s,
    { path: resolve(import.meta.dir, "../../src/domain"), repo: "pegas-domain" },
    { trustedPath: true },
  );
  const fact = await storeAtom(s, {
    type: "fact",
    claim: '🦊 Огненная лиса (Firefox) — «ёлка» с "кавычками", \\обратной косой\\, табуляцией\tи 👩‍👩‍👧 семьёй.',
    content: "Строка 1\nстрока 2 — ё/е, 日本語, zero\u200bwidth, emoji 🎉.",
    source_uri: "https://example.org/лиса?q=1&x=ё",
    quote: "Огненная лиса",
  });
  const [a, b, c, d] = (await search(s, { query: "Андрей Ефимыч Рагин", k: 4 })).hits.map((h) => h.atom_id);
  await linkNodes(s, { src: a, dst: b, kind: "depends_on", confidence: 0.7 });
  await linkNodes(s, { src: b, dst: c, kind: "depends_on" });
  await linkNodes(s, { src: fact.atom_id, dst: a, kind: "reference" });
  const rule = await storeAtom(s, {
    type: "logical_rule",
    claim: "depends_on is transitive",
    content: '{"if": ["depends_on", "depends_on"], "then": "depends_on"}',
  });
  await infer(s, { ruleIds: [rule.atom_id] });
  await addTrace(s, {
    kind: "observation",
    content: "Нашёл «Палату № 6» 📄",
    session: "s-1",
    metadata: { n: 1.5, big: 1e21, tiny: 1e-7, list: [1, "два", null, true], nested: { ключ: "значение" } },
  });
  await addGap(s, { question: "Когда была написана «Палата № 6»?", reason: "дата не указана", priority: 4 });
  await verifyAtoms(s, { limit: 25 });
  await forget(s, { atom_id: d, reason: "test: a forgotten atom" }); // not one of the rule's premises: its edge stays
  await search(s, { query: "квантовая хромодинамика глюонов" });
  await settleSearchMisses();
  // Entities (issue 22): the ingest wrote mentions; a backfill run and a merge fill pm_entity_scan and pm_entity_merge.
  await backfillEntities(s.entities);
  const [full] = await s.entities.entitiesByKeys(["андрей ефимыч рагин"]);
  const [short] = await s.entities.entitiesByKeys(["андрей ефимыч"]); // a root: itself, or full when already merged
  if (full && short && full.id !== short.id)
    await s.entities.mergeEntities({ fromEntityId: short.id, intoEntityId: full.id, reason: "test: one person" });
  return { fact: fact.atom_id, rule: rule.atom_id };
}

/** Exports `db` to `path` as the CLI does (a file written as the rows are read). */
export async function exportToFile(db: Database, path: string, embeddings: boolean): Promise<ExportSummary> {
  const fh = await open(path, "w");
  try {
    return await exportStore(
      new SqlExportStore(db),
      { write: async (t) => void (await fh.write(t)) },
      { embeddings, pageSize: 500 },
    );
  } finally {
    await fh.close();
  }
}

/** Imports the file at `path` into `db`, read line by line. */
export function importFile(db: Database, path: string): Promise<ImportSummary> {
  return importStore(new SqlExportStore(db), createInterface({ input: createReadStream(path), crlfDelay: Infinity }));
}

/** Imports the given lines (an edited file) into `db`. */
export function importLines(db: Database, lines: string[]): Promise<ImportSummary> {
  return importStore(
    new SqlExportStore(db),
    (async function* () {
      yield* lines;
    })(),
  );
}

/** Every pm_* table but the outbox, its readers and the migrations, with its rows as each column's PostgreSQL text (xid8 columns left out). */
export async function tableRows(db: Database): Promise<Map<string, string[][]>> {
  return (await db.sql.begin(async (tx) => {
    await tx`SET LOCAL TimeZone = 'UTC'`;
    const tables = await tx`
      SELECT table_name::text AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name LIKE 'pm\\_%'
         AND table_name NOT IN ('pm_outbox', 'pm_outbox_reader', 'pm_schema_migrations') ORDER BY 1`;
    const out = new Map<string, string[][]>();
    for (const { name } of tables) {
      const cols = await tx`
        SELECT column_name::text AS c FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = ${name} AND udt_name <> 'xid8' ORDER BY ordinal_position`;
      const key = await tx`
        SELECT k.column_name::text AS c FROM information_schema.table_constraints t
          JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_name = t.table_name
         WHERE t.table_schema = current_schema() AND t.table_name = ${name} AND t.constraint_type = 'PRIMARY KEY' ORDER BY k.ordinal_position`;
      const q = (c: string) => `"${c}"`;
      const rows = await tx.unsafe(
        `SELECT json_build_array(${cols.map((c) => `${q(c.c)}::text`).join(", ")})::text AS v FROM ${q(name)} ORDER BY ${key.map((k) => q(k.c)).join(", ")}`,
      );
      out.set(
        name,
        rows.map((r) => JSON.parse(String(r.v)) as string[]),
      );
    }
    return out;
  })) as Map<string, string[][]>;
}

/** The hits (atom id and score) of every query of {@link QUERIES}. */
export async function searchResults(s: Services): Promise<Array<{ query: string; hits: Array<[number, number]> }>> {
  const out = [];
  for (const query of QUERIES) {
    const r = await search(s, { query, k: 10 });
    out.push({ query, hits: r.hits.map((h): [number, number] => [h.atom_id, Number(h.score.toFixed(6))]) });
  }
  await settleSearchMisses();
  return out;
}

/** Row counts of every pm_* table of {@link tableRows}. */
export async function rowCounts(db: Database): Promise<Record<string, number>> {
  return Object.fromEntries([...(await tableRows(db))].map(([t, rows]) => [t, rows.length]));
}
