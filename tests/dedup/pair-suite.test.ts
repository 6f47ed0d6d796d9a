/**
 * The labelled pair suite (issue 4, items 3 and 7), run end to end through both embedders' public ports:
 * - lexical half: the real LexicalHashEmbedder embeds both texts, decidePair runs under its policy
 *   (its calibrated threshold, no paraphrase merging) and must give `expected.lexical`;
 * - semantic half: OllamaEmbedder talks to the Ollama stand-in on loopback, which answers SCRIPTED vectors
 *   modelling a semantic embedder (semantic-script.ts: not EmbeddingGemma, no model runs); decidePair runs under
 *   the neural policy and must give `expected.semantic`.
 * The data is checked first: enough pairs, both languages, labels that follow the issue's rule, and every `a`
 * that names a fixture really quoted from it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import type { OllamaEmbedder } from "../../src/adapters/llm/ollama/embedder.ts";
import { decidePair, dedupPolicy } from "../../src/domain/meaning/dedup.ts";
import { stubEmbedder } from "../support/ollama-fixture.ts";
import { type OllamaStub, startOllamaStub } from "../support/ollama-stub.ts";
import { pairCosines } from "./cosines.ts";
import { fixtureText, foldForQuote } from "./fixture-text.ts";
import { CATEGORIES, PAIRS, ruleFor } from "./pairs.ts";
import { scriptSemanticVectors } from "./semantic-script.ts";

const label = (i: number) => `#${i} ${PAIRS[i].lang} ${PAIRS[i].category}: ${PAIRS[i].a.slice(0, 48)}`;

describe("the labelled pairs themselves", () => {
  test("at least 60 pairs, every category in both languages, most quoted from fixtures", () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(60);
    for (const lang of ["ru", "en"] as const) {
      for (const cat of CATEGORIES)
        expect(PAIRS.filter((p) => p.lang === lang && p.category === cat).length).toBeGreaterThan(0);
    }
    expect(PAIRS.filter((p) => p.source !== null).length / PAIRS.length).toBeGreaterThan(0.75);
  });

  test("each label follows the issue's rule for its category, and no pair is two copies of one text", () => {
    for (const p of PAIRS) expect({ text: p.a, ...p.expected }).toEqual({ text: p.a, ...ruleFor(p.category) });
    const texts = PAIRS.flatMap((p) => [p.a, p.b]);
    expect(new Set(texts).size).toBe(texts.length);
  });

  test("the language tag matches the script of both texts", () => {
    for (const p of PAIRS) {
      const cyrillic = (s: string) => /\p{Script=Cyrillic}/u.test(s);
      expect({ a: p.a, ru: cyrillic(p.a) && cyrillic(p.b) }).toEqual({ a: p.a, ru: p.lang === "ru" });
    }
  });

  test("every `a` with a source occurs in that fixture's text (whitespace and case folded)", async () => {
    const missing: string[] = [];
    for (const p of PAIRS) {
      if (p.source === null) continue;
      if (!(await fixtureText(p.source)).includes(foldForQuote(p.a))) missing.push(`${p.source}: ${p.a}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("lexical half: LexicalHashEmbedder + the lexical policy", () => {
  const embedder = new LexicalHashEmbedder();
  const policy = dedupPolicy(embedder);

  test("the policy is the embedder's calibrated threshold, without paraphrase merging", () => {
    expect(policy).toEqual({ threshold: embedder.nearDupThreshold, paraphrase: false });
  });

  test("every pair gets its expected lexical outcome", async () => {
    const cosines = await pairCosines(embedder, PAIRS);
    const wrong = PAIRS.flatMap((p, i) => {
      const d = decidePair(p.a, p.b, cosines[i], policy);
      return d.outcome === p.expected.lexical
        ? []
        : [`${label(i)} cos=${cosines[i].toFixed(3)} → ${d.outcome} (${d.reason})`];
    });
    expect(wrong).toEqual([]);
  });

  test("the lexical embedder tells paraphrases apart only by cosine or words, never as a contradiction", async () => {
    const paraphrases = PAIRS.filter((p) => p.category === "paraphrase");
    const cosines = await pairCosines(embedder, paraphrases);
    for (const [i, p] of paraphrases.entries()) expect(decidePair(p.a, p.b, cosines[i], policy).outcome).toBe("keep");
    // Some paraphrase reaches the threshold, so the words (not only the cosine) are what keeps it apart.
    expect(cosines.some((c) => c >= policy.threshold)).toBe(true);
  });
});

describe("semantic half: OllamaEmbedder against the scripted stand-in + the neural policy", () => {
  let stub: OllamaStub;
  let embedder: OllamaEmbedder;
  const script = scriptSemanticVectors(PAIRS, 768);

  beforeAll(async () => {
    stub = startOllamaStub({ vectors: script.vectors });
    embedder = stubEmbedder(stub, { batchSize: 16 });
    await embedder.ready();
  });
  afterAll(() => stub.stop());

  test("the adapter returns the scripted cosines (normalized) for every pair", async () => {
    const cosines = await pairCosines(embedder, PAIRS);
    for (const [i, c] of cosines.entries()) expect(Math.abs(c - script.targets[i])).toBeLessThan(1e-5);
    expect(stub.requests.length).toBeGreaterThan(1);
  });

  test("every pair gets its expected semantic outcome", async () => {
    const policy = dedupPolicy(embedder);
    expect(policy).toEqual({ threshold: embedder.nearDupThreshold, paraphrase: true });
    const cosines = await pairCosines(embedder, PAIRS);
    const wrong = PAIRS.flatMap((p, i) => {
      const d = decidePair(p.a, p.b, cosines[i], policy);
      return d.outcome === p.expected.semantic
        ? []
        : [`${label(i)} cos=${cosines[i].toFixed(3)} → ${d.outcome} (${d.reason})`];
    });
    expect(wrong).toEqual([]);
  });

  test("above the threshold, only the words separate a duplicate from a contradiction or another fact", async () => {
    const policy = dedupPolicy(embedder);
    const cosines = await pairCosines(embedder, PAIRS);
    const above = PAIRS.filter((_p, i) => cosines[i] >= policy.threshold);
    const outcomes = new Set(above.map((p) => p.expected.semantic));
    expect([...outcomes].sort()).toEqual(["contradiction", "keep", "merge"]);
  });
});
