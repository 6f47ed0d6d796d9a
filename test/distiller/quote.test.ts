import { describe, expect, test } from "bun:test";
import { checkQuotes, foldForQuote, quoteOccurs } from "../../src/domain/quote.ts";

const CHUNK = "Ricin is a plant ribosome-inactivating\nprotein consisting of a cell-binding B chain.\n\nЁлка — это хвойное дерево.";

describe("quoteOccurs", () => {
  test("verbatim, whitespace- and case-insensitive", () => {
    expect(quoteOccurs("Ricin is a plant", CHUNK)).toBe(true);
    expect(quoteOccurs("ribosome-inactivating protein consisting", CHUNK)).toBe(true);
    expect(quoteOccurs("RICIN   IS A\tPLANT", CHUNK)).toBe(true);
    expect(quoteOccurs("  Ricin is a plant  ", CHUNK)).toBe(true);
  });

  test("ё and е are one letter, both ways", () => {
    expect(quoteOccurs("елка — это хвойное дерево", CHUNK)).toBe(true);
    expect(quoteOccurs("ёлка", "Елка — это дерево")).toBe(true);
  });

  test("NFKC: ligatures and full-width forms", () => {
    expect(quoteOccurs("significant", "a signiﬁcant effect")).toBe(true);
    expect(quoteOccurs("ＡＢＣ 12", "abc 12")).toBe(true);
  });

  test("soft hyphens, zero-width characters and BOM are ignored on either side", () => {
    expect(quoteOccurs("spaceflight", "in space\u00adflight studies")).toBe(true);
    expect(quoteOccurs("space\u200bflight", "in spaceflight studies")).toBe(true);
    expect(quoteOccurs("word joiner", "word\u2060 joiner\ufeff")).toBe(true);
  });

  test("a quote that is not there, or is empty, does not occur", () => {
    expect(quoteOccurs("Ricin is an animal protein", CHUNK)).toBe(false);
    expect(quoteOccurs("", CHUNK)).toBe(false);
    expect(quoteOccurs(" \n\t", CHUNK)).toBe(false);
    expect(quoteOccurs("\u00ad\u200b", CHUNK)).toBe(false);
  });

  test("words are not glued across whitespace", () => {
    expect(quoteOccurs("Ricinis", CHUNK)).toBe(false);
  });

  test("foldForQuote", () => {
    expect(foldForQuote("  Ёж\u00ad  ИДЁТ\n")).toBe("еж идет");
  });
});

describe("checkQuotes", () => {
  const atoms = [
    { id: "a", quote: "Ricin is a plant", links: [{ to: 2, kind: "reference" }, { to: 1, kind: "reference" }] },
    { id: "b", quote: "the sky is green", links: [] },
    { id: "c", quote: "это хвойное дерево", links: [{ to: 1, kind: "reference" }, { to: 0, kind: "reference" }] },
    { id: "d", quote: "", links: [] },
  ];

  test("keeps atoms whose quote occurs, drops the rest with a reason and a warning each", () => {
    const r = checkQuotes(atoms, CHUNK);
    expect(r.kept.map((a) => a.id)).toEqual(["a", "c"]);
    expect(r.dropped.map((d) => d.atom.id)).toEqual(["b", "d"]);
    expect(r.dropped[0].reason).toContain('"the sky is green" does not occur');
    expect(r.dropped[1].reason).toBe("the quote is empty");
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toContain("atom 1 dropped");
  });

  test("links are renumbered to the kept list; links to dropped atoms go", () => {
    const r = checkQuotes(atoms, CHUNK);
    expect(r.kept[0].links).toEqual([{ to: 1, kind: "reference" }]);
    expect(r.kept[1].links).toEqual([{ to: 0, kind: "reference" }]);
    // The input is not mutated.
    expect(atoms[0].links).toHaveLength(2);
  });

  test("atoms without links and an empty list", () => {
    expect(checkQuotes([{ quote: "Ricin" }], CHUNK).kept).toEqual([{ quote: "Ricin" }]);
    expect(checkQuotes([], CHUNK)).toEqual({ kept: [], dropped: [], warnings: [] });
  });
});
