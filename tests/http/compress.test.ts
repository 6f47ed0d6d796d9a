/**
 * Compression of text answers (src/platform/compress.ts): the encoding chosen from Accept-Encoding; the middleware
 * compresses whole text bodies (decompressed, the same bytes), leaves small, binary, already encoded, no-transform
 * answers and event streams alone (an event stream is not buffered either), answers HEAD as GET without the body;
 * on the endpoint /metrics is compressed, /healthz and /readyz are fine, and /mcp is never compressed or buffered: a
 * raw initialize and a standalone SSE stream come back as plain event streams, and an SDK session works.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { createHttpApp } from "../../src/http/app.ts";
import { COMPRESS_MIN_BYTES, chooseEncoding, compressText } from "../../src/platform/compress.ts";
import { setLogLevel } from "../../src/log.ts";
import { httpClient, httpServer, INITIALIZE, MCP_POST_HEADERS, pgliteRuntime, type TestRuntime } from "./support.ts";

// Quieter while this file runs; restored after it, since every test file shares the one process logger.
beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

/** The body of `res` as sent, decoded by its Content-Encoding. */
async function decoded(res: Response): Promise<Buffer> {
  const raw = Buffer.from(await res.arrayBuffer());
  const enc = res.headers.get("content-encoding");
  return enc === "br" ? brotliDecompressSync(raw) : enc === "gzip" ? gunzipSync(raw) : raw;
}

