/**
 * The admin page compressed (src/platform/compress.ts, src/ui/assets.ts): a page and every embedded asset fetched with
 * Brotli, gzip and no Accept-Encoding decode to the same bytes, with Content-Encoding, Vary, Content-Length and the
 * page's own headers right; each representation of an asset has its own ETag, and If-None-Match with it is 304; HEAD
 * answers as GET without the body; the same over a real listener. In chromium the graph page arrives Brotli-encoded,
 * draws its graph, and weighs under a third of its identity bytes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { linkNodes } from "../../src/core/knowledge/link-forget.ts";
import { setLogLevel } from "../../src/log.ts";
import { listen } from "../../src/platform/http-server.ts";
import { ASSETS } from "../../src/ui/assets.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { atom } from "../inference/support.ts";
import type { TestServices } from "../support/services.ts";
import { browserSkipReason, launchBrowser, openStore, serveUi, type UiServer } from "./support.ts";

// Quieter while this file runs; restored after it, since every test file shares the one process logger.
beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

/** The body of `res` as sent, decoded by its Content-Encoding. */
async function decoded(res: Response): Promise<Buffer> {
  const raw = Buffer.from(await res.arrayBuffer());
  const enc = res.headers.get("content-encoding");
  return enc === "br" ? brotliDecompressSync(raw) : enc === "gzip" ? gunzipSync(raw) : raw;
}

// The graph page without a node and the assets need no services.
const root = new Hono().route(
  "/ui",
  createUiApp({ services: () => Promise.reject(new Error("no services in this test")) }),
);
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  root.request(`http://127.0.0.1${path}`, { method, headers });

describe("plain requests", () => {
  test("a page with Brotli, gzip and none: the same bytes decoded; encoding, Vary, length and the page's headers", async () => {
    const plain = await get("/ui/graph");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const identity = Buffer.from(await plain.arrayBuffer());
    expect(identity.toString()).toContain("<!doctype html>");
    for (const [accept, enc] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const res = await get("/ui/graph", { "accept-encoding": accept });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(enc);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(res.headers.get("cache-control")).toBe("no-store");
      const raw = Buffer.from(await res.clone().arrayBuffer());
      expect(Number(res.headers.get("content-length"))).toBe(raw.byteLength);
      expect(raw.byteLength).toBeLessThan(identity.byteLength);
      expect((await decoded(res)).equals(identity)).toBe(true);
    }
    const head = await get("/ui/graph", { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-encoding")).toBe("br");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  test("every asset: the same bytes decoded, one ETag per representation, 304 for it, HEAD without a body", async () => {
    for (const [name, asset] of ASSETS) {
      const path = `/ui/assets/${name}`;
      const plain = await get(path);
      expect(plain.headers.get("etag")).toBe(asset.etag);
      expect(plain.headers.get("vary")).toBe("Accept-Encoding");
      expect(plain.headers.get("content-encoding")).toBeNull();
      const identity = Buffer.from(await plain.arrayBuffer());
      expect(identity.toString()).toBe(asset.body);
      const tags = new Set([asset.etag]);
      for (const enc of ["br", "gzip"]) {
        const res = await get(path, { "accept-encoding": enc });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-encoding")).toBe(enc);
        expect(res.headers.get("content-type")).toBe(asset.type);
        expect(res.headers.get("cache-control")).toBe("no-cache");
        const etag = res.headers.get("etag") as string;
        expect(etag).toBe(asset.etag.replace(/"$/, `-${enc}"`));
        tags.add(etag);
        const raw = Buffer.from(await res.clone().arrayBuffer());
        expect(Number(res.headers.get("content-length"))).toBe(raw.byteLength);
        expect((await decoded(res)).equals(identity)).toBe(true);
        const again = await get(path, { "accept-encoding": enc, "if-none-match": etag });
        expect(again.status).toBe(304);
        expect(again.headers.get("etag")).toBe(etag);
        expect(again.headers.get("vary")).toBe("Accept-Encoding");
        expect((await again.arrayBuffer()).byteLength).toBe(0);
        const head = await get(path, { "accept-encoding": enc }, "HEAD");
        expect(head.headers.get("content-encoding")).toBe(enc);
        expect(head.headers.get("content-length")).toBe(String(raw.byteLength));
        expect((await head.arrayBuffer()).byteLength).toBe(0);
      }
      expect(tags.size).toBe(3);
      // Another representation's tag does not validate this one; a list or a weak form of the right one does.
      expect((await get(path, { "accept-encoding": "br", "if-none-match": asset.etag })).status).toBe(200);
      expect((await get(path, { "if-none-match": `"x", W/${asset.etag}` })).status).toBe(304);
    }
  });

  test("over a real listener: the bytes on the wire decode to the asset", async () => {
    const l = listen({ hostname: "127.0.0.1", port: 0, fetch: root.fetch });
    try {
      const asset = ASSETS.get("cytoscape.mjs")!;
      const res = await fetch(`${l.url}/ui/assets/cytoscape.mjs`, {
        headers: { "accept-encoding": "br" },
        decompress: false,
      } as RequestInit);
      expect(res.headers.get("content-encoding")).toBe("br");
      expect((await decoded(res)).toString()).toBe(asset.body);
      const head = await fetch(`${l.url}/ui/assets/cytoscape.mjs`, {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
        decompress: false,
      } as RequestInit);
      expect(Number(head.headers.get("content-length"))).toBeLessThan(Buffer.byteLength(asset.body) / 3);
    } finally {
      await l.stop(true);
    }
  });
});

describe.skipIf(!!browserSkipReason)("the graph page in chromium", () => {
  let t: TestServices;
  let ui: UiServer;
  let node: number;
  beforeAll(async () => {
    t = await openStore();
    const a = await atom(t.services, "The admin page compresses its answers");
    const b = await atom(t.services, "Brotli and gzip are the encodings it offers");
    await linkNodes(t.services, { src: a, dst: b, kind: "related" });
    node = a;
    ui = serveUi(t.services);
  }, 120_000);
  afterAll(async () => {
    await ui?.stop();
    await t?.dispose();
  });

  test("the page and cytoscape arrive Brotli-encoded, the graph is drawn, the load weighs under a third of identity", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      // Routing every request through Playwright turns the caches off (as bench/benchmarks/ui.ts does).
      await page.route("**/*", (r) => r.continue());
      const encodings = new Map<string, string | undefined>();
      let bytes = 0;
      const pending: Promise<void>[] = [];
      page.on("requestfinished", (r) => {
        pending.push(
          r.response().then(async (res) => {
            encodings.set(new URL(r.url()).pathname, (await res?.allHeaders())?.["content-encoding"]);
            const s = await r.sizes();
            bytes += s.responseBodySize + s.responseHeadersSize;
          }),
        );
      });
      await page.goto(`${ui.url}/graph?node=atom:${node}`, { waitUntil: "load" });
      await page.waitForSelector("#graph[data-ready]");
      await Promise.all(pending);
      expect(encodings.get("/ui/graph")).toBe("br");
      expect(encodings.get("/ui/assets/cytoscape.mjs")).toBe("br");
      const identity = [...ASSETS.values()].reduce((n, a) => n + Buffer.byteLength(a.body), 0);
      console.log(
        `graph page in chromium: ${(bytes / 1024).toFixed(1)} KB transferred (assets alone ${(identity / 1024).toFixed(1)} KB uncompressed)`,
      );
      expect(bytes).toBeLessThan(identity / 3);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
