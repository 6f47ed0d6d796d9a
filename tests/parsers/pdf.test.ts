/**
 * PDF parser on the real papers in ../shared/fixtures/pdf and on generated hostile inputs. Expectations were
 * written from the rendered pages (pdftoppm); the column, spacing, paragraph and hyphenation ones are chosen so
 * that unpdf's flat `extractText` fails them (it reads content-stream order, glues items and keeps line breaks).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { rejection } from "../support/errors.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NO_TEXT_LAYER, pdfParser } from "../../src/adapters/parsers/pdf/index.ts";
import type { ParsedDocument, ParseLimits } from "../../src/ports/models/parser.ts";
import { makePdf, twoColumnAcrossPage } from "../support/pdf-synth.ts";
import { fixturePath } from "../support/shared.ts";

const LIMITS: ParseLimits = { maxBytes: 64 << 20, maxZipEntries: 1, maxZipTotalBytes: 1, maxZipEntryBytes: 1 };
const fixture = (name: string) => fixturePath(`pdf/${name}`);
const bytesOf = (name: string) => new Uint8Array(readFileSync(fixture(name)));

const NPJ = "en_paper_npj_2020_two_column_ligatures.pdf";
const PLOS = "en_paper_plosmed_2022_single_column.pdf";
const MDPI = "en_paper_mdpi_toxins_2016_ligatures.pdf";
const RU = "ru_paper_iccsde_2024_geoacoustics.pdf";
const SCAN = "en_scanned_image_only_huckfinn_p22.pdf";

const parsed = new Map<string, ParsedDocument>();
beforeAll(async () => {
  for (const name of [NPJ, PLOS, MDPI, RU, SCAN])
    parsed.set(name, await pdfParser.parse({ bytes: bytesOf(name), uri: name }, LIMITS));
});
const doc = (name: string) => parsed.get(name)!;
const page = (name: string, n: number) => doc(name).sections.find((s) => s.locator.page === n)!.text;
const all = (name: string) =>
  doc(name)
    .sections.map((s) => s.text)
    .join("\n\n");

/** Asserts that the snippets occur in `text` in this order. */
function expectInOrder(text: string, snippets: string[]): void {
  let at = -1;
  for (const s of snippets) {
    const i = text.indexOf(s, at + 1);
    expect({ snippet: s, found: i > at }).toEqual({ snippet: s, found: true });
    at = i;
  }
}

