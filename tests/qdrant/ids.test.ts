/** Point ids and collection names of the Qdrant adapter. */
import { describe, expect, test } from "bun:test";
import { ATOM_POINT_NAMESPACE, defaultCollectionName, pointIdOf, uuidV5 } from "../../src/adapters/qdrant/index.ts";

const V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidV5", () => {
  test("matches the RFC 9562 test vector (DNS namespace, www.example.com)", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
  });

  test("refuses a namespace that is not a UUID", () => {
    expect(() => uuidV5("x", "not-a-uuid")).toThrow(TypeError);
  });
});

describe("pointIdOf", () => {
  test("is the v5 UUID of 'atom:<id>' in the documented namespace: stable, version 5, RFC variant", () => {
    expect(pointIdOf(42)).toBe(uuidV5("atom:42", ATOM_POINT_NAMESPACE));
    expect(pointIdOf(42)).toBe(pointIdOf(42));
    expect(pointIdOf(1)).toMatch(V5);
    expect(pointIdOf(Number.MAX_SAFE_INTEGER)).toMatch(V5);
  });

  test("is distinct for 10 000 atom ids", () => {
    const seen = new Set<string>();
    for (let id = 0; id < 10_000; id++) seen.add(pointIdOf(id));
    expect(seen.size).toBe(10_000);
  });

  test("refuses ids that are not non-negative integers", () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => pointIdOf(bad)).toThrow(TypeError);
  });
});

describe("defaultCollectionName", () => {
  test("folds the model name to [a-z0-9_] and appends the dimension", () => {
    expect(defaultCollectionName("embeddinggemma-2-740m-Q8_0", 768)).toBe("pegas_atoms_embeddinggemma_2_740m_q8_0_768");
    expect(defaultCollectionName("nomic-embed-text:latest", 768)).toBe("pegas_atoms_nomic_embed_text_latest_768");
    expect(defaultCollectionName("local-lexical-v1", 256)).toBe("pegas_atoms_local_lexical_v1_256");
    expect(defaultCollectionName("Модель", 8)).toMatch(/^pegas_atoms_model_[0-9a-f]{8}_8$/);
    expect(defaultCollectionName("Модель", 8)).not.toBe(defaultCollectionName("Модель-2", 8));
  });

  test("keeps long names below Qdrant's 255 characters, distinct by a hash suffix", () => {
    const a = defaultCollectionName(`${"x".repeat(300)}a`, 768);
    const b = defaultCollectionName(`${"x".repeat(300)}b`, 768);
    expect(a.length).toBeLessThan(160);
    expect(a).toMatch(/^[a-z0-9_]+$/);
    expect(a).not.toBe(b);
  });

  test("refuses a dimension that is not a positive integer", () => {
    expect(() => defaultCollectionName("m", 0)).toThrow(TypeError);
  });
});
