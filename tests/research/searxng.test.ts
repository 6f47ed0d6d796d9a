/**
 * The SearxNG-compatible client (src/adapters/search/searxng.ts) against a loopback stand-in: the request shape
 * (`/search?q=…&format=json`, a base URL with a path), results cut to http(s), deduplicated and limited, and every
 * failure a clear NETWORK_FAILED (403 without the json format, HTTP errors, not JSON, no results array, a timeout)
 * or CANCELLED.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { SearxngSearch } from "../../src/adapters/search/searxng.ts";
import { rejectsWith } from "../support/errors.ts";

const seen: string[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: async (req) => {
    const u = new URL(req.url);
    seen.push(`${u.pathname}${u.search}`);
    const q = u.searchParams.get("q");
    if (u.searchParams.get("format") !== "json") return new Response("Forbidden", { status: 403 });
    if (q === "html") return new Response("<html>no</html>", { headers: { "content-type": "text/html" } });
    if (q === "noresults") return Response.json({ answers: [] });
    if (q === "boom") return new Response("oops", { status: 502 });
    if (q === "forbidden") return new Response("Forbidden", { status: 403 });
    if (q === "slow") await Bun.sleep(3000);
    return Response.json({
      results: [
        { url: "https://a.example/page#part", title: "  A\n title ", content: "snippet A" },
        { url: "https://a.example/page", title: "dup", content: "dup" },
        { url: "ftp://files.example/x", title: "ftp", content: "" },
        { url: 42, title: "bad" },
        { url: "http://b.example/", title: "B", content: "о Байкале" },
        { url: "http://c.example/", title: "C" },
      ],
    });
  },
});
afterAll(() => server.stop(true));
const base = `http://127.0.0.1:${server.port}`;

describe("SearxNG-compatible client", () => {
  test("asks /search?q=…&format=json and keeps http(s) results, deduplicated, up to the limit", async () => {
    const web = new SearxngSearch({ baseUrl: `${base}/searx`, timeoutMs: 2000 });
    expect(web.name).toBe(`searxng:${base}/searx`);
    const r = await web.search("озеро Байкал & more", 3);
    expect(seen.at(-1)).toBe(
      "/searx/search?q=%D0%BE%D0%B7%D0%B5%D1%80%D0%BE+%D0%91%D0%B0%D0%B9%D0%BA%D0%B0%D0%BB+%26+more&format=json",
    );
    expect(r).toEqual([
      { url: "https://a.example/page", title: "A title", content: "snippet A" },
      { url: "http://b.example/", title: "B", content: "о Байкале" },
      { url: "http://c.example/", title: "C", content: "" },
    ]);
    expect(await web.search("x", 1)).toHaveLength(1);
  });

  test("failures are NETWORK_FAILED with a hint, cancellation is CANCELLED", async () => {
    const web = new SearxngSearch({ baseUrl: base, timeoutMs: 500 });
    expect((await rejectsWith(web.search("forbidden", 5), "NETWORK_FAILED")).hint).toContain("search.formats");
    expect((await rejectsWith(web.search("boom", 5), "NETWORK_FAILED")).message).toContain("HTTP 502");
    expect((await rejectsWith(web.search("html", 5), "NETWORK_FAILED")).message).toContain("not JSON");
    expect((await rejectsWith(web.search("noresults", 5), "NETWORK_FAILED")).message).toContain("results array");
    expect((await rejectsWith(web.search("slow", 5), "NETWORK_FAILED")).message).toContain("500 ms");
    await rejectsWith(
      new SearxngSearch({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1000 }).search("x", 5),
      "NETWORK_FAILED",
    );
    const ac = new AbortController();
    const p = new SearxngSearch({ baseUrl: base, timeoutMs: 5000 }).search("slow", 5, ac.signal);
    setTimeout(() => ac.abort(), 50);
    await rejectsWith(p, "CANCELLED");
    expect(() => new SearxngSearch({ baseUrl: "not a url", timeoutMs: 1000 })).toThrow("not a URL");
  });
});
