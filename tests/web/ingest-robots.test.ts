/**
 * URL ingest honours robots.txt (RFC 9309) against local servers, asserted at the server: robots.txt is asked once per
 * origin for many pages, a disallowed page is never requested and is one clear error line (or the caller's snippet is
 * stored instead), a robots.txt answering 404 allows everything, one answering 503 refuses for now and is asked again
 * next time, and `respect_robots = false` fetches without asking. Embedded database.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { PegasError } from "../../src/errors.ts";
import { connectRegistry, toolCalls } from "../support/mcp-client.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const page = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${text}</p></article></body></html>`;
const TEXT = [
  "Зимой библиотека открыта с девяти утра до восьми вечера, летом до шести.",
  "Читальный зал на втором этаже вмещает сорок человек и работает без выходных.",
  "The archive keeps newspapers from 1890 onwards on microfilm in the basement.",
].join(" ");

/** A site whose robots.txt answers `robots()`: a body, or a status; every request's path is logged. */
function site(robots: () => string | number) {
  const asked: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      asked.push(path);
      if (path === "/robots.txt") {
        const r = robots();
        return typeof r === "number"
          ? new Response("no", { status: r })
          : new Response(r, { headers: { "content-type": "text/plain" } });
      }
      return new Response(page(`Страница ${path}`, `${TEXT} (${path})`), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  });
  return { server, asked, base: `http://127.0.0.1:${server.port}` };
}

describe("URL ingest and robots.txt", () => {
  let t: TestServices;
  // Other crawlers may fetch nothing; the group naming our token wins and forbids only /private.
  const a = site(() => "User-agent: *\nDisallow: /\n\nUser-agent: pegas-memory\nDisallow: /private\n");
  let bRobots: string | number = 503;
  const b = site(() => bRobots);

  beforeAll(async () => {
    const opened = await openTestServices("pglite", { allow_private_urls: true });
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
  }, 120_000);
  afterAll(async () => {
    await t?.dispose();
    a.server.stop(true);
    b.server.stop(true);
  });

  test("robots.txt is asked once per origin; a disallowed page is never requested and is one clear line", async () => {
    for (const p of ["/one", "/two", "/private/open-letter"]) {
      const url = `${a.base}${p}`;
      if (p.startsWith("/private")) {
        const err = await ingest(t.services, { url }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PegasError);
        const e = err as PegasError;
        expect(e.code).toBe("NETWORK_FAILED");
        expect(e.userMessage).toBe(
          `robots.txt of ${a.base} disallows '${url}' for pegas-memory. the site asks crawlers not to fetch it; ` +
            "give its text instead, or set respect_robots = false if you may",
        );
      } else expect((await ingest(t.services, { url })).documents[0]).toMatchObject({ stored: true });
    }
    expect(a.asked).toEqual(["/robots.txt", "/one", "/two"]);
  }, 120_000);

  test("a search result's snippet is stored instead of a disallowed page", async () => {
    const r = await ingest(t.services, {
      url: `${a.base}/private/report`,
      snippet: "Отчёт о работе библиотеки за 2025 год: выдано 120 тысяч книг, записалось 3 тысячи читателей.",
    });
    expect(r.documents[0]).toMatchObject({ stored: true, snippet: true });
    expect(r.warnings.join(" ")).toContain("disallows");
    expect(a.asked).not.toContain("/private/report");
  }, 120_000);

  test("robots.txt answering 503 refuses for now and is asked again; a 404 then allows everything", async () => {
    const url = `${b.base}/hours`;
    const err = (await ingest(t.services, { url }).catch((e: unknown) => e)) as PegasError;
    expect(err.code).toBe("NETWORK_FAILED");
    expect(err.userMessage).toContain(`robots.txt of ${b.base} could not be read (`);
    expect(err.userMessage).toContain("HTTP 503");
    expect(err.userMessage).toContain("try again later");
    expect(err.userMessage.includes("\n")).toBe(false);
    expect(b.asked).toEqual(["/robots.txt"]);
    bRobots = 404;
    expect((await ingest(t.services, { url })).documents[0]).toMatchObject({ stored: true });
    expect(b.asked).toEqual(["/robots.txt", "/robots.txt", "/hours"]);
  }, 120_000);

  test("memory_ingest shows a disallowed URL as one error line", async () => {
    const mcp = await connectRegistry(t.services);
    try {
      const { call, text } = toolCalls(mcp);
      const r = await call("memory_ingest", { url: `${a.base}/private/minutes` });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain(`robots.txt of ${a.base} disallows '${a.base}/private/minutes'`);
      expect(text(r).includes("\n")).toBe(false);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});

describe("respect_robots = false", () => {
  test("pages are fetched without asking robots.txt", async () => {
    const c = site(() => "User-agent: *\nDisallow: /\n");
    const opened = await openTestServices("pglite", { allow_private_urls: true, respect_robots: false });
    if (typeof opened === "string") throw new Error(opened);
    try {
      const r = await ingest(opened.services, { url: `${c.base}/anything` });
      expect(r.documents[0]).toMatchObject({ stored: true });
      expect(c.asked).toEqual(["/anything"]);
    } finally {
      await opened.dispose();
      c.server.stop(true);
    }
  }, 120_000);
});
