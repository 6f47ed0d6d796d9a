/**
 * The embedded vector index stores int8 codes (per-vector scalar quantisation, flat-index.ts): its answers must stay
 * those of exact float32 search within a stated tolerance. Over the sentences of the two fixture novels (English and
 * Russian) embedded by the default local embedder, and over dense random unit vectors, whose near-equal scores are
 * the hard case for a quantiser.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { AtomCatalog } from "../../src/adapters/embedded/atom-catalog.ts";
import { CODE_MAX, FlatVectorIndex, quantise } from "../../src/adapters/embedded/flat-index.ts";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { fixturePath } from "../support/shared.ts";

const K = 10;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** An index over `vectors` (atom id = position + 1) and a float32 brute force over the same vectors. */
async function indexOf(vectors: Float32Array[], dim: number) {
  const index = new FlatVectorIndex("test", dim, new AtomCatalog());
  await index.upsert(
    vectors.map((vector, i) => ({
      atomId: i + 1,
      vector,
      payload: { type: "text", status: "verified", docId: null, confidence: 0.7, lang: "en" },
    })),
  );
  const exact = (q: Float32Array) =>
    vectors
      .map((v, i) => ({ atomId: i + 1, score: dot(v, q) }))
      .sort((a, b) => b.score - a.score || a.atomId - b.atomId)
      .slice(0, K);
  return { index, exact };
}

/** Mean recall@K of the index against exact search, and the largest score error over the hits. */
async function compare(vectors: Float32Array[], queries: Float32Array[], dim: number) {
  const { index, exact } = await indexOf(vectors, dim);
  let recall = 0;
  let maxError = 0;
  let maxBound = 0;
  for (const q of queries) {
    const truth = exact(q);
    const hits = await index.search(q, K);
    const want = new Set(truth.map((h) => h.atomId));
    recall += hits.filter((h) => want.has(h.atomId)).length / truth.length;
    const l1 = q.reduce((s, x) => s + Math.abs(x), 0);
    for (const h of hits) {
      const v = vectors[h.atomId - 1];
      maxError = Math.max(maxError, Math.abs(h.score - dot(v, q)));
      const max = v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
      maxBound = Math.max(maxBound, (l1 * max) / CODE_MAX / 2 + 1e-6);
    }
  }
  return { recall: recall / queries.length, maxError, maxBound };
}

function sentences(file: string, min: number): string[] {
  const text = readFileSync(fixturePath(file), "utf8");
  return text
    .split(/(?<=[.!?…])\s+/u)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length >= min);
}

/** Seeded unit vectors with normal components (Box–Muller over a 32-bit LCG). */
function randomUnit(n: number, dim: number, seed: number): Float32Array[] {
  let x = seed >>> 0;
  const rand = () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
  return Array.from({ length: n }, () => {
    const v = new Float32Array(dim);
    for (let i = 0; i < dim; i++) v[i] = Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
    const norm = Math.hypot(...v);
    return v.map((c) => c / norm);
  });
}

describe("int8 vector index", () => {
  test("a code step is max |x| / 127, codes round to nearest, a zero vector stays zero", () => {
    const codes = new Int8Array(4);
    expect(quantise(new Float32Array([0.5, -0.25, 0.001, -0.5]), codes, 0)).toBeCloseTo(0.5 / 127, 9);
    expect([...codes]).toEqual([127, -64, 0, -127]);
    expect(quantise(new Float32Array(4), codes, 0)).toBe(0);
    expect([...codes]).toEqual([0, 0, 0, 0]);
  });

  for (const [file, lang] of [
    ["text/en_gutenberg_8868_botchan.txt", "English"],
    ["text/ru_chekhov_palata_no6.txt", "Russian"],
  ] as const) {
    test(`${lang} novel, local embedder: recall@10 of the exact top-10 ≥ 0.97, scores within the bound`, async () => {
      const embedder = new LexicalHashEmbedder();
      const all = sentences(file, 20);
      expect(all.length).toBeGreaterThan(500);
      const vectors = await embedder.embedDocuments(all);
      // Queries: a few words of every 25th sentence, as a user would ask.
      const asked = all.filter((_, i) => i % 25 === 0).map((s) => s.split(" ").slice(0, 5).join(" "));
      const queries = await Promise.all(asked.map((q) => embedder.embedQuery(q)));
      const { recall, maxError, maxBound } = await compare(vectors, queries, embedder.dim);
      expect(recall).toBeGreaterThanOrEqual(0.97);
      expect(maxError).toBeLessThanOrEqual(maxBound);
      expect(maxError).toBeLessThan(0.01);
    });
  }

  test("dense random unit vectors (near-equal scores): recall@10 ≥ 0.9, scores within the bound", async () => {
    const dim = 256;
    const { recall, maxError, maxBound } = await compare(randomUnit(3000, dim, 7), randomUnit(50, dim, 11), dim);
    expect(recall).toBeGreaterThanOrEqual(0.9);
    expect(maxError).toBeLessThanOrEqual(maxBound);
  });

  test("its state round-trips: the same answers from the exported codes", async () => {
    const dim = 64;
    const vectors = randomUnit(200, dim, 3);
    const { index } = await indexOf(vectors, dim);
    const catalog = new AtomCatalog();
    for (let i = 0; i < vectors.length; i++) catalog.upsert(i + 1, { type: "text", status: "verified", docId: null });
    const copy = new FlatVectorIndex("test", dim, catalog);
    const state = index.exportState(vectors.length);
    copy.importState({ present: state.present.slice(), scales: state.scales.slice(), codes: state.codes.slice() });
    for (const q of randomUnit(5, dim, 5)) expect(await copy.search(q, K)).toEqual(await index.search(q, K));
    expect(await copy.count()).toBe(vectors.length);
  });
});