describe("fixtures", () => {
  test("page counts, one section per page with a 1-based page locator, title and metadata", () => {
    const pages: [string, number][] = [
      [NPJ, 6],
      [PLOS, 18],
      [MDPI, 28],
      [RU, 8],
      [SCAN, 1],
    ];
    for (const [name, n] of pages) {
      const d = doc(name);
      expect(d.kind).toBe("pdf");
      expect(d.mediaType).toBe("application/pdf");
      expect(d.metadata.pages).toBe(n);
    }
    for (const name of [NPJ, PLOS, MDPI, RU]) {
      expect(doc(name).sections.map((s) => s.locator)).toEqual(
        Array.from({ length: doc(name).metadata.pages as number }, (_, i) => ({ page: i + 1 })),
      );
    }
    expect(doc(NPJ).title).toBe(
      "Regular exercise counteracts circadian shifts in core body temperature during long-duration bed rest",
    );
    expect(doc(NPJ).metadata.author).toBe("Stefan Mendt");
    expect(doc(MDPI).metadata.producer).toBe("pdfTeX-1.40.15");
    expect(doc(RU).title).toBeNull();
    expect(doc(NPJ).metadata.pages_without_text).toEqual([]);
  });

  test("ligatures are expanded: spaceflight, significant, efficacy whole, no U+FB00–FB06 left", () => {
    expect(all(NPJ)).toContain("spaceflight missions on the International Space Station");
    expect(all(NPJ)).toContain("significant consequences on the health");
    expect(all(MDPI)).toContain("Augmenting the Efficacy of Immunotoxins");
    expect(all(MDPI).match(/\befficacy\b/g)!.length).toBeGreaterThanOrEqual(20);
    for (const name of [NPJ, PLOS, MDPI, RU]) expect(all(name)).not.toMatch(/[\uFB00-\uFB06]/);
  });

  test("two-column npj page 1: abstract, then the left column's paragraphs in order, then the right column", () => {
    const p1 = page(NPJ, 1);
    expect(doc(NPJ).metadata.multi_column_pages).toContain(1);
    expectInOrder(p1, [
      "Regular exercise counteracts circadian shifts in core body temperature during long-duration bed rest",
      "With NASA’s plans for the human exploration of Mars",
      "about the role of circadian disorders in long-term bedridden patients.",
      "\n\nINTRODUCTION\n\nShift work, traveling through several time zones in a relatively short time, and spaceflight can challenge",
      "considerable adverse long-term effects on health and well-being5–9.",
      "\n\nDuring these missions, astronauts need to engage in daily exercise routines",
      // The paragraph runs from the bottom of the left column into the top of the right one.
      "could be a potent “zeitgeber” for entraining the circadian system.",
      "\n\nHead-down tilt bed rest (HDBR) is considered an excellent terrestrial model",
      "\n\nTo address this gap, we investigated the effects of 60 days",
      "\n\n1Charité – Universitätsmedizin Berlin",
    ]);
  });

  test("paragraphs: line breaks inside a paragraph become spaces, paragraphs are separated by a blank line", () => {
    const p1 = page(PLOS, 1);
    expect(p1).toContain(
      "\n\nMethods and findings\n\nWe investigated relevant agencies’ official documents, performed a literature search, and accessed",
    );
    expect(page(MDPI, 1)).toContain(
      "\n\n1. Introduction\n\nTargeted protein toxins represent one of the high hopes for future drugs in the fight against cancer. They consist",
    );
  });

  test("end-of-line hyphens are joined on PLOS, real hyphens kept", () => {
    const text = all(PLOS);
    expect(text).toContain("Knowledgeable diplomatic staff and experts"); // "dip-" / "lomatic"
    expect(text).toContain("through UNGASSs/HLMs is a challenge. However"); // "chal-" / "lenge"
    expect(text).toContain("a global state-of-the-art overview"); // "state-of-" / "the-art"
    expect(text).toContain("health-related high-level meetings");
    // ~118 line-end hyphen breaks in the PDF; what is left of "x- y" are suspended hyphens ("low- and middle-income").
    const artefacts = text.match(/\p{Ll}- \p{Ll}/gu) ?? [];
    expect(artefacts.length).toBeLessThanOrEqual(6);
    expect(text.match(/\blow- and middle-income\b/g)!.length).toBe(4);
    expect(all(NPJ)).toContain("long-duration head-down tilt bed rest");
    expect(all(NPJ)).toContain("as a non-pharmacological aid");
  });

  test("items are separated where pdf.js gives no space: no glued words across layout regions", () => {
    expect(all(PLOS)).toContain("Political rationale, aims, and outcomes");
    // unpdf's extractText gives "followed by aPLOS MEDICINE", "PLOS MEDICINEAnalysis", "toxinsReview".
    expect(all(PLOS)).not.toContain("aPLOS");
    expect(all(PLOS)).not.toContain("MEDICINEAnalysis");
    expect(page(PLOS, 1)).toContain("the HIV/AIDS UNGASS was the only one followed by a");
    expect(page(MDPI, 1).startsWith("toxins\n\nReview\n\nAugmenting the Efficacy")).toBe(true);
    // A spacing accent drawn over its letter is composed with it ("Charite´" in the text layer).
    expect(page(PLOS, 1)).toContain("Campus Charité Mitte");
  });

  test("a sidebar is read after the main column (PLOS page 1)", () => {
    expectInOrder(page(PLOS, 1), ["RESEARCH ARTICLE", "Abstract", "Background", "OPEN ACCESS", "Citation: Rodi P"]);
  });

  test("tables are not taken for columns (MDPI single-column pages)", () => {
    expect(doc(MDPI).metadata.multi_column_pages).toEqual([]);
    expect(doc(RU).metadata.multi_column_pages).toEqual([]);
  });

  test("Russian text is intact", () => {
    const p1 = page(RU, 1);
    expect(
      p1.startsWith("Обратные задачи геоакустики в мониторинговых системах\n\nХайретдинов М.С.1,2, Шиманская Г.М.1"),
    ).toBe(true);
    expect(p1).toContain(
      "1 Институт вычислительной математики и математической геофизики СО РАН, пр. акад. Лаврентьева, 6, 630090, Новосибирск, Россия",
    );
    expect(p1).toContain(
      "1. Введение\n\nОдна из основных проблем геоэкологии окружающей среды связана с оцениванием геоэкологических рисков",
    );
    expect(p1).toContain("от сети пространственно-распределенных датчиков");
    expect(p1).not.toMatch(/\uFFFD/);
  });

  test("the scan has no text layer: no sections and the warning, never a silent success", () => {
    const d = doc(SCAN);
    expect(d.sections).toEqual([]);
    expect(d.warnings).toContain(NO_TEXT_LAYER);
    expect(d.metadata.pages_without_text).toEqual([1]);
  });

  test("NUL characters in the text layer are removed and reported", () => {
    expect(doc(PLOS).warnings).toContain("page 5: removed 3 NUL character(s), which PostgreSQL cannot store");
    expect(all(PLOS)).not.toContain("\u0000");
  });
});

