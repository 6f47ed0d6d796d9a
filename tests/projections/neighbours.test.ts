/** Neighbouring notes in the embedded BM25 ranking (AtomCatalog.neighbours, Bm25Index.search with neighbours). */
import { describe, expect, test } from "bun:test";
import { AtomCatalog } from "../../src/adapters/embedded/atom-catalog.ts";
import { Bm25Index } from "../../src/adapters/embedded/bm25-index.ts";

const lx = (...words: string[]) => words.map((lexeme) => ({ lexeme, tf: 1 }));

function build(notes: boolean) {
  const catalog = new AtomCatalog();
  const index = new Bm25Index();
  const texts = [lx("hello"), lx("paint", "sunris"), lx("lake", "last", "year"), lx("run"), lx("other")];
  texts.forEach((t, i) => {
    const slot = catalog.upsert(i + 1, { type: "text", status: "candidate", docId: notes ? 100 + i : 7, note: notes });
    index.add(slot, t);
  });
  return { catalog, index };
}

describe("neighbouring notes", () => {
  test("a note next to a matching note is ranked, below the match", () => {
    const { catalog, index } = build(true);
    const mask = catalog.mask();
    const hits = index.search(lx("sunris"), 10, mask, { weight: 0.5, of: (s) => catalog.neighbours(s) });
    expect(hits.map((h) => catalog.atomId(h.slot)).sort()).toEqual([1, 2, 3]);
    expect(catalog.atomId(hits[0].slot)).toBe(2);
    expect(hits[1].score).toBeCloseTo(hits[0].score / 2, 5);
    expect(index.search(lx("sunris"), 10, mask).map((h) => catalog.atomId(h.slot))).toEqual([2]);
  });

  test("atoms of an ingested document have no neighbours; the mask still applies", () => {
    const docs = build(false);
    expect(docs.catalog.neighbours(1)).toEqual([]);
    const { catalog, index } = build(true);
    const mask = catalog.mask();
    mask[catalog.slot(3)!] = 0;
    const hits = index.search(lx("sunris"), 10, mask, { weight: 0.5, of: (s) => catalog.neighbours(s) });
    expect(hits.map((h) => catalog.atomId(h.slot))).toEqual([2, 1]);
  });
});
