/**
 * Issue 4 acceptance, first item: ingesting the real fixtures with the heuristic distiller (the embedded default)
 * yields definition, fact and text atoms from the PDFs and texts, table atoms from the Wikipedia page's tables and
 * code atoms from the v8 blog's code blocks — each with a citation whose quote is in the cited chunk of the source.
 * Read from the shared fixtures store (tests/support/fixtures-store.ts: every fixture ingested once per run, on the
 * embedded default; its making fails on any ingest error).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { foldForQuote } from "../../src/domain/quote.ts";
import { FIXTURE_FILES, suiteFixturesStore } from "../support/fixtures-store.ts";
import { fixture } from "../support/services.ts";

const FILES = {
  pdfs: [
    "pdf/en_paper_mdpi_toxins_2016_ligatures.pdf",
    "pdf/en_paper_npj_2020_two_column_ligatures.pdf",
    "pdf/en_paper_plosmed_2022_single_column.pdf",
    "pdf/ru_paper_iccsde_2024_geoacoustics.pdf",
  ],
  texts: ["text/en_gutenberg_8868_botchan.txt", "text/ru_chekhov_palata_no6.txt"],
  wikipedia: ["html/en_wikipedia_mozilla.html"],
  v8: ["html/en_blog_v8dev_emscripten_standalone_wasm.html"],
};

/**
 * Atom counts by type over the documents of `files`. A document's URI names the file's real path (symbolic links
 * resolved: ../shared may be one), so the fixtures' paths are resolved the same way.
 */
async function typesOf(files: string[]): Promise<Record<string, number>> {
  const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
  const rows = await sql`
    SELECT a.type, count(DISTINCT a.id)::int AS n FROM pm_atom a JOIN pm_citation c ON c.atom_id = a.id JOIN pm_document d ON d.id = c.doc_id
     WHERE a.status <> 'stale' AND d.uri = ANY(${files.map((f) => `file://${realpathSync(fixture(f))}`)}::text[]) GROUP BY a.type`;
  return Object.fromEntries(rows.map((r) => [r.type, r.n]));
}

const t = suiteFixturesStore();
beforeAll(async () => {
  const held = new Set<string>(FIXTURE_FILES);
  for (const f of Object.values(FILES).flat()) expect(held.has(f)).toBe(true);
  // No chunk of them was quarantined (a distiller failure on real input).
  const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
  expect((await sql`SELECT count(*)::int AS n FROM pm_distill_quarantine`)[0].n).toBe(0);
});

describe("the fixtures through the heuristic distiller", () => {
  test("PDFs and texts yield definition, fact and text atoms", async () => {
    for (const group of [FILES.pdfs, FILES.texts]) {
      const types = await typesOf(group);
      for (const type of ["definition", "fact", "text"]) expect(types[type] ?? 0).toBeGreaterThan(0);
    }
  });

  test("the Wikipedia page yields table atoms that keep their header", async () => {
    expect((await typesOf(FILES.wikipedia)).table ?? 0).toBeGreaterThan(0);
    const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
    const tables =
      await sql`SELECT a.content FROM pm_atom a JOIN pm_document d ON d.id = a.doc_id WHERE a.type = 'table' AND d.uri LIKE '%wikipedia%'`;
    // Every table keeps its rows and its header: a header row above `| --- |`, or (the page's infobox, whose headers
    // are the first cell of each row) its caption.
    for (const row of tables) {
      const content = String(row.content);
      expect(content.split("\n").filter((l) => l.startsWith("|")).length).toBeGreaterThanOrEqual(2);
      expect(/^\|.*\|\n\|\s*-{3,}/m.test(content) || /^Table: \S/.test(content)).toBe(true);
    }
  });

  test("the v8 blog yields code atoms", async () => {
    expect((await typesOf(FILES.v8)).code ?? 0).toBeGreaterThan(0);
  });

  test("every citation's quote is in its chunk (whitespace and case aside)", async () => {
    const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
    const rows = await sql`SELECT c.quoted_text, k.text FROM pm_citation c JOIN pm_chunk k ON k.id = c.chunk_id`;
    expect(rows.length).toBeGreaterThan(500);
    const missing = rows.filter((r) => !foldForQuote(String(r.text)).includes(foldForQuote(String(r.quoted_text))));
    expect(missing.map((r) => String(r.quoted_text).slice(0, 80))).toEqual([]);
    const empty = await sql`SELECT count(*)::int AS n FROM pm_citation WHERE chunk_id IS NOT NULL AND quoted_text = ''`;
    expect(empty[0].n).toBe(0);
  });
});
