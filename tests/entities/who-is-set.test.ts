/** The labelled "who/what is X" set (tests/entities/who-is-set.ts): its size, languages and the frozen split. */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { foldQuote, loadWhoIsSet, whoIsHalf } from "./who-is-set.ts";

const SET = loadWhoIsSet();
const FIXTURES = resolve(import.meta.dir, "../../../shared/fixtures");

describe("the who-is set", () => {
  test("at least 30 questions, both languages, ids unique", () => {
    expect(SET.length).toBeGreaterThanOrEqual(30);
    expect(SET.filter((q) => q.lang === "ru").length).toBeGreaterThanOrEqual(10);
    expect(SET.filter((q) => q.lang === "en").length).toBeGreaterThanOrEqual(10);
    expect(new Set(SET.map((q) => q.id)).size).toBe(SET.length);
  });

  test("the language tag matches the question's script", () => {
    for (const q of SET)
      expect({ id: q.id, ru: /\p{Script=Cyrillic}/u.test(q.question) }).toEqual({ id: q.id, ru: q.lang === "ru" });
  });

  test("the split is the frozen hash split, and each half holds both languages", () => {
    for (const q of SET) expect({ id: q.id, half: q.half }).toEqual({ id: q.id, half: whoIsHalf(q.id) });
    for (const half of ["tune", "check"] as const)
      for (const lang of ["en", "ru"] as const) expect(SET.some((q) => q.half === half && q.lang === lang)).toBe(true);
  });

  test("every fixture exists, and a plain-text fixture holds its answer verbatim (whitespace aside)", async () => {
    for (const q of SET) {
      const path = join(FIXTURES, q.fixture);
      if (!existsSync(FIXTURES)) return;
      expect({ id: q.id, exists: existsSync(path) }).toEqual({ id: q.id, exists: true });
      if (!q.fixture.startsWith("text/")) continue;
      const text = foldQuote(await Bun.file(path).text());
      expect({ id: q.id, found: text.includes(foldQuote(q.answer)) }).toEqual({ id: q.id, found: true });
    }
  });

  test("folding ignores case, ё, dashes and line wraps, and nothing else", () => {
    expect(foldQuote("Рагин – замечательный\n  человек. Ёж")).toBe("рагин - замечательный человек. еж");
    expect(foldQuote("Mr. Koga")).not.toBe(foldQuote("Mr. Hotta"));
  });
});
