/**
 * The labelled quantity set of issue 24 itself (tests/quantity/quantity-set.ts): its size, languages, that every
 * sentence is read from its fixture, and the frozen check half. How the extractor does on it:
 * `npm run bench -- quantities`.
 */
import { describe, expect, test } from "bun:test";
import { fixtureText, foldForQuote } from "../dedup/fixture-text.ts";
import { checkDigest, QUANTITY_SET, quantityHalf } from "./quantity-set.ts";

/** Digest of the check half, recorded when the set was written and before any extraction rule existed. */
const FROZEN_CHECK_DIGEST = "84668f5706667c5f7d59438bdcbe542f342d52f7e6f81989cd520ed49ae240f7";

describe("quantity set", () => {
  test("holds ≥ 150 sentences with measurements in both languages, and negatives", () => {
    const withQ = QUANTITY_SET.filter((it) => it.quantities.length > 0);
    expect(withQ.length).toBeGreaterThanOrEqual(150);
    expect(withQ.filter((it) => it.lang === "ru").length).toBeGreaterThanOrEqual(35);
    expect(withQ.filter((it) => it.source.startsWith("pdf/") || it.source.startsWith("html/")).length).toBeGreaterThan(
      50,
    );
    expect(QUANTITY_SET.length - withQ.length).toBeGreaterThanOrEqual(5);
  });

  test("ids are unique and the language tag matches the script", () => {
    expect(new Set(QUANTITY_SET.map((it) => it.id)).size).toBe(QUANTITY_SET.length);
    for (const it of QUANTITY_SET)
      expect({ id: it.id, ru: /\p{Script=Cyrillic}/u.test(it.text) }).toEqual({ id: it.id, ru: it.lang === "ru" });
  });

  test("every sentence is quoted from its fixture as the project's parsers read it", async () => {
    for (const it of QUANTITY_SET) {
      const text = await fixtureText(it.source);
      expect({ id: it.id, found: text.includes(foldForQuote(it.text)) }).toEqual({ id: it.id, found: true });
    }
  });

  test("the split is the hash split and the check half is the frozen one", () => {
    for (const it of QUANTITY_SET)
      expect({ id: it.id, half: it.half }).toEqual({ id: it.id, half: quantityHalf(it.text) });
    expect(checkDigest(QUANTITY_SET)).toBe(FROZEN_CHECK_DIGEST);
    expect(QUANTITY_SET.filter((it) => it.half === "check").flatMap((it) => it.quantities).length).toBeGreaterThan(75);
  });
});
