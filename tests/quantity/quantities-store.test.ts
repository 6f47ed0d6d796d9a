/**
 * Measurements beside atoms in the store (issue 24): a document ingest through the heuristic distiller writes them
 * for its fact atoms (not for the chunk's passage), `reindex quantities` (the backfill) gives them back to a store
 * that lost them and adds nothing when repeated, and an export carries them into an empty PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backfillQuantities } from "../../src/core/quantities/backfill.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { pgSkipReason } from "../support/pg.ts";
import { dbOf, type ExportEnds, exportToFile, importFile, openExportEnds } from "../export/support.ts";

const skip = await pgSkipReason();
const dir = mkdtempSync(join(tmpdir(), "pegas-quantities-"));
let ends: ExportEnds | undefined;

const TEXT = [
  "# Service notes",
  "",
  "The cold start of the service takes 1.2 s on the x86 laptop.",
  "The release archive is 512 MiB.",
  "Время запуска сервиса составляет 200 мс.",
  "The team met on Monday to discuss the roadmap.",
].join("\n");

beforeAll(async () => {
  if (skip) return;
  ends = await openExportEnds();
}, 120_000);

afterAll(async () => {
  await ends?.dispose();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Every stored measurement as [claim, quote, canonical low, canonical unit]. */
async function stored(ends: ExportEnds, side: "source" | "target"): Promise<string[][]> {
  const db = dbOf(ends[side].services);
  const rows = await db.sql`
    SELECT a.claim, q.quote, q.low::text AS low, q.canonical_unit, a.metadata->>'passage' AS passage
      FROM pm_atom_quantity q JOIN pm_atom a ON a.id = q.atom_id ORDER BY q.atom_id, q.span_start`;
  return rows.map((r) => [
    String(r.claim),
    String(r.quote),
    String(r.low),
    String(r.canonical_unit),
    String(r.passage),
  ]);
}

describe.skipIf(skip !== null)("measurements in the store", () => {
  test("a text ingest stores the measurements of its fact atoms, not of the passage", async () => {
    const s = ends!.source.services;
    const r = await ingest(s, { text: TEXT, title: "Service notes" });
    expect(r.atoms_created).toBeGreaterThan(3);
    const rows = await stored(ends!, "source");
    expect(rows.map((x) => x[1])).toEqual(["1.2 s", "512 MiB", "200 мс"]);
    expect(rows.map((x) => x[3])).toEqual(["s", "B", "s"]);
    expect(rows.every((x) => x[4] !== "true")).toBe(true);
    const hits = await search(s, { query: "время запуска меньше 1 с" });
    expect(hits.hits.map((h) => h.claim)).toEqual(["Время запуска сервиса составляет 200 мс."]);
    const big = await search(s, { query: "archive > 500 MB" });
    expect(big.hits.map((h) => h.claim)).toEqual(["The release archive is 512 MiB."]);
  });

  test("the backfill restores lost measurements, resumes, and adds nothing when repeated", async () => {
    const s = ends!.source.services;
    const before = await stored(ends!, "source");
    await dbOf(s).sql`DELETE FROM pm_atom_quantity`;
    const first = await backfillQuantities(s.quantities, { pageSize: 2, maxAtoms: 2 });
    expect(first.finished).toBe(false);
    const rest = await backfillQuantities(s.quantities, { pageSize: 2 });
    expect(rest.resumedAfter).toBe(first.lastAtomId);
    expect(rest.finished).toBe(true);
    expect(first.quantitiesAdded + rest.quantitiesAdded).toBe(3);
    expect(await stored(ends!, "source")).toEqual(before);
    const again = await backfillQuantities(s.quantities, { restart: true });
    expect(again.quantitiesAdded).toBe(0);
    expect(again.atoms).toBeGreaterThan(3);
  });

  test("an export carries them into an empty PostgreSQL, and the filter answers there", async () => {
    const file = join(dir, "export.jsonl");
    await exportToFile(dbOf(ends!.source.services), file, true);
    await importFile(dbOf(ends!.target.services), file);
    expect(await stored(ends!, "target")).toEqual(await stored(ends!, "source"));
    const hits = await search(ends!.target.services, { query: "cold start < 1.5 s" });
    expect(hits.hits.map((h) => h.claim)).toEqual(["The cold start of the service takes 1.2 s on the x86 laptop."]);
  });
});
