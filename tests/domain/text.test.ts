import { describe, expect, test } from "bun:test";
import { detectLang, firstSentence, foldForHash, sanitizeText, truncateCodePoints } from "../../src/domain/text.ts";

describe("sanitizeText", () => {
  test("removes NUL, replaces lone surrogates, normalizes CRLF, and says so", () => {
    const r = sanitizeText("a\u0000b\r\nc\ud800d\udc00e");
    expect(r.text).toBe("ab\nc\ufffdd\ufffde");
    expect(r.warnings.join(" ")).toContain("1 NUL");
    expect(r.warnings.join(" ")).toContain("2 lone surrogate");
  });
  test("leaves valid pairs and clean text alone", () => {
    const r = sanitizeText("Палата 😀");
    expect(r).toEqual({ text: "Палата 😀", warnings: [] });
  });
});

describe("text helpers", () => {
  test("foldForHash folds case, ё and spaces", () => {
    expect(foldForHash("  Ёлка\n  ЗЕЛЁНАЯ ")).toBe("елка зеленая");
  });
  test("detectLang by script", () => {
    expect(detectLang("В больничном дворе стоит флигель")).toBe("ru");
    expect(detectLang("The hospital yard")).toBe("en");
    expect(detectLang("12 + 3")).toBe("und");
  });
  test("firstSentence and truncation by code point", () => {
    expect(firstSentence("Первое предложение. Второе.")).toBe("Первое предложение.");
    expect(truncateCodePoints("😀😀😀😀", 3)).toBe("😀😀…");
  });
});
