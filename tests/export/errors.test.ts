/**
 * Import refuses what it cannot load whole, naming the line, and leaves the target as it was: a file cut short (no
 * trailer, or cut inside a line), a line that is not JSON, a row the database refuses, a trailer whose counts
 * disagree, a newer schema version (or an older one whose tables are not that version's), something that is not an
 * export, a row with a column too many; and a target that already holds rows. A small PGlite store (one Russian
 * text and a trace) is exported once for the file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ingest } from "../../src/core/documents/ingest.ts";
import type { Services } from "../../src/core/services.ts";
import { addTrace } from "../../src/core/traces/traces.ts";
import { pgSkipReason } from "../support/pg.ts";
import { fixture, type TestServices } from "../support/services.ts";
import { dbOf, type ExportEnds, exportToFile, importFile, importLines, openExportEnds, rowCounts } from "./support.ts";

const skip = await pgSkipReason();
const dir = mkdtempSync(join(tmpdir(), "pegas-export-errors-"));
const file = join(dir, "small.jsonl");
let ends: ExportEnds | undefined;
let source: TestServices;
let target: Services;
let lines: string[];

beforeAll(async () => {
  if (skip) return;
  ends = await openExportEnds({ ingest_roots: [fixture("")] });
  source = ends.source;
  target = ends.target.services;
  await ingest(source.services, { path: fixture("text/ru_chekhov_palata_no6.txt") }, { trustedPath: true });
  await addTrace(source.services, { kind: "plan", content: "проверить импорт" });
  await exportToFile(dbOf(source.services), file, true);
  lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
}, 180_000);

afterAll(async () => {
  await ends?.dispose();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Imports `edited` into the target, expects INVALID_INPUT matching `message`, and the target still empty. */
async function refused(edited: string[], message: RegExp): Promise<void> {
  await expect(importLines(dbOf(target), edited)).rejects.toMatchObject({
    code: "INVALID_INPUT",
    message: expect.stringMatching(message),
  });
  const counts = await rowCounts(dbOf(target));
  expect(Object.entries(counts).filter(([, n]) => n > 0)).toEqual([]);
}

/** Index (0-based) of the first line of `table`. */
const firstOf = (table: string) => lines.findIndex((l) => l.startsWith(`{"table":"${table}"`));

describe.skipIf(skip !== null)("import refuses and rolls back", () => {
  test("a file without its trailer is cut short: refused at its last line", async () => {
    expect(lines.length).toBeGreaterThan(300);
    await refused(lines.slice(0, -1), new RegExp(`^line ${lines.length - 1}: the file ends here without its trailer`));
  });

  test("a file cut inside a line names that line", async () => {
    const k = firstOf("pm_chunk") + 10;
    await refused([...lines.slice(0, k), lines[k].slice(0, 80)], new RegExp(`^line ${k + 1}: not valid JSON`));
  });

  test("a corrupt line in the middle names its line; nothing before it is kept", async () => {
    const k = firstOf("pm_atom") + 5;
    const edited = [...lines];
    edited[k] = '{"table":"pm_atom","row":{"id":';
    await refused(edited, new RegExp(`^line ${k + 1}: not valid JSON`));
  });

  test("a row the database refuses (a chunk of no document) names its line and why", async () => {
    const k = firstOf("pm_chunk") + 3;
    const edited = [...lines];
    edited[k] = edited[k].replace(/"doc_id":\d+/, '"doc_id":999999');
    await refused(edited, new RegExp(`^line ${k + 1}: the database refused this pm_chunk row: .*foreign key.*999999`));
  });

  test("a trailer whose counts disagree (a row line lost) is refused at the trailer", async () => {
    const k = firstOf("pm_citation") + 1;
    const edited = lines.filter((_, i) => i !== k);
    await refused(
      edited,
      new RegExp(`^line ${edited.length}: the trailer counts \\d+ pm_citation row\\(s\\), the file holds \\d+`),
    );
  });

  test("a newer schema version is refused with the version to use; an older one whose tables are not that version's too", async () => {
    const header = JSON.parse(lines[0]);
    const newer = [JSON.stringify({ ...header, schema_version: header.schema_version + 1 }), ...lines.slice(1)];
    await refused(
      newer,
      /^line 1: the export is at schema version \d+ \(pegas-memory .*\), newer than this store at \d+$/,
    );
    await expect(importLines(dbOf(target), newer)).rejects.toMatchObject({
      hint: expect.stringContaining("or a later version"),
    });
    // An older export is loaded into the store rebuilt at its version (tests/export/upgrade.test.ts); these tables are
    // this version's, not version 6's: refused, and the rebuild is rolled back with the rest.
    const older = [JSON.stringify({ ...header, schema_version: 6 }), ...lines.slice(1)];
    await refused(older, /^line 1: .*a store at schema version 6\b/);
    const format = [JSON.stringify({ ...header, format_version: 2 }), ...lines.slice(1)];
    await refused(format, /^line 1: export format version 2/);
  });

  test("a file that is not an export, or a row with an unknown column, is refused", async () => {
    await refused(["Антон Павлович Чехов. Палата № 6"], /^line 1: not valid JSON/);
    await refused([], /^line 1: the input is empty/);
    const k = firstOf("pm_document");
    const edited = [...lines];
    const row = JSON.parse(edited[k]);
    edited[k] = JSON.stringify({ ...row, row: { ...row.row, extra: 1 } });
    await refused(
      edited,
      new RegExp(`^line ${k + 1}: a pm_document row must have exactly its \\d+ columns; unknown extra`),
    );
    const swapped = [...lines];
    [swapped[k], swapped[firstOf("pm_atom")]] = [swapped[firstOf("pm_atom")], swapped[k]];
    await refused(swapped, /tables must follow the header's order|refused/);
  });

  test("the intact file loads; a second import into the now non-empty store is refused and changes nothing", async () => {
    const ok = await importFile(dbOf(target), file);
    expect(ok.lines).toBe(lines.length);
    const counts = await rowCounts(dbOf(target));
    expect(counts.pm_atom).toBeGreaterThan(50);
    await expect(importFile(dbOf(target), file)).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringMatching(/^the target store is not empty: .*pm_atom holds \d+ row/),
    });
    expect(await rowCounts(dbOf(target))).toEqual(counts);
  });
});
