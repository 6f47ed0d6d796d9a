/**
 * The context's source lines and concise citations (src/core/context/render.ts): a citation of a whole document (a
 * note, a short text) names no locator in either form; one of a part names it; a second part of a source already
 * listed refers back to it.
 */
import { describe, expect, test } from "bun:test";
import { citationLine, conciseCitation, WHOLE_DOCUMENT } from "../../src/core/context/render.ts";
import type { ContextCitation } from "../../src/core/context/types.ts";

const note: ContextCitation = {
  n: 1,
  doc_id: 7,
  title: "session 3",
  uri: "text:sha256:ab",
  locator: WHOLE_DOCUMENT,
  quote: "q",
};
const page: ContextCitation = {
  n: 2,
  doc_id: 9,
  title: "Палата № 6",
  uri: "file:///c.txt",
  locator: "chars 10–90",
  quote: "q",
};
const again: ContextCitation = { ...page, n: 3, locator: "chars 400–480" };

describe("context sources", () => {
  test("a whole document names no locator, in the text and in the concise JSON", () => {
    expect(citationLine(note, [note])).toBe("[1] session 3\n");
    expect(conciseCitation(note)).toEqual({ n: 1, doc_id: 7 });
  });

  test("a part names its locator; a second part of the same document refers back", () => {
    const all = [note, page, again];
    expect(citationLine(page, all)).toBe("[2] Палата № 6 — chars 10–90 (file:///c.txt)\n");
    expect(citationLine(again, all)).toBe("[3] as [2] — chars 400–480\n");
    expect(conciseCitation(page)).toEqual({ n: 2, doc_id: 9, locator: "chars 10–90" });
  });
});
