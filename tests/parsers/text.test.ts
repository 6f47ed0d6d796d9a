import { describe, expect, test } from "bun:test";
import { rejection } from "../support/errors.ts";
import { readFileSync } from "node:fs";
import { textParser } from "../../src/adapters/parsers/text/index.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";
import { sharedFixture } from "../support/binary.ts";

const LIMITS: ParseLimits = {
  maxBytes: 50 << 20,
  maxZipEntries: 1000,
  maxZipTotalBytes: 100 << 20,
  maxZipEntryBytes: 20 << 20,
};
const CHEKHOV = readFileSync(sharedFixture("text/ru_chekhov_palata_no6.txt"), "utf8");
/** Paragraphs of the story (one per line); [4] (570 chars) and [23] (119 chars) encode in every Cyrillic charset. */
const PARAS = CHEKHOV.split("\n").filter((l) => l.trim().length > 0);
/** KOI8-R has no en dash, guillemets or ellipsis: the story with those spelled in ASCII, as KOI8-R texts do. */
const CHEKHOV_KOI8 = CHEKHOV.replaceAll("–", "-").replaceAll("«", '"').replaceAll("»", '"').replaceAll("…", "...");

/** Encodes UTF-8 text into `charset` with Debian's iconv (libc-bin). */
function iconv(text: string, charset: string): Uint8Array {
  const r = Bun.spawnSync(["iconv", "-f", "utf-8", "-t", charset], { stdin: new TextEncoder().encode(text) });
  if (r.exitCode !== 0) throw new Error(`iconv ${charset}: ${r.stderr.toString()}`);
  return new Uint8Array(r.stdout);
}

function parse(
  bytes: Uint8Array,
  extra: { uri?: string; charset?: string; mediaType?: string; signal?: AbortSignal } = {},
) {
  return textParser.parse({ bytes, uri: extra.uri ?? "file:///t.txt", ...extra }, LIMITS);
}

describe("text parser: real files", () => {
  test("UTF-8 English novel: one section, exact text, charset recorded", async () => {
    const bytes = readFileSync(sharedFixture("text/en_gutenberg_8868_botchan.txt"));
    const doc = await parse(bytes);
    expect(doc.kind).toBe("text");
    expect(doc.mediaType).toBe("text/plain");
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0].locator).toEqual({});
    // The file starts with a UTF-8 BOM, which is not text.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(doc.sections[0].text).toBe(bytes.subarray(3).toString("utf8").replace(/\r\n?/g, "\n"));
    expect(doc.sections[0].text).toStartWith("Project Gutenberg's Botchan (Master Darling), by Kin-nosuke Natsume\n");
    expect(doc.metadata).toMatchObject({ charset: "utf-8", charset_source: "bom", bytes: bytes.byteLength });
    expect(doc.warnings).toEqual([]);
  });

  test("the whole Russian story in windows-1251 and KOI8-R decodes to the original", async () => {
    for (const [charset, name, original] of [
      ["cp1251", "windows-1251", CHEKHOV],
      ["koi8-r", "koi8-r", CHEKHOV_KOI8],
    ]) {
      const doc = await parse(iconv(original, charset));
      expect(doc.metadata).toMatchObject({ charset: name, charset_source: "detected" });
      expect(doc.sections[0].text).toBe(original);
      // Right, but a guess all the same: the result says so.
      expect(doc.warnings).toEqual([
        `not valid UTF-8; decoded as ${name}, the charset detection's guess: if the text reads wrong, re-save it as UTF-8 or declare its charset`,
      ]);
    }
  });
});

describe("text parser: Russian single-byte charsets (chardet alone gets these wrong)", () => {
  const cases: Array<[string, string]> = [
    ["cp1251", "windows-1251"],
    ["koi8-r", "koi8-r"],
    ["mac-cyrillic", "x-mac-cyrillic"],
    ["cp866", "ibm866"],
  ];
  for (const [iconvName, whatwg] of cases) {
    test(`a paragraph and a short line in ${whatwg}`, async () => {
      for (const original of [PARAS[4], PARAS[23]]) {
        const doc = await parse(iconv(original, iconvName));
        expect(doc.sections[0].text).toBe(original);
        expect(doc.metadata.charset).toBe(whatwg);
      }
    });
  }
});

describe("text parser: other legacy charsets are not mistaken for Cyrillic", () => {
  test("French in windows-1252 and Greek in ISO-8859-7 come out right", async () => {
    const french =
      "Le cœur a ses raisons que la raison ne connaît point. On le sait en mille choses. Élève, été, à côté, où, garçon, déjà vu, " +
      "naïveté et l'hôpital où l'on soigne les malades.";
    const greek =
      "Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης. Η πρωτεύουσα και μεγαλύτερη πόλη είναι η Αθήνα, με πολλά μνημεία " +
      "της αρχαιότητας και μεγάλο λιμάνι στον Πειραιά.";
    for (const [text, charset] of [
      [french, "cp1252"],
      [greek, "iso-8859-7"],
    ]) {
      const doc = await parse(iconv(text, charset));
      expect(doc.sections[0].text).toBe(text);
      expect(doc.metadata.charset_source).toBe("detected");
    }
  });
});

