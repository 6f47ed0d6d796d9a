import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { isConsentMarked } from "../../src/adapters/parsers/html/consent.ts";
import { EMPTY_PAGE_WARNING, htmlParser } from "../../src/adapters/parsers/html/index.ts";
import { PegasError } from "../../src/errors.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";
import { sharedFixture } from "../support/binary.ts";

const LIMITS: ParseLimits = {
  maxBytes: 10 << 20,
  maxZipEntries: 100,
  maxZipTotalBytes: 1 << 20,
  maxZipEntryBytes: 1 << 20,
};
const PARAS = readFileSync(sharedFixture("text/ru_chekhov_palata_no6.txt"), "utf8")
  .split("\n")
  .filter((l) => l.length > 300 && !/[–«»…]/.test(l));
const ARTICLE = `<article><h1>Палата номер 6</h1>${PARAS.slice(0, 4)
  .map((p) => `<p>${p}</p>`)
  .join("")}</article>`;
const CONSENT_TEXT =
  "We value your privacy. We and our 842 partners store and/or access information on a device, such as cookies, and process personal data, " +
  "such as unique identifiers and standard information sent by a device for personalised advertising and content, advertising and content " +
  "measurement, audience research and services development. With your permission we and our partners may use precise geolocation data and " +
  "identification through device scanning. You may click to consent to our and our partners' processing as described above.";

function page(body: string, head = ""): string {
  return `<!DOCTYPE html><html lang="ru"><head><title>Тест</title>${head}</head><body>${body}</body></html>`;
}

function parse(html: string | Uint8Array, extra: { charset?: string; signal?: AbortSignal } = {}, limits = LIMITS) {
  const bytes = typeof html === "string" ? new TextEncoder().encode(html) : html;
  return htmlParser.parse({ bytes, uri: "https://example.test/page", ...extra }, limits);
}

function iconv(text: string, charset: string): Uint8Array {
  const r = Bun.spawnSync(["iconv", "-f", "utf-8", "-t", charset], { stdin: new TextEncoder().encode(text) });
  if (r.exitCode !== 0) throw new Error(`iconv ${charset}: ${r.stderr.toString()}`);
  return new Uint8Array(r.stdout);
}

describe("cookie walls and consent banners", () => {
  test("a page that is only a consent wall yields no section and the blocked-page warning", async () => {
    const wall = `<div id="onetrust-consent-sdk"><div class="ot-sdk-container"><h2>We value your privacy</h2><p>${CONSENT_TEXT}</p><p>${CONSENT_TEXT}</p><button>Accept all</button><button>Reject all</button></div></div>`;
    const doc = await parse(page(wall));
    expect(doc.sections).toEqual([]);
    expect(doc.warnings).toHaveLength(1);
    expect(doc.warnings[0]).toStartWith(
      `${EMPTY_PAGE_WARNING}: 0 characters of text after removing 1 consent element(s)`,
    );
    expect(doc.metadata).toMatchObject({ extraction: "none", consent_elements_removed: 1 });
    expect(doc.title).toBe("Тест");
  });

  test("a consent banner inside the article container is removed; the article stays whole", async () => {
    // Didomi's markup: no class Readability itself would drop (it knows "banner", "gdpr", "popup").
    const banner = `<div id="didomi-host" class="didomi-notice"><p>${CONSENT_TEXT}</p><button>Accept all</button></div>`;
    const html = page(`<main>${ARTICLE.replace("</h1>", `</h1>${banner}`)}</main>`);
    const doc = await parse(html);
    const text = doc.sections[0].text;
    expect(text).toStartWith(`Палата номер 6\n\n${PARAS[0]}\n\n${PARAS[1]}`);
    expect(text).toContain(PARAS[3]);
    expect(text).not.toContain("We value your privacy");
    expect(text).not.toContain("Accept all");
    expect(doc.warnings).toEqual([]);
  });

  test("an unmarked fixed overlay that reads as a cookie banner is removed", async () => {
    const overlay = `<div style="position: fixed; bottom: 0"><p>This site uses cookies. ${CONSENT_TEXT}</p><a href="#">Accept all</a></div>`;
    const doc = await parse(page(`${overlay}${ARTICLE}`));
    expect(doc.sections[0].text).not.toContain("This site uses cookies");
    expect(doc.sections[0].text).toContain(PARAS[2]);
    expect(doc.metadata.consent_elements_removed).toBe(1);
  });

  test("an article whose class mentions cookies (a recipe) is kept", async () => {
    const recipe = `<article class="cookie-recipe"><h1>Oatmeal cookies</h1><p>${"Mix the oats with butter and sugar, then bake for twelve minutes until golden. ".repeat(6)}</p></article>`;
    const doc = await parse(page(recipe));
    expect(doc.sections[0].text).toContain("Mix the oats with butter and sugar");
    expect(doc.metadata.consent_elements_removed).toBe(0);
  });

  test("consent markers: vendors and whole-segment 'cmp', not words that merely contain it", () => {
    const el = (id: string, cls: string) =>
      ({ getAttribute: (n: string) => (n === "id" ? id : n === "class" ? cls : null) }) as never;
    for (const [id, cls] of [
      ["CybotCookiebotDialog", ""],
      ["onetrust-banner-sdk", ""],
      ["", "qc-cmp2-ui"],
      ["", "cmp-banner"],
      ["sp_message_container_1", ""],
      ["", "fc-consent-root"],
    ]) {
      expect(isConsentMarked(el(id, cls))).toBe(true);
    }
    for (const [id, cls] of [
      ["", "company-logo"],
      ["cmpx", "recomputed"],
      ["content", "article-body"],
    ]) {
      expect(isConsentMarked(el(id, cls))).toBe(false);
    }
  });

  test("a nearly empty page is reported, never a silent success", async () => {
    const doc = await parse(page("<p>Loading…</p>"));
    expect(doc.sections).toEqual([]);
    expect(doc.warnings[0]).toStartWith(EMPTY_PAGE_WARNING);
  });

  test("a short genuine page is content: its length alone never refuses it", async () => {
    // A real 165-character notice page (was refused as a cookie wall: under 200 characters), and a short recipe.
    const notice =
      "The reading room is closed on 12 June for the public holiday. Orders placed before 10 June will be ready on " +
      "13 June; the online catalogue stays available.";
    expect(notice.length).toBeGreaterThanOrEqual(150);
    expect(notice.length).toBeLessThan(200);
    const doc = await parse(page(`<main><h1>Notice</h1><p>${notice}</p></main>`));
    expect(doc.warnings).toEqual([]);
    expect(doc.sections[0].text).toContain(notice);
    const ru = "Читальный зал закрыт 12 июня. Заказы, сделанные до 10 июня, можно забрать 13 июня.";
    expect((await parse(page(`<p>${ru}</p>`))).sections[0].text).toContain(ru);
    const recipe = "Oatmeal cookies: mix oats, butter and sugar, then bake twelve minutes at 180 °C.";
    expect((await parse(page(`<p>${recipe}</p>`))).sections[0].text).toContain(recipe);
  });

  test("a short unmarked cookie wall is refused by its words (English and Russian)", async () => {
    // The shape of a real "Before you continue" consent interstitial: plain containers, no CMP markers.
    const wall = `<div class="container"><h1>Before you continue</h1><p>We use cookies and data to deliver and maintain our services.</p><button>Reject all</button><button>Accept all</button></div>`;
    const ruWall = `<div class="box"><p>Мы используем файлы cookie, чтобы сайт работал лучше. Продолжая, вы даёте согласие на обработку данных.</p><button>Принять все</button></div>`;
    for (const html of [wall, ruWall]) {
      const doc = await parse(page(html));
      expect(doc.sections).toEqual([]);
      expect(doc.warnings[0]).toStartWith(EMPTY_PAGE_WARNING);
      expect(doc.metadata).toMatchObject({ extraction: "none", consent_elements_removed: 0 });
    }
    const bot = await parse(page("<p>Please enable JavaScript and verify you are human to continue to this site.</p>"));
    expect(bot.sections).toEqual([]);
  });
});

