/** Identifier-aware words, tsvector/tsquery literals and dependency-target leaves (src/adapters/sql/code/words.ts). */
import { describe, expect, test } from "bun:test";
import {
  identifierParts,
  identifierWords,
  symbolTsqueryLiteral,
  symbolTsvectorLiteral,
  targetLeaf,
} from "../../src/adapters/sql/code/words.ts";

describe("identifier words", () => {
  test("camelCase, acronyms, snake_case and digits split; the whole identifier kept", () => {
    expect(identifierParts("JSONDecoder")).toEqual(["JSON", "Decoder"]);
    expect(identifierParts("HTMLParser")).toEqual(["HTML", "Parser"]);
    expect(identifierParts("parseHTTPResponse2")).toEqual(["parse", "HTTP", "Response2"]);
    expect(identifierParts("parse_http_response")).toEqual(["parse", "http", "response"]);
    expect(identifierParts("__init__")).toEqual(["init"]);
    expect(identifierParts("getX")).toEqual(["get", "X"]);
    expect(identifierWords("HTMLParser.feed")).toEqual(["htmlparser", "html", "parser", "feed"]);
    expect(identifierWords("snake_case_name")).toEqual(["snakecasename", "snake", "case", "name"]);
    expect(identifierWords("Декодер JSON")).toEqual(["декодер", "json"]);
    expect(identifierWords(null)).toEqual([]);
  });

  test("tsvector literal: weights by field, quoting, positions below PostgreSQL's limit", () => {
    const lit = symbolTsvectorLiteral({
      name: "feed",
      qualifiedName: "HTMLParser.feed",
      signature: "def feed(self, data)",
      docstring: "Feed data to the parser; it's O'Brien's.",
    });
    expect(lit).toContain("'feed':1A,5B,7C,10D");
    expect(lit).toContain("'htmlparser':2B");
    expect(lit).toContain("'brien':18D");
    const long = symbolTsvectorLiteral({
      name: "x",
      qualifiedName: "x",
      signature: null,
      docstring: "word ".repeat(10_000),
    });
    const max = Math.max(...[...long.matchAll(/(\d+)[A-D]/g)].map((m) => Number(m[1])));
    expect(max).toBeLessThan(16383);
  });

  test("tsquery literal: every token, as the whole word or all its parts, as prefixes", () => {
    expect(symbolTsqueryLiteral("loads")).toBe("'loads':*");
    expect(symbolTsqueryLiteral("JSONDecoder")).toBe("('jsondecoder':* | ('json':* & 'decoder':*))");
    expect(symbolTsqueryLiteral("json decoder")).toBe("'json':* & 'decoder':*");
    expect(symbolTsqueryLiteral("  ().,  ")).toBeNull();
    expect(symbolTsqueryLiteral("it's")).toBe("'it':* & 's':*");
  });

  test("target leaves", () => {
    expect(targetLeaf("json.loads", "calls")).toBe("loads");
    expect(targetLeaf("io::Reader", "inherits")).toBe("Reader");
    expect(targetLeaf("./tools/memory-search.ts", "imports")).toBe("memory-search");
    expect(targetLeaf("json.decoder", "imports")).toBe("decoder");
    expect(targetLeaf("<stdio.h>", "imports")).toBe("stdio");
    expect(targetLeaf("fmt", "imports")).toBe("fmt");
  });
});
