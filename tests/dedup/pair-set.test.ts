/**
 * The labelled pair set of issue 21 itself (tests/dedup/pair-set.ts): its size, languages, share of real candidate
 * pairs and the frozen split. How the rules do on it: tests/dedup/pair-set-rules.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { halfOf, PAIR_LABELS, PAIR_SET } from "./pair-set.ts";

describe("the labelled pair set", () => {
  test("at least 500 pairs, at least half of them real candidate pairs of the fixtures corpus", () => {
    expect(PAIR_SET.length).toBeGreaterThanOrEqual(500);
    const real = PAIR_SET.filter((p) => p.origin === "fixtures");
    expect(real.length / PAIR_SET.length).toBeGreaterThanOrEqual(0.5);
    for (const p of real)
      expect({ a: p.a, source: typeof p.source, cosine: typeof p.cosine }).toEqual({
        a: p.a,
        source: "string",
        cosine: "number",
      });
  });

  test("every label in both languages, and both languages among the real pairs", () => {
    for (const lang of ["en", "ru"] as const) {
      for (const label of PAIR_LABELS)
        expect({ lang, label, n: PAIR_SET.some((p) => p.lang === lang && p.label === label) }).toEqual({
          lang,
          label,
          n: true,
        });
      expect(PAIR_SET.some((p) => p.lang === lang && p.origin === "fixtures")).toBe(true);
    }
  });

  test("the language tag matches the script, and no pair is listed twice", () => {
    const cyrillic = (s: string) => /\p{Script=Cyrillic}/u.test(s);
    for (const p of PAIR_SET) expect({ a: p.a, ru: cyrillic(p.a) }).toEqual({ a: p.a, ru: p.lang === "ru" });
    const keys = PAIR_SET.map((p) => `${p.a}\u0000${p.b}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("the split is the frozen hash split, and each half holds every label", () => {
    for (const p of PAIR_SET) expect({ a: p.a, half: p.half }).toEqual({ a: p.a, half: halfOf(p.a, p.b) });
    for (const half of ["tune", "check"] as const)
      for (const label of PAIR_LABELS) expect(PAIR_SET.some((p) => p.half === half && p.label === label)).toBe(true);
  });
});
