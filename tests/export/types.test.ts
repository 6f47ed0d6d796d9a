/**
 * The export is driven by the catalog: a pm_* table a later migration adds is carried without being listed anywhere,
 * and its values come back exactly, the awkward ones too (2^53 + 1, -0, NaN, ±Infinity, numeric scale, timestamps
 * to the microsecond, arrays with NULLs and quotes, bytea with NUL bytes, tsvector weights, jsonb, generated columns
 * recomputed). A type that has no exact encoding fails the export loudly, naming the column, instead of being
 * skipped; an import into a store that lacks the table is refused. PGlite → PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../../src/adapters/sql/database.ts";
import { foreignKeyOrder } from "../../src/adapters/sql/export/catalog.ts";
import { pgSkipReason } from "../support/pg.ts";
import type { TestServices } from "../support/services.ts";
import { dbOf, type ExportEnds, exportToFile, importFile, openExportEnds, tableRows } from "./support.ts";

const skip = await pgSkipReason();
const dir = mkdtempSync(join(tmpdir(), "pegas-export-types-"));
let ends: ExportEnds | undefined;
let source: TestServices;
let target: Database;

const PROBE = `CREATE TABLE pm_zz_probe (
  id bigserial PRIMARY KEY, big bigint, r real, d double precision, n numeric, tags text[], reals real[], bigs bigint[],
  blob bytea, at timestamptz, day date, u uuid, j jsonb, tsv tsvector, flag boolean, note text,
  blob_len integer GENERATED ALWAYS AS (octet_length(blob)) STORED,
  doc_id bigint REFERENCES pm_document(id))`;

const ROWS = `INSERT INTO pm_zz_probe (id, big, r, d, n, tags, reals, bigs, blob, at, day, u, j, tsv, flag, note) VALUES
  (1, 9007199254740993, '-0', 'NaN', 1.50, ARRAY['a', NULL, 'ё "q" \\ ,{}', ''], ARRAY['0.1', 'Infinity', '-0']::real[],
   ARRAY[9007199254740993, -1]::bigint[], '\\x00ff10'::bytea, '2024-02-29 23:59:59.123456+03', '2024-02-29',
   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": [1, 2.5, "x", 1e-7], "b": null, "ключ": "значение 🦊"}',
   to_tsvector('pegas', 'Ёлки-палки и кошки') || 'вес:1A,2B'::tsvector, true, E'emoji 🦊, tab\\t, newline\\n, quote "'),
  (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (1000, -9223372036854775808, 3.4028235e38, 5e-324, 123456789012345678901234567890.000000001, '{}', '{}', '{}', '',
   '1970-01-01 00:00:00.000001+00', '0001-01-01', NULL, '[]', '', false, '')`;

beforeAll(async () => {
  if (skip) return;
  ends = await openExportEnds();
  source = ends.source;
  target = dbOf(ends.target.services);
  await dbOf(source.services).sql.unsafe(PROBE);
  await dbOf(source.services).sql.unsafe(ROWS);
}, 120_000);

afterAll(async () => {
  await ends?.dispose();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(skip !== null)("the export follows the catalog", () => {
  test("a store that lacks an exported table refuses the import", async () => {
    const file = join(dir, "probe.jsonl");
    await exportToFile(dbOf(source.services), file, false);
    await expect(importFile(target, file)).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: "line 1: the export has table pm_zz_probe, which this store lacks",
    });
  });

  test("a new table is carried, its awkward values exactly, its generated column recomputed, its sequence moved", async () => {
    const file = join(dir, "probe.jsonl");
    const summary = await exportToFile(dbOf(source.services), file, false);
    expect(summary.tables.find((t) => t.table === "pm_zz_probe")).toEqual({ table: "pm_zz_probe", rows: 3 });
    // After pm_document, which it references.
    const order = summary.tables.map((t) => t.table);
    expect(order.indexOf("pm_zz_probe")).toBeGreaterThan(order.indexOf("pm_document"));
    await target.sql.unsafe(PROBE);
    await importFile(target, file);
    const [want, got] = [
      (await tableRows(dbOf(source.services))).get("pm_zz_probe"),
      (await tableRows(target)).get("pm_zz_probe"),
    ];
    expect(got).toEqual(want!);
    expect(want![0].slice(1, 5)).toEqual(["9007199254740993", "-0", "NaN", "1.50"]);
    expect(want![0][16]).toBe("3");
    const [next] = await target.sql`INSERT INTO pm_zz_probe (note) VALUES ('next') RETURNING id`;
    expect(Number(next.id)).toBe(1001);
  });

  test("a column type without an exact encoding fails the export, naming the column", async () => {
    await dbOf(source.services).sql.unsafe("ALTER TABLE pm_zz_probe ADD COLUMN spot point");
    await expect(exportToFile(dbOf(source.services), join(dir, "bad.jsonl"), false)).rejects.toMatchObject({
      code: "INTERNAL",
      message: "cannot export pm_zz_probe.spot: its type 'point' has no exact encoding in this build",
    });
  });

  test("foreign-key order: referenced tables first, ties by name; a cycle is refused", () => {
    const refs = new Map([
      ["c", new Set(["a"])],
      ["b", new Set(["c"])],
      ["a", new Set<string>()],
    ]);
    expect(foreignKeyOrder(["a", "b", "c"], refs)).toEqual(["a", "c", "b"]);
    expect(() =>
      foreignKeyOrder(
        ["a", "b"],
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["a"])],
        ]),
      ),
    ).toThrow(/cycle/);
    expect(() => foreignKeyOrder(["a"], new Map([["a", new Set(["pm_outbox"])]]))).toThrow(/not exported/);
  });
});
