/**
 * Ingest dates its atoms (issue 22): the caller's `observed_at` wins; else the document's own date — HTML
 * datePublished / a <time> element, PDF CreationDate, EPUB dc:date, read from the real fixtures — and each atom's
 * event time comes from its text, relative expressions resolved against that date; raw text without `observed_at`
 * has no observation and leaves "yesterday" undated; a bad `observed_at` is INVALID_INPUT before anything is read.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { epubParser } from "../../src/adapters/parsers/epub/index.ts";
import { pdfParser } from "../../src/adapters/parsers/pdf/index.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { documentObservedAt } from "../../src/core/documents/document-time.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";
import { rejectsWith } from "../support/errors.ts";
import { fixture, suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const LIMITS: ParseLimits = {
  maxBytes: 64 << 20,
  maxZipEntries: 10_000,
  maxZipTotalBytes: 256 << 20,
  maxZipEntryBytes: 64 << 20,
};

async function timesOfDoc(docId: number) {
  const db = (t.services.maintenance as SqlCanonicalStore).db;
  return db.sql`
    SELECT a.content, to_char(a.observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS observed,
           to_char(a.event_start AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS start, a.event_granularity AS granularity
      FROM pm_atom a WHERE a.id IN (SELECT atom_id FROM pm_citation WHERE doc_id = ${docId}) ORDER BY a.id`;
}

describe("ingest records when the source said it and when things happened", () => {
  test("raw text with observed_at: relative dates resolve against it, in English and Russian", async () => {
    const r = await ingest(t.services, {
      text: "Ivan moved to Moscow yesterday.\n\nНа прошлой неделе Андрей Ефимыч уехал в Варшаву.",
      observed_at: "2024-03-06T09:00:00Z",
    });
    const rows = await timesOfDoc(r.doc_id!);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.observed).toBe("2024-03-06T09:00");
    const first = rows.find((x) => String(x.content).startsWith("Ivan"))!;
    expect(first).toMatchObject({ start: "2024-03-05", granularity: "day" });
  });

  test("raw text without observed_at has no observation; absolute dates still date it", async () => {
    const r = await ingest(t.services, { text: "Pyotr left yesterday.\n\nThe annex was built in 1875." });
    const rows = await timesOfDoc(r.doc_id!);
    expect(rows.every((x) => x.observed === null)).toBe(true);
    // "yesterday" dates nothing without a reference: only 1875 is ever an event time here.
    expect(new Set(rows.map((x) => x.start))).toEqual(
      new Set(rows.map((x) => (String(x.content).includes("1875") ? "1875-01-01" : null))),
    );
    expect(rows.some((x) => x.start === "1875-01-01")).toBe(true);
  });

  test("an HTML page's datePublished is the observation of every atom of it", async () => {
    const r = await ingest(
      t.services,
      { path: fixture("html/en_docs_docker_install_engine.html") },
      { trustedPath: true },
    );
    const rows = await timesOfDoc(r.doc_id!);
    expect(rows.length).toBeGreaterThan(5);
    expect(new Set(rows.map((x) => x.observed))).toEqual(new Set(["2022-04-22T18:35"]));
  });

  test("the caller's observed_at wins over the document's date", async () => {
    const r = await ingest(
      t.services,
      { path: fixture("html/en_blog_v8dev_emscripten_standalone_wasm.html"), observed_at: "2020-01-02" },
      { trustedPath: true },
    );
    const rows = await timesOfDoc(r.doc_id!);
    expect(rows.some((x) => x.observed === "2020-01-02T00:00")).toBe(true);
  });

  test("PDF CreationDate, EPUB dc:date and a <time> element's text are documents' dates", async () => {
    const pdf = await pdfParser.parse(
      { bytes: readFileSync(fixture("pdf/en_paper_plosmed_2022_single_column.pdf")), uri: "x.pdf" },
      LIMITS,
    );
    expect(pdf.metadata.created).toBe("D:20211217232817+05'30'");
    expect(documentObservedAt(undefined, pdf.metadata, {})?.toISOString()).toBe("2021-12-17T17:58:17.000Z");
    const epub = await epubParser.parse(
      { bytes: readFileSync(fixture("epub/en_epub2_leaves_of_grass_gutenberg.epub")), uri: "x.epub" },
      LIMITS,
    );
    const alice = await epubParser.parse(
      { bytes: readFileSync(fixture("epub/en_epub3_alice_in_wonderland.epub")), uri: "y.epub" },
      LIMITS,
    );
    const dated = [epub, alice].map((e) => documentObservedAt(undefined, e.metadata, {})?.toISOString());
    expect(dated).toContain("1998-04-30T16:00:00.000Z");
    expect(documentObservedAt(undefined, { published: "21 November 2019" }, {})?.toISOString()).toBe(
      "2019-11-21T00:00:00.000Z",
    );
    expect(documentObservedAt(undefined, {}, { fetched_at: "2026-01-05T10:00:00.000Z" })?.toISOString()).toBe(
      "2026-01-05T10:00:00.000Z",
    );
  });

  test("a bad observed_at is INVALID_INPUT naming the format; nothing is stored", async () => {
    const err = await rejectsWith(
      ingest(t.services, { text: "Nothing to see here, really.", observed_at: "last week" }),
      "INVALID_INPUT",
    );
    expect(err.userMessage).toContain("ISO 8601");
  });
});
