/** Neighbouring notes in the embedded BM25 ranking (AtomCatalog.neighbours, Bm25Index.search with neighbours). */
import { describe, expect, test } from "bun:test";
import { AtomCatalog } from "../../src/adapters/embedded/atom-catalog.ts";
import { Bm25Index } from "../../src/adapters/embedded/bm25-index.ts";

const lx = (...words: string[]) => words.map((lexeme) => ({ lexeme, tf: 1 }));

const TEXTS = [lx("hello"), lx("paint", "sunris"), lx("lake", "last", "year"), lx("run"), lx("other")];

/** Five atoms with ids 1..5 (or `ids`), notes or atoms of one ingested document. */
function build(notes: boolean, ids = [1, 2, 3, 4, 5], isNote = (_id: number) => notes) {
  const catalog = new AtomCatalog();
  const index = new Bm25Index();
  TEXTS.forEach((t, i) => {
    const note = isNote(ids[i]);
    const slot = catalog.upsert(ids[i], { type: "text", status: "candidate", docId: note ? 100 + i : 7, note });
    index.add(slot, t);
  });
  return { catalog, index };
}

const ids = (c: AtomCatalog, hits: Array<{ slot: number }>) => hits.map((h) => c.atomId(h.slot));

describe("neighbouring notes", () => {
  test("a note next to a matching note is ranked, below the match", () => {
    const { catalog, index } = build(true);
    const mask = catalog.mask();
    const hits = index.search(lx("sunris"), 10, mask, { weight: 0.5, of: (s) => catalog.neighbours(s) });
    expect(ids(catalog, hits).sort()).toEqual([1, 2, 3]);
    expect(catalog.atomId(hits[0].slot)).toBe(2);
    expect(hits[1].score).toBeCloseTo(hits[0].score / 2, 5);
    expect(index.search(lx("sunris"), 10, mask).map((h) => catalog.atomId(h.slot))).toEqual([2]);
  });

  test("atoms of an ingested document have no neighbours; the mask still applies", () => {
    const docs = build(false);
    expect(docs.catalog.neighbours(1)).toEqual([]);
    expect(docs.catalog.neighbours(1, 2)).toEqual([]);
    const { catalog, index } = build(true);
    const mask = catalog.mask();
    mask[catalog.slot(3)!] = 0;
    const hits = index.search(lx("sunris"), 10, mask, { weight: 0.5, of: (s) => catalog.neighbours(s) });
    expect(hits.map((h) => catalog.atomId(h.slot))).toEqual([2, 1]);
  });

  test("two notes away a note gains weight² of the match's score, below the next-door notes", () => {
    const { catalog, index } = build(true);
    const hits = index.search(lx("sunris"), 10, catalog.mask(), { weight: 0.5, of: (s) => catalog.neighbours(s, 2) });
    expect(ids(catalog, hits)).toEqual([2, 1, 3, 4]);
    expect(hits[3].score).toBeCloseTo(hits[0].score / 4, 5);
    // Between two matches, a note takes the larger of what each lends: 0.5 from the one next door, 0.25 from two away.
    const two = index.search(lx("hello", "run"), 10, catalog.mask(), {
      weight: 0.5,
      of: (s) => catalog.neighbours(s, 2),
    });
    const score = new Map(two.map((h) => [catalog.atomId(h.slot), h.score]));
    expect(score.get(2)).toBeCloseTo(Math.max(score.get(1)! / 2, score.get(4)! / 4), 5);
    expect(score.get(3)).toBeCloseTo(Math.max(score.get(1)! / 4, score.get(4)! / 2), 5);
  });

  test("the episode ends at a gap in the ids or at an atom that is no note", () => {
    const gap = build(true, [1, 2, 4, 5, 6]);
    const of = (c: AtomCatalog, id: number) => c.neighbours(c.slot(id)!, 2).map((n) => [c.atomId(n.slot), n.distance]);
    expect(of(gap.catalog, 2)).toEqual([[1, 1]]);
    expect(of(gap.catalog, 4)).toEqual([
      [5, 1],
      [6, 2],
    ]);
    const mixed = build(true, [1, 2, 3, 4, 5], (id) => id !== 3);
    expect(of(mixed.catalog, 2)).toEqual([[1, 1]]);
    expect(of(mixed.catalog, 4)).toEqual([[5, 1]]);
    expect(mixed.catalog.neighbours(mixed.catalog.slot(3)!, 2)).toEqual([]);
  });
});