describe("chooseEncoding", () => {
  test("by q-value, Brotli on a tie, * for codings not named, q=0 refuses, none without the header", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip")).toBe("gzip");
    expect(chooseEncoding("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("BR")).toBe("br");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0.5, br;q=0")).toBe("gzip");
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding("deflate")).toBeNull();
    expect(chooseEncoding("gzip;q=0, br;q=0")).toBeNull();
    expect(chooseEncoding("")).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe("the middleware", () => {
  const big = `<!doctype html><p>${"Палата № 6 — the ward, and the doctor who visits it. ".repeat(200)}</p>`;
  const app = new Hono();
  app.use("*", compressText());
  app.get("/page", (c) => c.html(big));
  app.get("/tagged", (c) => c.body(big, 200, { "content-type": "text/css", etag: '"abc"', vary: "Cookie" }));
  app.get("/small", (c) => c.html("<p>hi</p>"));
  app.get("/png", (c) => c.body(new Uint8Array(4096), 200, { "content-type": "image/png" }));
  app.get("/encoded", (c) => c.body(big, 200, { "content-type": "text/plain", "content-encoding": "identity" }));
  app.get("/no-transform", (c) => c.body(big, 200, { "content-type": "text/plain", "cache-control": "no-transform" }));
  app.get("/events", () => {
    const body = new ReadableStream<Uint8Array>({
      start: (ctl) => ctl.enqueue(new TextEncoder().encode("data: first\n\n")),
    }); // never closed
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const get = (path: string, acceptEncoding?: string, method = "GET") =>
    app.request(path, { method, headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } });

  test("a page with and without Accept-Encoding: the same bytes once decoded; headers right", async () => {
    const plain = await get("/page");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const identity = Buffer.from(await plain.arrayBuffer());
    expect(identity.toString()).toBe(big);
    for (const [accept, enc] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const res = await get("/page", accept);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(enc);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
      const raw = Buffer.from(await res.clone().arrayBuffer());
      expect(Number(res.headers.get("content-length"))).toBe(raw.byteLength);
      expect(raw.byteLength).toBeLessThan(identity.byteLength / 5);
      expect((await decoded(res)).equals(identity)).toBe(true);
    }
  });

  test("HEAD: the GET's headers and compressed length, no body", async () => {
    const getRes = await get("/page", "br");
    const length = (await getRes.arrayBuffer()).byteLength;
    const head = await get("/page", "br", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-encoding")).toBe("br");
    expect(head.headers.get("vary")).toBe("Accept-Encoding");
    expect(Number(head.headers.get("content-length"))).toBe(length);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  test("HEAD without compression (none accepted, or below the threshold): the GET's identity length, no body", async () => {
    for (const [path, accept, length] of [
      ["/page", undefined, Buffer.byteLength(big)],
      ["/page", "identity", Buffer.byteLength(big)],
      ["/small", "br", 9],
    ] as const) {
      const head = await get(path, accept, "HEAD");
      expect(head.status).toBe(200);
      expect(head.headers.get("content-encoding")).toBeNull();
      expect(head.headers.get("vary")).toBe("Accept-Encoding");
      expect(head.headers.get("content-length")).toBe(String(length));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
  });

  test("a strong ETag becomes weak when compressed; Vary keeps its other names", async () => {
    const res = await get("/tagged", "gzip");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("etag")).toBe('W/"abc"');
    expect(res.headers.get("vary")).toBe("Cookie, Accept-Encoding");
    expect((await get("/tagged")).headers.get("etag")).toBe('"abc"');
  });

  test("left alone: below the threshold, not text, already encoded (never twice), no-transform", async () => {
    const small = await get("/small", "br");
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.text()).toBe("<p>hi</p>");
    expect("<p>hi</p>".length).toBeLessThan(COMPRESS_MIN_BYTES);
    const png = await get("/png", "br");
    expect(png.headers.get("content-encoding")).toBeNull();
    expect(png.headers.get("vary")).toBeNull();
    expect((await png.arrayBuffer()).byteLength).toBe(4096);
    const encoded = await get("/encoded", "br");
    expect(encoded.headers.get("content-encoding")).toBe("identity");
    expect(await encoded.text()).toBe(big);
    const kept = await get("/no-transform", "br");
    expect(kept.headers.get("content-encoding")).toBeNull();
    expect(await kept.text()).toBe(big);
  });

  test("an event stream is neither compressed nor buffered: its first frame arrives while it stays open", async () => {
    const res = await get("/events", "gzip, br");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    await reader.cancel();
  });
});

describe("the endpoint's routes", () => {
  let t: TestRuntime;
  let app: Hono;
  beforeAll(async () => {
    t = await pgliteRuntime();
    app = createHttpApp({ runtime: t.runtime }).app;
    await app.request("/readyz"); // opens the database
  }, 60_000);
  afterAll(() => t?.dispose());

  test("/metrics: Brotli or gzip when accepted, the same series decoded, HEAD without a body; /healthz and /readyz fine", async () => {
    const names = (text: string) => [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]).sort();
    const plain = await app.request("/metrics");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const series = names(await plain.text());
    expect(series).toContain("pegas_uptime_seconds");
    for (const enc of ["br", "gzip"]) {
      const res = await app.request("/metrics", { headers: { "accept-encoding": enc } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(enc);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(names((await decoded(res)).toString())).toEqual(series);
    }
    const head = await app.request("/metrics", { method: "HEAD", headers: { "accept-encoding": "gzip" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-encoding")).toBe("gzip");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const health = await app.request("/healthz", { headers: { "accept-encoding": "gzip, br" } });
    expect(health.status).toBe(200);
    expect(health.headers.get("content-encoding")).toBeNull();
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await app.request("/readyz", { headers: { "accept-encoding": "gzip, br" } });
    expect(ready.status).toBe(200);
    expect(ready.headers.get("vary")).toBe("Accept-Encoding"); // its few hundred bytes go out as they are
    expect(JSON.parse((await decoded(ready)).toString())).toMatchObject({ status: "ready", down: [] });
  }, 30_000);
});

/**
 * The status line and headers of a GET /mcp read off a raw socket (closed after): up to the blank line, or what came
 * in the 500 ms after the first bytes (Bun ends the header block only with the first body bytes); "" when nothing
 * came within 5 s.
 */
function streamHead(port: number, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(quiet);
      socket.destroy();
      resolve(got.split("\r\n\r\n")[0]);
    };
    const timer = setTimeout(done, 5000);
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      got += chunk.toString("latin1");
      if (got.includes("\r\n\r\n")) done();
      else quiet ??= setTimeout(done, 500);
    });
    const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.write(`GET /mcp HTTP/1.1\r\n${lines}\r\n`);
  });
}

describe("/mcp on a real listener is never compressed or buffered", () => {
  let s: Awaited<ReturnType<typeof httpServer>>;
  beforeAll(async () => {
    s = await httpServer();
  }, 60_000);
  afterAll(() => s?.dispose());

  /** A fetch that shows the bytes as sent (Bun's fetch decodes by default). */
  const rawFetch = (path: string, init: RequestInit) =>
    fetch(`${s.listener.url}${path}`, { ...init, decompress: false } as RequestInit);

  test("initialize and a standalone SSE stream asked with Accept-Encoding come back as plain event streams", async () => {
    const init = await rawFetch("/mcp", {
      method: "POST",
      headers: { ...MCP_POST_HEADERS, "accept-encoding": "gzip, deflate, br" },
      body: INITIALIZE,
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("text/event-stream");
    expect(init.headers.get("content-encoding")).toBeNull();
    const sid = init.headers.get("mcp-session-id") as string;
    expect(await init.text()).toContain('"serverInfo"');
    const session = {
      "mcp-session-id": sid,
      "mcp-protocol-version": "2025-06-18",
      "accept-encoding": "gzip, deflate, br",
    };
    const initialized = await rawFetch("/mcp", {
      method: "POST",
      headers: { ...MCP_POST_HEADERS, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    // The standalone stream sends nothing yet and stays open: a buffering layer would hold its headers back. (Read
    // off a socket: Bun's fetch and node:http see the headers only once the first event arrives.)
    const head = await streamHead(s.listener.port, { accept: "text/event-stream", ...session });
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/^content-type: text\/event-stream\r?$/im);
    expect(head).not.toMatch(/^content-encoding:/im);
    const list = await rawFetch("/mcp", {
      method: "POST",
      headers: { ...MCP_POST_HEADERS, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
    });
    expect(list.headers.get("content-encoding")).toBeNull();
    expect(await list.text()).toContain("memory_search");
    await rawFetch("/mcp", { method: "DELETE", headers: session });
  }, 30_000);

  test("an SDK session over Streamable HTTP still works (Bun's fetch sends Accept-Encoding by itself)", async () => {
    const { client } = await httpClient(s.listener.url);
    const r = await client.callTool({
      name: "memory_store",
      arguments: { type: "fact", claim: "Compression leaves the MCP event streams alone" },
    });
    expect(r.isError).toBeFalsy();
    const hits = await client.callTool({
      name: "memory_search",
      arguments: { query: "compression event streams", k: 1 },
    });
    expect((hits.structuredContent as { hits: Array<{ atom_id: number }> }).hits[0].atom_id).toBe(
      (r.structuredContent as { atom_id: number }).atom_id,
    );
    await client.close();
  }, 30_000);
});
