/**
 * The labelled date set (tests/time/date-set.ts): its size and languages, the frozen split (hash of each id, and
 * the check half's digest unchanged since it was written), every phrase in its text, labels that are well-formed
 * intervals; and the extractor's exact-match share on each half (goal ≥ 0.9 on the check half, issue 22).
 */
import { describe, expect, test } from "bun:test";
import { CHECK_DIGEST, checkDigest, DATE_SET, exact, FIRST_CHECK, halfOf } from "./date-set.ts";

describe("the labelled date set", () => {
  test("at least 100 cases, English (LoCoMo) and Russian, both in each half, no id twice", () => {
    expect(DATE_SET.length).toBeGreaterThanOrEqual(100);
    for (const half of ["tune", "check"] as const)
      for (const lang of ["en", "ru"] as const)
        expect(DATE_SET.filter((c) => c.half === half && c.lang === lang).length).toBeGreaterThanOrEqual(15);
    expect(DATE_SET.filter((c) => c.origin === "locomo").length).toBeGreaterThanOrEqual(60);
    expect(new Set(DATE_SET.map((c) => c.id)).size).toBe(DATE_SET.length);
  });

  test("the split is the frozen hash split and the check half is as it was written", () => {
    for (const c of DATE_SET) expect({ id: c.id, half: c.half }).toEqual({ id: c.id, half: halfOf(c.id) });
    expect(checkDigest()).toBe(CHECK_DIGEST);
    expect(checkDigest(FIRST_CHECK.lines)).toBe(FIRST_CHECK.digest); // cases are appended, never edited
  });

  test("each phrase is in its text; each label is a forward interval of its granularity", () => {
    const cyrillic = (s: string) => /\p{Script=Cyrillic}/u.test(s);
    for (const c of DATE_SET) {
      expect({ id: c.id, found: c.text.includes(c.phrase), ru: cyrillic(c.text) }).toEqual({
        id: c.id,
        found: true,
        ru: c.lang === "ru",
      });
      if (c.expect) expect({ id: c.id, forward: c.expect.start < c.expect.end }).toEqual({ id: c.id, forward: true });
    }
  });

  test("the extractor reads at least 90 % of each half exactly", () => {
    for (const half of ["tune", "check"] as const) {
      const cases = DATE_SET.filter((c) => c.half === half);
      const share = cases.filter(exact).length / cases.length;
      expect({ half, ok: share >= 0.9 }).toEqual({ half, ok: true });
    }
  });
});