describe("text parser: BOM, declarations, transport", () => {
  const ru = PARAS[23];
  test("UTF-16LE and UTF-16BE with BOM; UTF-8 BOM dropped", async () => {
    for (const [charset, name] of [
      ["utf-16le", "utf-16le"],
      ["utf-16be", "utf-16be"],
    ]) {
      const bom = charset === "utf-16le" ? [0xff, 0xfe] : [0xfe, 0xff];
      const doc = await parse(new Uint8Array([...bom, ...iconv(ru, charset)]));
      expect(doc.sections[0].text).toBe(ru);
      expect(doc.metadata).toMatchObject({ charset: name, charset_source: "bom" });
    }
    const doc = await parse(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(ru)]));
    expect(doc.sections[0].text).toBe(ru);
    expect(doc.metadata.charset_source).toBe("bom");
  });

  test("UTF-16LE without a BOM is recognised, not refused as binary", async () => {
    const text = `Chapter 1. ${ru}`;
    const doc = await parse(iconv(text, "utf-16le"));
    expect(doc.sections[0].text).toBe(text);
    expect(doc.metadata.charset).toBe("utf-16le");
  });

  test("a Markdown meta charset declaration is used, and the title is the first # heading", async () => {
    const md = `<meta charset="windows-1251">\n\n# Палата № 6\n\n${ru}\n`;
    const doc = await parse(iconv(md, "cp1251"), { uri: "file:///chekhov.md" });
    expect(doc.metadata).toMatchObject({ charset: "windows-1251", charset_source: "declaration" });
    expect(doc.mediaType).toBe("text/markdown");
    expect(doc.title).toBe("Палата № 6");
    expect(doc.sections[0].text).toBe(md);
  });

  test("the transport charset wins over an in-file declaration", async () => {
    const text = `-*- coding: windows-1251 -*-\n${ru}`;
    const doc = await parse(iconv(text, "koi8-r"), { charset: "KOI8-R" });
    expect(doc.metadata).toMatchObject({ charset: "koi8-r", charset_source: "transport" });
    expect(doc.sections[0].text).toBe(text);
  });

  test("a stale declaration on valid UTF-8 is overridden with a warning", async () => {
    const text = `charset=windows-1251\n${ru}`;
    const doc = await parse(new TextEncoder().encode(text));
    expect(doc.sections[0].text).toBe(text);
    expect(doc.metadata.charset).toBe("utf-8");
    expect(doc.warnings.join("\n")).toContain("declared charset 'windows-1251' (declaration) ignored");
  });

  test("UTF-8 with a corrupt byte stays UTF-8, with a lossy-decode warning (not a single-byte guess)", async () => {
    const enc = new TextEncoder();
    for (const text of [PARAS[23], "Café au lait — naïve résumé, déjà vu. The quick brown fox jumps over the dog."]) {
      const bytes = new Uint8Array([...enc.encode(text), 0xff, ...enc.encode(" ... "), ...enc.encode(text)]);
      const doc = await parse(bytes);
      expect(doc.sections[0].text).toBe(`${text}\ufffd ... ${text}`);
      expect(doc.metadata).toMatchObject({ charset: "utf-8", charset_source: "detected" });
      expect(doc.warnings).toEqual([
        "lossy decode: not valid UTF-8; 1 byte sequence(s) invalid in utf-8 replaced with U+FFFD",
      ]);
    }
  });

  test("ASCII with one stray high byte: the guessed charset is a warning", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("Price list for 2024, in euros: 12 "), 0x80]);
    const doc = await parse(bytes);
    expect(doc.sections[0].text).toBe("Price list for 2024, in euros: 12 €");
    expect(doc.warnings.join("\n")).toMatch(/^not valid UTF-8; decoded as windows-1252/);
  });

  test("a lossy decode is a warning, not a silent success", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("valid start "), 0xff, 0xfe, 0x41]);
    const doc = await parse(bytes, { charset: "utf-8" });
    expect(doc.sections[0].text).toStartWith("valid start ");
    expect(doc.warnings.join("\n")).toMatch(/lossy decode: 2 byte sequence\(s\) invalid in utf-8/);
  });
});

describe("text parser: hostile input and limits", () => {
  test("binary bytes are refused with UNSUPPORTED_MEDIA", async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 0, 0x80,
    ]);
    const err = await rejection(parse(png));
    expect(err.code).toBe("UNSUPPORTED_MEDIA");
    expect(err.message).toContain("looks binary");
  });

  test("a NUL past the sniffed head is removed with a warning", async () => {
    const text = `${"x".repeat(9000)}\u0000tail`;
    const doc = await parse(new TextEncoder().encode(text));
    expect(doc.sections[0].text).toBe(`${"x".repeat(9000)}tail`);
    expect(doc.warnings.join("\n")).toContain("removed 1 NUL");
  });

  test("maxBytes gives LIMIT_EXCEEDED naming the config key that raises it", async () => {
    const err = await rejection(
      textParser.parse({ bytes: new Uint8Array(101).fill(65), uri: "file:///big.txt" }, { ...LIMITS, maxBytes: 100 }),
    );
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain("the limit max_input_bytes is 100");
    expect(err.userMessage).toContain("raise max_input_bytes in the config file");
  });

  test("an aborted signal gives CANCELLED", async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await rejection(parse(new TextEncoder().encode("hello"), { signal: ac.signal }));
    expect(err.code).toBe("CANCELLED");
  });

  test("an empty file yields no section and says so", async () => {
    const doc = await parse(new Uint8Array(0));
    expect(doc.sections).toEqual([]);
    expect(doc.warnings).toContain("the text is empty");
  });
});
