/**
 * Dedup within one ingest batch decides each draft against its closest earlier drafts only (at most
 * CANDIDATES_PER_DRAFT, the highest cosines), so a log of near-identical lines costs a few decisions per line.
 */
import { expect, test } from "bun:test";
import { batchCandidates, CANDIDATES_PER_DRAFT, type DedupDraft } from "../../src/core/knowledge/dedup.ts";

function draft(i: number, vector: number[], type: DedupDraft["type"] = "text"): DedupDraft {
  const v = Float32Array.from(vector);
  const n = Math.hypot(...v);
  return { type, content: `line ${i}`, contentHash: `h${i}`, searchText: `line ${i}`, vector: v.map((x) => x / n) };
}

test("the closest earlier drafts are chosen, at most CANDIDATES_PER_DRAFT, in batch order", () => {
  // Draft k leans further from the last draft as k grows: the last one's closest are the latest ones.
  const drafts = Array.from({ length: 30 }, (_, k) => draft(k, [1, (30 - k) / 10]));
  const got = batchCandidates(drafts, 29, 0.1);
  expect(got.length).toBe(CANDIDATES_PER_DRAFT);
  expect(got.map((c) => c.j)).toEqual([21, 22, 23, 24, 25, 26, 27, 28]);
  for (const c of got)
    expect(c.cosine).toBeCloseTo(
      drafts[29].vector[0] * drafts[c.j].vector[0] + drafts[29].vector[1] * drafts[c.j].vector[1],
      5,
    );
});

test("other types, the same content hash and cosines below the threshold are no candidates", () => {
  const drafts = [draft(0, [1, 0]), draft(1, [1, 0], "fact"), draft(2, [0, 1]), draft(3, [1, 0.01])];
  drafts[3].contentHash = drafts[0].contentHash;
  expect(batchCandidates(drafts, 3, 0.5)).toEqual([]);
  drafts[3].contentHash = "other";
  expect(batchCandidates(drafts, 3, 0.5).map((c) => c.j)).toEqual([0]);
});
