import { describe, expect, test } from "bun:test";
import { toDistillResult } from "../../src/adapters/llm/normalize.ts";
import { DistillAnswerSchema } from "../../src/adapters/llm/schema.ts";
import { checkQuotes, foldForQuote, quoteIsEvidence, quoteOccurs } from "../../src/domain/quote.ts";

const CHUNK =
  "Ricin is a plant ribosome-inactivating\nprotein consisting of a cell-binding B chain.\n\nЁлка — это хвойное дерево.";

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
    {
      id: "a",
      quote: "Ricin is a plant",
      links: [
        { to: 2, kind: "reference" },
        { to: 1, kind: "reference" },
      ],
    },
    { id: "b", quote: "the sky is green", links: [] },
    {
      id: "c",
      quote: "это хвойное дерево",
      links: [
        { to: 1, kind: "reference" },
        { to: 0, kind: "reference" },
      ],
    },
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
    expect(checkQuotes([{ quote: "Ricin is a plant" }], CHUNK).kept).toEqual([{ quote: "Ricin is a plant" }]);
    expect(checkQuotes([], CHUNK)).toEqual({ kept: [], dropped: [], warnings: [] });
  });
});

describe("a quote must be long enough to be evidence", () => {
  test("two words of two or more letters/digits, or eight letters/digits in all", () => {
    for (const q of [
      "in 2016",
      "Да, но",
      "is a plant",
      "tuberculosis",
      "Новосибирск",
      "12345678",
      "TB, tuberculosis",
      "x86 64",
    ]) {
      expect([q, quoteIsEvidence(q)]).toEqual([q, true]);
    }
  });

  test("a letter, a digit, a code token or a short cell is not evidence, nor are one-letter words", () => {
    for (const q of [
      "e",
      "x",
      "42",
      "2016",
      "Yes",
      "Да",
      "x = 1",
      "| 1 | 2 |",
      "a b c d e f g",
      "в и к",
      "Ricin",
      "ёлка",
      "\u00ad\u200b",
      "…!?",
    ]) {
      expect([q, quoteIsEvidence(q)]).toEqual([q, false]);
    }
  });

  test("folding first: invisible characters and ligatures count as what they render", () => {
    expect(quoteIsEvidence("ﬁ")).toBe(false); // the ligature folds to "fi": one word of two letters
    expect(quoteIsEvidence("signiﬁcant")).toBe(true);
    expect(quoteIsEvidence("a\u00adb\u200bc")).toBe(false); // "abc" once the invisibles are gone
  });

  test("checkQuotes drops a one-letter quote that does occur, with the warning", () => {
    const chunk = "The Earth's moon is a rocky body about 3,474 km across.";
    const atoms = [
      { claim: "The moon is made of cheese.", quote: "e" },
      { claim: "The moon is 3,474 km across.", quote: "about 3,474 km across" },
      { claim: "Made of x.", quote: "x" },
    ];
    const r = checkQuotes(atoms, chunk);
    expect(r.kept.map((a) => a.claim)).toEqual(["The moon is 3,474 km across."]);
    expect(r.dropped.map((d) => d.atom.claim)).toEqual(["The moon is made of cheese.", "Made of x."]);
    expect(r.dropped[0].reason).toContain("quote too short to be evidence");
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toStartWith("atom 0 dropped: quote too short to be evidence");
    // A short quote that does not occur either is reported as too short: the first reason that holds.
    expect(checkQuotes([{ quote: "q" }], chunk).dropped[0].reason).toContain("too short");
  });

  test("a model's answer with a one-letter quote is not stored as a cited fact (LLM and sampling distillers)", () => {
    const text = "Луна — естественный спутник Земли. The moon orbits the Earth every 27.3 days.";
    const answer = DistillAnswerSchema.parse({
      atoms: [
        {
          type: "fact",
          claim: "The moon is made of cheese.",
          content: "The moon is made of cheese.",
          confidence: 0.9,
          quote: "e",
          links: [],
        },
        {
          type: "fact",
          claim: "The moon orbits the Earth every 27.3 days.",
          content: "",
          confidence: 0.8,
          quote: "orbits the Earth every 27.3 days",
          links: [{ to: 0, kind: "reference" }],
        },
        { type: "definition", claim: "Луна: спутник Земли", content: "", confidence: 0.8, quote: "Луна", links: [] },
      ],
    });
    const r = toDistillResult(answer, { text, lang: "und" });
    expect(r.atoms.map((a) => a.claim)).toEqual(["The moon orbits the Earth every 27.3 days."]);
    expect(r.atoms[0].links).toEqual([]); // its link pointed at the dropped atom
    expect(r.warnings.filter((w) => w.includes("quote too short to be evidence"))).toHaveLength(2);
  });
});