describe("generated inputs", () => {
  const LEFT = [
    "The left column begins here with the first",
    "sentence of a paragraph that continues on",
    "the next line and keeps going for a while",
    "so that the column holds enough text to be",
    "recognised as a column by the layout code",
    "and it ends on this line with a full stop.",
  ];
  const RIGHT = [
    "The right column starts with a new thought",
    "that must come after the whole left column",
    "when the page is read the way people read",
    "it, top to bottom in each column in turn,",
    "and not across the gutter line by line as",
    "the content stream of this file draws it.",
  ];

  test("two columns drawn line across line are read column by column", async () => {
    const d = await pdfParser.parse(
      { bytes: makePdf([twoColumnAcrossPage(LEFT, RIGHT)], { title: "Synthetic" }), uri: "synth" },
      LIMITS,
    );
    expect(d.title).toBe("Synthetic");
    expect(d.sections[0]!.text).toBe(
      "A Full Width Title Spanning Both Columns Of This Page\n\n" +
        [...LEFT, ...RIGHT].join(" ") +
        "\n\nFooter line that runs across the whole width of the page, under both columns.",
    );
  });

  test("text drawn a quarter turn (a landscape page) is turned back and laid out; odd-angle text is kept", async () => {
    const lines = [
      "A landscape table caption drawn turned on a",
      "portrait page reads upwards, line after line,",
      "and must come out as ordinary text here.",
    ];
    const turned = lines.map((text, i) => ({ x: 100 + 12 * i, y: 100, text, turned: true }));
    const d = await pdfParser.parse(
      { bytes: makePdf([[...turned, { x: 400, y: 700, text: "Stamp" }]]), uri: "turned" },
      LIMITS,
    );
    expect(d.sections[0]!.text).toBe(`${lines.join(" ")}\n\nStamp`);
  });

  test("a page without text among pages with text is named in the warning", async () => {
    const d = await pdfParser.parse(
      { bytes: makePdf([[{ x: 72, y: 700, text: "Some text." }], []]), uri: "mixed" },
      LIMITS,
    );
    expect(d.sections.map((s) => s.locator.page)).toEqual([1]);
    expect(d.warnings[0]).toBe(`${NO_TEXT_LAYER} (no text on page 2 of 2)`);
    expect(d.metadata.pages_without_text).toEqual([2]);
  });

  test("truncated PDFs (first 40% of each fixture) give a clear UNSUPPORTED_MEDIA error quickly", async () => {
    for (const name of [NPJ, PLOS, MDPI, RU, SCAN]) {
      const bytes = bytesOf(name);
      const err = await rejection(
        pdfParser.parse({ bytes: bytes.slice(0, Math.floor(bytes.length * 0.4)), uri: name }, LIMITS),
      );
      expect(err.code).toBe("UNSUPPORTED_MEDIA");
      expect(err.message).toContain(`PDF '${name}' is truncated`);
    }
  });

  test("a PDF damaged in the middle yields readable pages with warnings, or a clear error", async () => {
    const bytes = bytesOf(PLOS);
    bytes.fill(0x20, Math.floor(bytes.length * 0.5), Math.floor(bytes.length * 0.55));
    const d = await pdfParser.parse({ bytes, uri: "damaged" }, LIMITS);
    expect(d.sections.length).toBeGreaterThan(0);
    expect(d.warnings.some((w) => /could not be read|no text layer/.test(w))).toBe(true);
  });

  test("not a PDF, over the size limit, empty", async () => {
    expect(
      (await rejection(pdfParser.parse({ bytes: new TextEncoder().encode("<html></html>"), uri: "x.html" }, LIMITS)))
        .code,
    ).toBe("UNSUPPORTED_MEDIA");
    expect((await rejection(pdfParser.parse({ bytes: new Uint8Array(0), uri: "empty" }, LIMITS))).code).toBe(
      "UNSUPPORTED_MEDIA",
    );
    const big = await rejection(pdfParser.parse({ bytes: bytesOf(RU), uri: "ru" }, { ...LIMITS, maxBytes: 1000 }));
    expect(big.code).toBe("LIMIT_EXCEEDED");
    expect(big.message).toContain("over the limit max_input_bytes of 1000 bytes");
    expect(big.userMessage).toContain("raise max_input_bytes in the config file");
  });

  test("encrypted PDF: UNSUPPORTED_MEDIA with a hint; owner-password-only PDF still reads", async () => {
    const qpdf = Bun.which("qpdf");
    if (!qpdf) {
      console.log("skipped: qpdf is not installed (apt-get install -y qpdf) to generate an encrypted PDF");
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "pegas-pdf-"));
    const enc = (user: string, out: string) =>
      expect(
        Bun.spawnSync([qpdf, "--encrypt", user, "owner-pw", "256", "--", fixture(RU), join(dir, out)]).exitCode,
      ).toBe(0);
    enc("user-pw", "locked.pdf");
    enc("", "restricted.pdf");
    const err = await rejection(
      pdfParser.parse({ bytes: new Uint8Array(readFileSync(join(dir, "locked.pdf"))), uri: "locked.pdf" }, LIMITS),
    );
    expect(err.code).toBe("UNSUPPORTED_MEDIA");
    expect(err.message).toBe("PDF 'locked.pdf' is encrypted and needs a password");
    expect(err.hint).toContain("qpdf --decrypt");
    const open = await pdfParser.parse(
      { bytes: new Uint8Array(readFileSync(join(dir, "restricted.pdf"))), uri: "restricted.pdf" },
      LIMITS,
    );
    rmSync(dir, { recursive: true, force: true });
    expect(open.sections[0]!.text).toContain("Обратные задачи геоакустики в мониторинговых системах");
  });

  test("cancellation: before the start, between pages, and from a timer; the caller's bytes stay intact", async () => {
    const bytes = bytesOf(MDPI);
    const copy = bytes.slice();
    const ac = new AbortController();
    ac.abort();
    expect((await rejection(pdfParser.parse({ bytes, uri: "m", signal: ac.signal }, LIMITS))).code).toBe("CANCELLED");
    let reads = 0;
    // A signal that turns aborted after a few checks: cancellation lands between pages, deterministically.
    const later = {
      get aborted() {
        return ++reads > 8;
      },
      addEventListener() {},
      removeEventListener() {},
    } as unknown as AbortSignal;
    const mid = await rejection(pdfParser.parse({ bytes, uri: "m", signal: later }, LIMITS));
    expect(mid.code).toBe("CANCELLED");
    expect(mid.message).toMatch(/cancelled/);
    const timed = new AbortController();
    setTimeout(() => timed.abort(), 15);
    expect((await rejection(pdfParser.parse({ bytes, uri: "m", signal: timed.signal }, LIMITS))).code).toBe(
      "CANCELLED",
    );
    expect(Buffer.compare(bytes, copy)).toBe(0);
  });

  test("stdout stays clean: a child that parses every fixture (and broken copies) writes nothing to stdout", async () => {
    const child = fileURLToPath(new URL("../support/pdf-parse-child.ts", import.meta.url));
    const proc = Bun.spawn([process.execPath, child], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, out }).toEqual({ code: 0, out: "" });
    // pdf.js warnings ("Warning: TT: undefined function") are silenced, not merely moved to stderr.
    expect(err).not.toContain("Warning:");
  }, 60_000);
});

describe("PDF: input types", () => {
  test("a Node Buffer (what readFileSync returns) parses like a Uint8Array", async () => {
    const buf = readFileSync(fixture("ru_paper_iccsde_2024_geoacoustics.pdf"));
    expect(Buffer.isBuffer(buf)).toBe(true);
    const doc = await pdfParser.parse({ bytes: buf, uri: "file:///ru.pdf" }, LIMITS);
    expect(doc.sections.length).toBe(8);
  });
});