describe("charsets", () => {
  const html = page(ARTICLE);

  test("a windows-1251 page without any declaration is detected", async () => {
    const doc = await parse(iconv(html, "cp1251"));
    expect(doc.metadata).toMatchObject({ charset: "windows-1251", charset_source: "detected" });
    expect(doc.sections[0].text).toContain(PARAS[0]);
  });

  test("meta charset and http-equiv declarations are honoured", async () => {
    const meta = await parse(iconv(page(ARTICLE, '<meta charset="windows-1251">'), "cp1251"));
    expect(meta.metadata).toMatchObject({ charset: "windows-1251", charset_source: "declaration" });
    expect(meta.sections[0].text).toContain(PARAS[1]);
    const equiv = await parse(
      iconv(page(ARTICLE, '<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'), "koi8-r"),
    );
    expect(equiv.metadata).toMatchObject({ charset: "koi8-r", charset_source: "declaration" });
    expect(equiv.sections[0].text).toContain(PARAS[1]);
  });

  test("the HTTP charset wins over a wrong meta; a BOM wins over both", async () => {
    const koi8 = iconv(page(ARTICLE, '<meta charset="windows-1251">'), "koi8-r");
    const doc = await parse(koi8, { charset: "koi8-r" });
    expect(doc.metadata).toMatchObject({ charset: "koi8-r", charset_source: "transport" });
    expect(doc.sections[0].text).toContain(PARAS[2]);
    const bom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(page(ARTICLE, '<meta charset="windows-1251">')),
    ]);
    const withBom = await parse(bom, { charset: "koi8-r" });
    expect(withBom.metadata).toMatchObject({ charset: "utf-8", charset_source: "bom" });
    expect(withBom.sections[0].text).toContain(PARAS[2]);
  });
});

describe("metadata and limits", () => {
  test("published time from JSON-LD in a @graph; lang from <html lang>", async () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Site"},{"@type":"NewsArticle","datePublished":"2024-03-05T10:00:00+03:00","author":{"@type":"Person","name":"А. Чехов"}}]}</script>`;
    const doc = await parse(page(ARTICLE, ld));
    expect(doc.metadata).toMatchObject({ published: "2024-03-05T10:00:00+03:00", byline: "А. Чехов", lang: "ru" });
  });

  test("maxBytes and cancellation", async () => {
    const big = await parse(page(ARTICLE), {}, { ...LIMITS, maxBytes: 1000 }).catch((e) => e);
    expect(big).toBeInstanceOf(PegasError);
    expect(big.code).toBe("LIMIT_EXCEEDED");
    const ac = new AbortController();
    const pending = parse(page(ARTICLE), { signal: ac.signal });
    // parse() has started and is suspended at its first cancellation point.
    ac.abort();
    const cancelled = await pending.catch((e) => e);
    expect(cancelled).toBeInstanceOf(PegasError);
    expect(cancelled.code).toBe("CANCELLED");
  });

  test("binary bytes are refused", async () => {
    const err = await parse(
      new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0, 1, 0, 0, 0, 0xff, 0, 0, 0]),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PegasError);
    expect(err.code).toBe("UNSUPPORTED_MEDIA");
  });
});
