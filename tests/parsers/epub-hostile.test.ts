import { describe, expect, test } from "bun:test";
import { rejection } from "../support/errors.ts";
import { strToU8, unzipSync, zipSync } from "fflate";
import { readFileSync } from "node:fs";
import { expandSelfClosing } from "../../src/adapters/parsers/epub/chapter.ts";
import { epubParser } from "../../src/adapters/parsers/epub/index.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";
import { sharedFixture } from "../support/binary.ts";
import { buildEpub, type TestChapter } from "../support/zip-epub.ts";
import { buildRawZip, deflatedRepeat } from "../support/zip-raw.ts";

const MB = 1 << 20;
const LIMITS: ParseLimits = {
  maxBytes: 50 * MB,
  maxZipEntries: 100,
  maxZipTotalBytes: 64 * MB,
  maxZipEntryBytes: 10 * MB,
};

const CHAPTERS: TestChapter[] = [
  {
    file: "chapter 1.xhtml",
    title: "Первая глава",
    body: "<h1>Глава 1</h1><p>В больничном дворе стоит небольшой флигель.</p>",
  },
  {
    file: "part two/chapter 2.xhtml",
    title: "Вторая глава",
    body: "<h1>Глава 2</h1><p>Иван Дмитрич Громов, мужчина лет тридцати трех.</p>",
  },
  { file: "chapter 3.xhtml", title: "Третья глава", body: "<p>Однажды осенним утром.</p>" },
];

function parse(bytes: Uint8Array, limits: ParseLimits = LIMITS, signal?: AbortSignal) {
  return epubParser.parse({ bytes, uri: "file:///test.epub", signal }, limits);
}

describe("EPUB: hrefs and broken spines", () => {
  test("file names with spaces, percent-encoded in OPF and nav hrefs (with fragments), are resolved", async () => {
    const doc = await parse(buildEpub(CHAPTERS));
    expect(doc.warnings).toEqual([]);
    expect(doc.sections.map((s) => s.locator)).toEqual([
      { chapter: "Первая глава", chapter_index: 1, href: "OEBPS/chapter 1.xhtml" },
      { chapter: "Вторая глава", chapter_index: 2, href: "OEBPS/part two/chapter 2.xhtml" },
      { chapter: "Третья глава", chapter_index: 3, href: "OEBPS/chapter 3.xhtml" },
    ]);
    expect(doc.sections[0].text).toBe("Глава 1\n\nВ больничном дворе стоит небольшой флигель.");
    expect(doc.title).toBe("Test Book");
    expect(doc.metadata).toMatchObject({
      author: "Test Author",
      lang: "ru",
      spine_items: 3,
      chapters_extracted: 3,
      toc_source: "nav",
    });
  });

  test("a missing spine file and a dangling idref are named in warnings; the rest is ingested", async () => {
    const doc = await parse(
      buildEpub(CHAPTERS, { omitFiles: ["part two/chapter 2.xhtml"], danglingIdrefs: ["ghost"] }),
    );
    expect(doc.sections.map((s) => s.locator.chapter_index)).toEqual([1, 3]);
    expect(doc.metadata).toMatchObject({ spine_items: 4, chapters_extracted: 2, spine_items_failed: 2 });
    expect(doc.warnings).toEqual([
      "spine item 2 ('part%20two/chapter%202.xhtml'): file 'OEBPS/part two/chapter 2.xhtml' is missing from the archive",
      "spine item 4 ('ghost'): no manifest item with id 'ghost'",
      "extracted 2 of 4 spine items; 2 could not be read (named above)",
    ]);
  });

  test("XHTML quirks: an empty <title/> does not swallow the body; NUL bytes are removed with a warning", async () => {
    const quirky = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title/><script src="x.js"/></head><body><p>Видимый текст.</p><p>Nul\u0000here</p></body></html>`;
    const bytes = zipSync({
      "META-INF/container.xml": strToU8(
        `<container><rootfiles><rootfile full-path="book.opf"/></rootfiles></container>`,
      ),
      "book.opf": strToU8(
        `<package version="2.0"><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>`,
      ),
      "a.xhtml": strToU8(quirky),
    });
    const doc = await parse(bytes);
    expect(doc.sections[0].text).toBe("Видимый текст.\n\nNulhere");
    expect(doc.sections[0].locator).toEqual({ chapter: "a.xhtml", chapter_index: 1, href: "a.xhtml" });
    expect(doc.warnings.join("\n")).toContain("chapter 1 (a.xhtml): removed 1 NUL");
  });
});

describe("EPUB: DRM and hostile markup", () => {
  test("a chapter listed in META-INF/encryption.xml is named as encrypted, not parsed as garbage", async () => {
    const encryption = `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/chapter%203.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const doc = await parse(buildEpub(CHAPTERS, { extra: { "META-INF/encryption.xml": encryption } }));
    expect(doc.sections.map((s) => s.locator.chapter_index)).toEqual([1, 2]);
    expect(doc.warnings[0]).toBe("spine item 3 ('chapter%203.xhtml'): encrypted (DRM), cannot be read");
  });

  // Linear, not timed: a quadratic expansion of these megabytes would run for hours, far past the test's limit.
  test("self-closing expansion stays linear on hostile markup", () => {
    for (const s of ["<a b='x' c=d ".repeat(50_000), "a/>".repeat(300_000), `<a ${"b ".repeat(500_000)}`])
      expandSelfClosing(s);
    expect(expandSelfClosing(`<title/><a id="p"/><br/><img alt="x>y"/><!-- c/> --><div class="c"/>`)).toBe(
      `<title></title><a id="p"></a><br/><img alt="x>y"/><!-- c/> --><div class="c"></div>`,
    );
  });
});

