/**
 * URL ingest end to end through the services (fetcher + parsers + store) against a loopback HTTP server serving
 * real fixtures and generated hostile inputs. The server is reached as http://localhost:<port>, exempted by
 * `allow_hosts`; any other loopback address (a redirect to 127.0.0.1) must still be refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { readFileSync } from "node:fs";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { rejectsWith } from "../support/errors.ts";
import { buildEpub } from "../support/zip-epub.ts";
import { buildRawZip, deflatedRepeat } from "../support/zip-raw.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";

const COOKIE_WALL = `<!doctype html><html><head><title>Consent</title></head><body><div id="onetrust-consent-sdk" class="cookie-banner">
<p>We use cookies to improve your experience. Accept all cookies to continue to the site.</p><button>Accept all</button></div></body></html>`;
const CP1251_TEXT =
  "Съешь же ещё этих мягких французских булок, да выпей чаю. Палата номер шесть стоит во дворе больницы, ".repeat(4);
const chapters = [
  {
    file: "chapter one.xhtml",
    title: "Глава первая",
    body: `<h1>Глава первая</h1><p>${"Флигель стоит во дворе. ".repeat(20)}</p>`,
  },
  {
    file: "chapter two.xhtml",
    title: "Глава вторая",
    body: `<h1>Глава вторая</h1><p>${"Доктор Рагин читает книги. ".repeat(20)}</p>`,
  },
];

function zipBombEpub(): Uint8Array {
  const base = buildEpub(chapters.slice(0, 1), { omitFiles: ["chapter one.xhtml"] });
  const files = Object.entries(unzipSync(base)).map(([name, data]) => ({ name, data }));
  return buildRawZip([...files, { name: "OEBPS/chapter one.xhtml", deflated: deflatedRepeat(200) }]);
}

let pageVersion = 1;
const routes: Record<string, () => Response> = {
  "/wiki": () =>
    new Response(readFileSync(fixture("html/en_wikipedia_mozilla.html")), {
      headers: { "content-type": "text/html; charset=utf-8" },
    }),
  "/paper.pdf": () =>
    new Response(readFileSync(fixture("pdf/ru_paper_iccsde_2024_geoacoustics.pdf")), {
      headers: { "content-type": "application/pdf" },
    }),
  "/truncated.pdf": () => {
    const b = readFileSync(fixture("pdf/en_paper_npj_2020_two_column_ligatures.pdf"));
    return new Response(b.subarray(0, Math.floor(b.length * 0.4)), { headers: { "content-type": "application/pdf" } });
  },
  "/spaces.epub": () => new Response(buildEpub(chapters), { headers: { "content-type": "application/epub+zip" } }),
  "/missing.epub": () =>
    new Response(buildEpub(chapters, { omitFiles: ["chapter two.xhtml"] }), {
      headers: { "content-type": "application/epub+zip" },
    }),
  "/bomb.epub": () => new Response(zipBombEpub(), { headers: { "content-type": "application/epub+zip" } }),
  "/cookies": () => new Response(COOKIE_WALL, { headers: { "content-type": "text/html" } }),
  "/cp1251": () => {
    const html = `<html><head><title>Кодировка</title></head><body><article><p>${CP1251_TEXT}</p></article></body></html>`;
    return new Response(encodeCp1251(html), { headers: { "content-type": "text/html; charset=windows-1251" } });
  },
  "/to-loopback": () => new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${port}/wiki` } }),
  "/forbidden": () => new Response("no", { status: 403 }),
  "/changing": () => {
    const paras = [
      "Первый абзац о флигеле и крапиве во дворе больницы.",
      pageVersion === 1 ? "Второй абзац о старом докторе." : "Второй абзац о новом докторе.",
      "Третий абзац о стороже Никите.",
    ];
    const body = paras.map((p) => `<p>${p.repeat(25)}</p>`).join("\n");
    return new Response(`<html><head><title>Меняется</title></head><body><article>${body}</article></body></html>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  },
};

/** windows-1251 bytes of a string (Cyrillic block and ASCII only), via the WHATWG single-byte index. */
function encodeCp1251(s: string): Uint8Array {
  const decoder = new TextDecoder("windows-1251");
  const table = new Map<string, number>();
  for (let b = 0; b < 256; b++) table.set(decoder.decode(new Uint8Array([b])), b);
  return new Uint8Array(Array.from(s, (ch) => table.get(ch) ?? 0x3f));
}

let server: ReturnType<typeof Bun.serve>;
let port = 0;
let t: TestServices;
let base = "";

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => (routes[new URL(req.url).pathname] ?? (() => new Response("missing", { status: 404 })))(),
  });
  port = server.port!;
  base = `http://localhost:${port}`;
  const opened = await openTestServices("pglite", { allow_hosts: ["localhost"] });
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
}, 60_000);

afterAll(async () => {
  await t?.dispose();
  server?.stop(true);
});

