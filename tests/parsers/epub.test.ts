import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { epubParser } from "../../src/adapters/parsers/epub/index.ts";
import type { ParsedDocument, ParseLimits } from "../../src/ports/models/parser.ts";
import { sharedFixture } from "../support/binary.ts";

const LIMITS: ParseLimits = {
  maxBytes: 50 << 20,
  maxZipEntries: 2000,
  maxZipTotalBytes: 200 << 20,
  maxZipEntryBytes: 20 << 20,
};

async function parseFixture(name: string): Promise<ParsedDocument> {
  const bytes = readFileSync(sharedFixture(`epub/${name}`));
  return epubParser.parse({ bytes, uri: `file:///fixtures/${name}` }, LIMITS);
}

/** The one section containing `needle` (fails when none or several do). */
function sectionWith(doc: ParsedDocument, needle: string) {
  const found = doc.sections.filter((s) => s.text.includes(needle));
  expect(found.map((s) => s.locator.chapter_index)).toHaveLength(1);
  return found[0];
}

describe("EPUB 3: Alice's Adventures in Wonderland (nav document)", async () => {
  const doc = await parseFixture("en_epub3_alice_in_wonderland.epub");

  test("metadata from the OPF; every text spine item extracted, the image-only cover listed", () => {
    expect(doc.kind).toBe("epub");
    expect(doc.mediaType).toBe("application/epub+zip");
    expect(doc.title).toBe("Alice's Adventures in Wonderland");
    expect(doc.metadata).toMatchObject({
      author: "Lewis Carroll",
      lang: "en-US",
      epub_version: "3.0",
      spine_items: 13,
      chapters_extracted: 12,
      spine_items_without_text: ["OPS/cover.xhtml"],
      spine_items_failed: 0,
      non_linear_chapters: [2],
      toc_source: "nav",
      chapters_titled_from_toc: 11,
    });
    expect(doc.warnings).toEqual([]);
  });

  test("chapters in spine order with nav titles (the nav document itself falls back to its heading)", () => {
    expect(doc.sections.map((s) => s.locator.chapter)).toEqual([
      "Contents",
      "Title Page",
      "Down The Rabbit-Hole",
      "The Pool Of Tears",
      "A Caucus-Race And A Long Tale",
      "The Rabbit Sends In A Little Bill",
      "Advice From A Caterpillar",
      "Pig And Pepper",
      "A Mad Tea-Party",
      "The Queen's Croquet Ground",
      "Who Stole The Tarts?",
      "Alice's Evidence",
    ]);
    expect(doc.sections.map((s) => s.locator.chapter_index)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  test("known sentences sit in the right chapter, with the container path as href", () => {
    expect(
      sectionWith(doc, "Alice was beginning to get very tired of sitting by her sister on the bank").locator,
    ).toEqual({
      chapter: "Down The Rabbit-Hole",
      chapter_index: 4,
      href: "OPS/chapter_001.xhtml",
    });
    expect(sectionWith(doc, "Curiouser and curiouser!").locator.chapter).toBe("The Pool Of Tears");
    expect(sectionWith(doc, "The Queen of Hearts, she made some tarts").locator.chapter).toBe("Who Stole The Tarts?");
  });

  test("block elements become paragraphs separated by blank lines; markup is gone", () => {
    const ch1 = doc.sections[2].text;
    expect(ch1).toStartWith("Down The Rabbit-Hole\n\nAlice was beginning to get very tired");
    expect(ch1).toContain('without pictures or conversations?"\n\nSo she was considering in her own mind');
    expect(ch1).not.toMatch(/<[a-z]|Illo1|stylesheet/);
    // Source line breaks inside a paragraph are whitespace, not line breaks.
    expect(ch1).toContain("tired of sitting by her sister on the bank, and of having nothing to do.");
  });
});

describe("EPUB 2: Leaves of Grass (NCX, ~390 split files, percent-encoded hrefs)", async () => {
  const doc = await parseFixture("en_epub2_leaves_of_grass_gutenberg.epub");

  test("chapter count matches the spine exactly", () => {
    expect(doc.title).toBe("Leaves of Grass");
    expect(doc.metadata).toMatchObject({
      author: "Walt Whitman",
      lang: "en",
      epub_version: "2.0",
      spine_items: 383,
      chapters_extracted: 382,
      spine_items_without_text: ["titlepage.xhtml"],
      spine_items_failed: 0,
      toc_source: "ncx",
      toc_entries: 376,
    });
    expect(doc.sections).toHaveLength(382);
    expect(doc.warnings).toEqual([]);
  });

  test("NCX src '1322/%40public…' matches the manifest's '1322/@public…' (percent-decoded, fragment dropped)", () => {
    // Without decoding, no NCX entry would match a spine item and every title would come from headings.
    expect(doc.metadata.chapters_titled_from_toc).toBe(376);
    expect(doc.sections[0].locator).toEqual({
      chapter: "LEAVES OF GRASS",
      chapter_index: 2,
      href: "1322/@public@vhost@g@gutenberg@html@files@1322@1322-h@1322-h-0.htm_split_000.html",
    });
    expect(doc.sections.map((s) => s.locator.chapter).slice(2, 6)).toEqual([
      "BOOK I. INSCRIPTIONS",
      "One's-Self I Sing",
      "As I Ponder'd in Silence",
      "In Cabin'd Ships at Sea",
    ]);
    expect(doc.sections.at(-1)?.locator).toMatchObject({ chapter: "Good-Bye My Fancy!", chapter_index: 383 });
  });

  test("known lines sit in the right chapter; verse keeps its line breaks", () => {
    const body = sectionWith(doc, "I sing the body electric,");
    expect(body.locator).toMatchObject({ chapter: "I Sing the Body Electric", chapter_index: 34 });
    expect(sectionWith(doc, "O Captain! my Captain! our fearful trip is done").locator).toMatchObject({
      chapter: "O Captain! My Captain!",
      chapter_index: 190,
    });
    const song = sectionWith(doc, "I celebrate myself, and sing myself,");
    expect(song.locator.chapter_index).toBe(30);
    expect(song.text).toContain("I celebrate myself, and sing myself,\nAnd what I assume you shall assume,");
  });
});
