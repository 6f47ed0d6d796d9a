/**
 * Issue 8 acceptance: export from a store holding every fixture (and a code repository, links, an inference, a trace,
 * a gap, verification, a forget, merges, a search miss), import into an empty PostgreSQL: identical rows in every
 * table and identical search results, in English and Russian. Then back from PostgreSQL into an empty PGlite without
 * embeddings: identical rows, and after the embedding backfill identical embeddings and searches. The store starts
 * from the shared fixtures store (tests/support/fixtures-store.ts) and gets the rest once for the file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backfillEmbeddings } from "../../src/core/projections/backfill.ts";
import type { Services } from "../../src/core/services.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { pgSkipReason } from "../support/pg.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";
import {
  dbOf,
  type ExportEnds,
  exportToFile,
  importFile,
  openExportEnds,
  searchResults,
  seedEverything,
  tableRows,
} from "./support.ts";

const skip = await pgSkipReason();
const dir = mkdtempSync(join(tmpdir(), "pegas-export-"));
let ends: ExportEnds | undefined;
let source: TestServices;
let target: Services;

beforeAll(async () => {
  if (skip) return;
  // From the shared fixtures store: seedEverything's directory ingest then finds every fixture unchanged.
  ends = await openExportEnds({ ingest_roots: [fixture("")] }, { fixtures: true });
  source = ends.source;
  target = ends.target.services;
  await seedEverything(source.services);
}, 300_000);

afterAll(async () => {
  await ends?.dispose();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The body of an export file: every line but the header (which names the backend and the time). */
const body = (path: string) => readFileSync(path, "utf8").split("\n").slice(1).join("\n");

describe.skipIf(skip !== null)("export / import", () => {
  test("PGlite → PostgreSQL with embeddings: identical rows in every table, identical searches, sequences past the ids", async () => {
    const file = join(dir, "pglite.jsonl");
    const exported = await exportToFile(dbOf(source.services), file, true);
    const before = await tableRows(dbOf(source.services));
    // Every table is in the file, and all but the distillation quarantine (no distiller failed) hold rows.
    expect(exported.tables.map((t) => t.table).sort()).toEqual([...before.keys()].sort());
    const empty = exported.tables.filter((t) => t.rows === 0).map((t) => t.table);
    expect(empty).toEqual(["pm_distill_quarantine"]);
    expect(exported.rows).toBeGreaterThan(8000);

    const imported = await importFile(dbOf(target), file);
    expect(imported.tables).toEqual(exported.tables);
    const after = await tableRows(dbOf(target));
    for (const [table, rows] of before) expect({ table, rows: after.get(table) }).toEqual({ table, rows });

    // The same rows written by the other backend export to the same bytes.
    const again = join(dir, "postgres.jsonl");
    await exportToFile(dbOf(target), again, true);
    expect(body(again) === body(file)).toBe(true);

    const want = await searchResults(source.services);
    expect(want.filter((r) => r.hits.length > 0).length).toBeGreaterThanOrEqual(10);
    expect(await searchResults(target)).toEqual(want);

    // New rows take ids past the imported ones.
    const maxId = Math.max(...after.get("pm_atom")!.map((r) => Number(r[0])));
    const fresh = await storeAtom(target, { type: "fact", claim: "После импорта новый атом получает новый номер." });
    expect(fresh.atom_id).toBe(maxId + 1);
  }, 240_000);

  test("PostgreSQL → PGlite without embeddings: identical rows; after the backfill identical embeddings and searches", async () => {
    const file = join(dir, "no-embeddings.jsonl");
    const exported = await exportToFile(dbOf(target), file, false);
    expect(exported.tables.map((t) => t.table)).not.toContain("pm_atom_embedding");
    const opened = await openTestServices("pglite");
    if (typeof opened === "string") throw new Error(opened);
    try {
      const s = opened.services;
      await importFile(dbOf(s), file);
      const before = await tableRows(dbOf(target));
      const after = await tableRows(dbOf(s));
      expect(after.get("pm_atom_embedding")).toEqual([]);
      for (const [table, rows] of before) {
        if (table !== "pm_atom_embedding") expect({ table, rows: after.get(table) }).toEqual({ table, rows });
      }
      // The embedded default recomputes what was left out (the deterministic lexical embedder gives the same vectors),
      // for every atom: retracted ones too, since `forget --undo` may bring them back.
      const embedded = await backfillEmbeddings(s);
      const atoms = before.get("pm_atom")!;
      expect(atoms.some((r) => r[6] === "retracted")).toBe(true);
      expect(embedded).toBe(atoms.length);
      const vectors = (rows: string[][]) => rows.map((r) => r.slice(0, 4)); // atom_id, model, dim, vector
      const sourceVectors = vectors(before.get("pm_atom_embedding")!);
      const ownVectors = new Set(vectors((await tableRows(dbOf(s))).get("pm_atom_embedding")!).map((r) => r.join("|")));
      expect(sourceVectors.filter((r) => !ownVectors.has(r.join("|")))).toEqual([]);
      expect(await searchResults(s)).toEqual(await searchResults(target));
    } finally {
      await opened.dispose();
    }
  }, 240_000);
});