describe("URL ingest", () => {
  test("a Wikipedia page becomes one web document without navigation", async () => {
    const r = await ingest(t.services, { url: `${base}/wiki` });
    const d = r.documents[0];
    expect(d).toMatchObject({ kind: "web", stored: true, snippet: false });
    expect(d.title).toContain("Mozilla");
    const hit = (await search(t.services, { query: "Mozilla Foundation", k: 3, doc_id: r.doc_id! })).hits[0];
    expect(hit.citations[0].uri).toBe(`${base}/wiki`);
    const all = (
      await search(t.services, {
        query: "Random article Current events Main page",
        k: 20,
        doc_id: r.doc_id!,
        mode: "lexical",
      })
    ).hits;
    expect(all.every((h) => !h.content.includes("Random article"))).toBe(true);
  });

  test("a PDF by URL gets page locators; Cyrillic intact", async () => {
    const r = await ingest(t.services, { url: `${base}/paper.pdf` });
    expect(r.documents[0]).toMatchObject({ kind: "pdf", sections: 8 });
    const hit = (await search(t.services, { query: "Обратные задачи геоакустики", k: 1, doc_id: r.doc_id! })).hits[0];
    expect(hit.content).toContain("Обратные задачи геоакустики");
    expect(hit.citations[0].locator.page).toBe(1);
  });

  test("hostile documents: a clear error and nothing stored", async () => {
    const before = await stats(t.services);
    await rejectsWith(ingest(t.services, { url: `${base}/truncated.pdf` }), "UNSUPPORTED_MEDIA");
    const bomb = await rejectsWith(ingest(t.services, { url: `${base}/bomb.epub` }), "LIMIT_EXCEEDED");
    expect(bomb.message.length).toBeGreaterThan(10);
    await rejectsWith(ingest(t.services, { url: `${base}/to-loopback` }), "INVALID_INPUT");
    await rejectsWith(ingest(t.services, { url: `http://127.0.0.1:${port}/wiki` }), "INVALID_INPUT");
    await rejectsWith(ingest(t.services, { url: `${base}/forbidden` }), "NETWORK_FAILED");
    await rejectsWith(ingest(t.services, { url: "file:///etc/passwd" }), "INVALID_INPUT");
    const after = await stats(t.services);
    expect(after.documents.total).toBe(before.documents.total);
    expect(after.atoms.total).toBe(before.atoms.total);
  });

  test("EPUBs: spaces in names resolved; a missing spine item is a warning", async () => {
    const ok = await ingest(t.services, { url: `${base}/spaces.epub` });
    expect(ok.documents[0]).toMatchObject({ kind: "epub", sections: 2 });
    const hit = (await search(t.services, { query: "Рагин читает книги", k: 1, doc_id: ok.doc_id! })).hits[0];
    expect(hit.citations[0].locator).toMatchObject({ chapter: "Глава вторая", chapter_index: 2 });
    const part = await ingest(t.services, { url: `${base}/missing.epub` });
    expect(part.documents[0].sections).toBe(1);
    expect(part.warnings.join(" ")).toContain("chapter two.xhtml");
  });

  test("a cookie wall is never a silent success; a snippet is stored instead when given", async () => {
    const bare = await ingest(t.services, { url: `${base}/cookies` });
    expect(bare.documents[0]).toMatchObject({ stored: false, doc_id: null });
    expect(bare.warnings.join(" ")).toContain("cookie wall");
    const withSnippet = await ingest(t.services, {
      url: `${base}/cookies`,
      snippet: "Сниппет из поисковой выдачи: флигель во дворе больницы.",
    });
    expect(withSnippet.documents[0]).toMatchObject({ stored: true, snippet: true, kind: "web" });
    const blocked = await ingest(t.services, {
      url: `${base}/forbidden`,
      snippet: "Ещё один сниппет о палате номер шесть.",
    });
    expect(blocked.documents[0]).toMatchObject({ stored: true, snippet: true });
    expect(blocked.warnings.join(" ")).toContain("403");
  });

  test("a windows-1251 page decodes right", async () => {
    const r = await ingest(t.services, { url: `${base}/cp1251` });
    const hit = (await search(t.services, { query: "мягких французских булок", k: 1, doc_id: r.doc_id! })).hits[0];
    expect(hit.content).toContain("Съешь же ещё этих мягких французских булок");
  });

  test("a changed page is a new version; only vanished atoms go stale", async () => {
    pageVersion = 1;
    const v1 = await ingest(t.services, { url: `${base}/changing` });
    pageVersion = 2;
    const v2 = await ingest(t.services, { url: `${base}/changing` });
    expect(v2).toMatchObject({ doc_id: v1.doc_id, version: 2 });
    expect(v1.chunks).toBeGreaterThanOrEqual(2);
    expect(v2.atoms_staled).toBe(1);
    expect(v2.atoms_created).toBe(1);
    expect(v2.atoms_existing).toBe(v2.atoms_distilled - 1);
    const again = await ingest(t.services, { url: `${base}/changing` });
    expect(again.unchanged).toBe(true);
  });
});
