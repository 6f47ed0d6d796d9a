/**
 * Document frequencies of the embedded BM25 ranking (Bm25Index.add with `counted`): restatements (typed atoms of a
 * stored document) are ranked but do not count in the idf, so a sentence the distiller restated is not a more common
 * word than one it left alone; the projection counts notes and passages only, and a snapshot keeps which slots count.
 */
import { describe, expect, test } from "bun:test";
import { Bm25Index } from "../../src/adapters/embedded/bm25-index.ts";

const lx = (...words: string[]) => words.map((lexeme) => ({ lexeme, tf: 1 }));
const all = (n: number) => new Uint8Array(n).fill(1);

/** Two one-word passages and three restatements of the first one's word, counted or not. */
function build(countRestatements: boolean) {
  const index = new Bm25Index();
  index.add(0, lx("alpha"));
  index.add(1, lx("beta"));
  for (const slot of [2, 3, 4]) index.add(slot, lx("alpha"), countRestatements);
  return index;
}

describe("idf over counted slots", () => {
  test("restatements leave a word's idf as the passages give it", () => {
    const hits = build(false).search(lx("alpha", "beta"), 10, all(5));
    const score = new Map(hits.map((h) => [h.slot, h.score]));
    expect(hits).toHaveLength(5);
    expect(score.get(0)).toBeCloseTo(score.get(1)!, 6);
    // Counted as well, the restated word is four times as frequent and its passage falls behind.
    const counted = new Map(
      build(true)
        .search(lx("alpha", "beta"), 10, all(5))
        .map((h) => [h.slot, h.score]),
    );
    expect(counted.get(0)!).toBeLessThan(counted.get(1)!);
  });

  test("a word only restatements hold, and a store of restatements alone, still rank", () => {
    const index = build(false);
    index.add(5, lx("gamma"), false);
    expect(index.search(lx("gamma"), 10, all(6)).map((h) => h.slot)).toEqual([5]);
    const only = new Bm25Index();
    only.add(0, lx("delta", "x"), false);
    only.add(1, lx("epsilon"), false);
    const hits = only.search(lx("delta"), 10, all(2));
    expect(hits.map((h) => h.slot)).toEqual([0]);
    expect(hits[0].score).toBeGreaterThan(0);
  });

  test("a snapshot's state keeps which slots count: the same scores after export and import", () => {
    const index = build(false);
    index.add(5, lx("gamma"), false);
    const copy = new Bm25Index();
    copy.importState(index.exportState(6));
    const q = lx("alpha", "beta", "gamma");
    expect(copy.search(q, 10, all(6))).toEqual(index.search(q, 10, all(6)));
    expect(copy.has(5)).toBe(true);
    copy.add(6, lx("alpha")); // counted after the import as before it
    index.add(6, lx("alpha"));
    expect(copy.search(q, 10, all(7))).toEqual(index.search(q, 10, all(7)));
  });
});
