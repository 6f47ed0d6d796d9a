/**
 * The local embedder's feature table (hashes computed in place, no feature names built) against the plain reference
 * it replaced: a Map of feature names ("w\u0001word", "g\u0001gram") and fnv1a32 of each name, summed in order of
 * first occurrence. Bit-identical vectors on mixed text, astral characters, symbols-only text, and two different
 * words whose feature hashes collide (they must stay two features, as two names in a Map).
 */
import { describe, expect, test } from "bun:test";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { fnv1a32 } from "../../src/domain/hash.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../../src/domain/stopwords.ts";
import { l2normalize } from "../../src/ports/models/embedder.ts";

/** The embedder as it was written first (main before the ingest CPU work), kept here as the reference. */
function reference(text: string, dim: number): Float32Array {
  const folded = text.normalize("NFKC").toLowerCase().replaceAll("ё", "е");
  const counts = new Map<string, number>();
  const add = (word: string, ngrams: boolean) => {
    counts.set(`w\u0001${word}`, (counts.get(`w\u0001${word}`) ?? 0) + 1);
    if (!ngrams) return;
    const cps = Array.from(`<${word}>`);
    for (let n = 3; n <= 5 && n < cps.length; n++)
      for (let i = 0; i + n <= cps.length; i++) {
        const g = `g\u0001${cps.slice(i, i + n).join("")}`;
        counts.set(g, (counts.get(g) ?? 0) + 1);
      }
  };
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  const content = words.filter((w) => !ENGLISH_STOP_WORDS.has(w) && !RUSSIAN_STOP_WORDS.has(w));
  if (words.length) for (const w of content.length ? content : words) add(w, true);
  else for (const s of folded.match(/\S+/gu) ?? []) add(s, false);
  const v = new Float32Array(dim);
  for (const [feature, count] of counts) {
    const h = fnv1a32(feature);
    const weight = (feature.startsWith("w") ? 1 : 0.35) * (1 + Math.log(count));
    v[h % dim] += h & 0x80000000 ? -weight : weight;
  }
  if (v.every((x) => x === 0)) v[fnv1a32(folded) % dim] = 1;
  return l2normalize(v);
}

/** Two different words whose word features hash alike (found by a birthday search over 7-letter words). */
const COLLIDING = ["fmjdbrj", "uiexifm"];

const TEXTS = [
  "The hospital ward number six stood in the yard; the doctor visited it in 1892 and 1893.",
  "Палата № 6 стояла во дворе больницы; ёлки и ели росли вокруг, доктор Андрей Ефимыч читал.",
  "emoji 😀😀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters, ﬁ ligatures, ＦＵＬＬ width — all folded",
  "!!! ??? … ---",
  "the and of", // stop words only: kept when nothing else is there
  `${COLLIDING[0]} ${COLLIDING[1]} ${COLLIDING[0]} request request handled handled handled`,
  "INFO api 3: request handled status ok in 42 ms.\nWARN db 7: slow query detected on table events in 99 ms.",
];

describe("lexical embedder equals its reference", () => {
  test("the colliding pair does collide (else the last text tests nothing)", () => {
    expect(COLLIDING[0]).not.toBe(COLLIDING[1]);
    expect(fnv1a32(`w\u0001${COLLIDING[0]}`)).toBe(fnv1a32(`w\u0001${COLLIDING[1]}`));
  });

  for (const dim of [64, 256]) {
    test(`bit-identical vectors at dimension ${dim}`, () => {
      const e = new LexicalHashEmbedder(dim);
      for (const text of TEXTS) expect(Array.from(e.embed(text))).toEqual(Array.from(reference(text, dim)));
    });
  }

  test("a long text (the feature table grows) and a short one after it (the table is reused)", () => {
    const e = new LexicalHashEmbedder(256);
    const long = Array.from({ length: 3000 }, (_, i) => `word${i} слово${i % 97} item-${i % 13}`).join(" ");
    expect(Array.from(e.embed(long))).toEqual(Array.from(reference(long, 256)));
    expect(Array.from(e.embed(TEXTS[0]))).toEqual(Array.from(reference(TEXTS[0], 256)));
  });
});