describe("EPUB: not an EPUB", () => {
  test("random bytes, a truncated EPUB, a ZIP without container, a container without OPF → UNSUPPORTED_MEDIA", async () => {
    const cases: Array<[Uint8Array, string]> = [
      [strToU8("just some text, not a zip"), "no ZIP end-of-central-directory record"],
      [
        readFileSync(sharedFixture("epub/en_epub3_alice_in_wonderland.epub")).subarray(0, 200_000),
        "no ZIP end-of-central-directory record",
      ],
      [zipSync({ "readme.txt": strToU8("hello") }), "no META-INF/container.xml"],
      [
        zipSync({
          "META-INF/container.xml": strToU8(
            `<container><rootfiles><rootfile full-path="OPS/p.opf"/></rootfiles></container>`,
          ),
        }),
        "the OPF package 'OPS/p.opf' named in container.xml is missing",
      ],
    ];
    for (const [bytes, message] of cases) {
      const err = await rejection(parse(bytes));
      expect(err.code).toBe("UNSUPPORTED_MEDIA");
      expect(err.message).toContain(message);
    }
  });
});

describe("EPUB: zip-bomb limits", () => {
  const bomb = deflatedRepeat(200);

  function bombEpub(declaredSize?: number): Uint8Array {
    const chapter = { name: "OEBPS/chapter 1.xhtml", deflated: bomb, declaredSize };
    const base = buildEpub(CHAPTERS.slice(0, 1), { omitFiles: ["chapter 1.xhtml"] });
    // Re-pack the generated EPUB's files with the bomb as its only chapter.
    const files = Object.entries(unzipSync(base)).map(([name, data]) => ({ name, data }));
    return buildRawZip([...files, chapter]);
  }

  test("an honest 200 MB entry is refused from the central directory, before inflating", async () => {
    const err = await rejection(parse(bombEpub()));
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain("zip_max_entry_bytes");
    expect(err.message).toContain("declares 209715200 uncompressed bytes");
    expect(err.userMessage).toContain("raise zip_max_entry_bytes in the config file only if the archive is trusted");
  });

  test("an entry that declares 1 KB but inflates to 200 MB is stopped at the limit, not allocated", async () => {
    const rss0 = process.memoryUsage().rss;
    const err = await rejection(parse(bombEpub(1024)));
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain("inflates to more than 10485760 bytes");
    expect(err.message).toContain("zip_max_entry_bytes");
    expect(process.memoryUsage().rss - rss0).toBeLessThan(100 * MB);
  });

  test("the total declared size and the entry count are limited too", async () => {
    const small = deflatedRepeat(8);
    const many = Array.from({ length: 9 }, (_, i) => ({ name: `f${i}.bin`, deflated: small }));
    const total = await rejection(parse(buildRawZip(many)));
    expect(total.code).toBe("LIMIT_EXCEEDED");
    expect(total.message).toContain("zip_max_total_bytes");
    expect(total.userMessage).toContain("raise zip_max_total_bytes in the config file");
    const count = await rejection(
      parse(buildRawZip(Array.from({ length: 101 }, (_, i) => ({ name: `e${i}`, data: strToU8("x") })))),
    );
    expect(count.code).toBe("LIMIT_EXCEEDED");
    expect(count.message).toContain("101 ZIP entries");
    expect(count.message).toContain("zip_max_entries");
    expect(count.userMessage).toContain("raise zip_max_entries in the config file");
  });

  test("maxBytes applies to the EPUB file itself", async () => {
    const err = await rejection(parse(buildEpub(CHAPTERS), { ...LIMITS, maxBytes: 100 }));
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain("max_input_bytes");
    expect(err.userMessage).toContain("raise max_input_bytes in the config file");
  });
});

describe("EPUB: cancellation", () => {
  test("an abort while chapters are being read gives CANCELLED", async () => {
    const bytes = readFileSync(sharedFixture("epub/en_epub2_leaves_of_grass_gutenberg.epub"));
    const ac = new AbortController();
    const pending = parse(bytes, { ...LIMITS, maxZipEntries: 1000 }, ac.signal);
    // parse() has opened the archive and is suspended at its first cancellation point, before chapter 1.
    ac.abort();
    const err = await rejection(pending);
    expect(err.code).toBe("CANCELLED");
  });

  test("an already-aborted signal gives CANCELLED before any work", async () => {
    const ac = new AbortController();
    ac.abort();
    expect((await rejection(parse(buildEpub(CHAPTERS), LIMITS, ac.signal))).code).toBe("CANCELLED");
  });
});
