/**
 * A loopback HTTP server (node:http, port 0) that serves the pages and hostile answers of the web fetcher tests,
 * and records every request it gets with the peer address, so a test can tell who connected (directly or via a
 * proxy bound to another loopback address). Every delayed answer is bounded and cleared when the server stops.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";

/** One request as the server saw it. */
export interface SeenRequest {
  path: string;
  host: string;
  remoteAddress: string;
}

/** A running target server. */
export interface HttpTarget {
  /** Base URL with the bound address, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  stop(): Promise<void>;
}

/** The Cyrillic test sentence of the windows-1251 page. */
export const CYRILLIC = "Съешь же ещё этих мягких французских булок";

/** Encodes Russian text as windows-1251 (А–я → C0–FF, Ё/ё → A8/B8; ASCII as is); enough for the fixtures here. */
export function toCp1251(text: string): Uint8Array {
  return Uint8Array.from([...text], (ch) => {
    const c = ch.codePointAt(0) ?? 0x3f;
    if (c < 0x80) return c;
    if (c >= 0x410 && c <= 0x44f) return c - 0x410 + 0xc0;
    return c === 0x401 ? 0xa8 : c === 0x451 ? 0xb8 : 0x3f;
  });
}

/** HTML page of the plain route. */
export const PAGE_HTML =
  "<!doctype html><html><head><title>Test page</title></head><body><p>Hello, web.</p></body></html>";

/** Size in bytes of the zeros behind the gzip and br bombs. */
export const BOMB_BYTES = 16 * 1024 * 1024;

/** What a route needs from its server: the base URL and a timer that the server clears when it stops. */
interface RouteContext {
  base: string;
  later(ms: number, fn: () => void): void;
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body?: Uint8Array | string,
): void {
  res.writeHead(status, headers);
  res.end(body);
}

/** Routes: see the comment of each branch; anything unknown is 404. */
function route(req: IncomingMessage, res: ServerResponse, ctx: RouteContext) {
  const u = new URL(req.url ?? "/", "http://x");
  const p = u.pathname;
  const html = { "content-type": "text/html; charset=utf-8" };
  if (p === "/page") return send(res, 200, html, PAGE_HTML);
  if (p === "/cp1251") {
    const body = toCp1251(`<html><body><p>${CYRILLIC}</p></body></html>`);
    return send(res, 200, { "content-type": 'text/html; Charset="Windows-1251"', "content-length": body.length }, body);
  }
  // /chain/N redirects N times (relative Locations), then serves the page.
  const chain = /^\/chain\/(\d+)$/.exec(p);
  if (chain) {
    const n = Number(chain[1]);
    return n === 0 ? send(res, 200, html, PAGE_HTML) : send(res, 302, { location: `/chain/${n - 1}` });
  }
  // /to?u=<url>&s=<status> redirects once to any URL.
  if (p === "/to")
    return send(res, Number(u.searchParams.get("s") ?? 302), { location: u.searchParams.get("u") ?? "/" });
  if (p === "/loop") return send(res, 301, { location: `${ctx.base}/loop` });
  const status = /^\/status\/(\d+)$/.exec(p);
  if (status) return send(res, Number(status[1]), { "retry-after": "120", ...html }, "<p>blocked</p>");
  if (p === "/big") return send(res, 200, { "content-type": "text/plain", "content-length": 2048 }, "x".repeat(2048));
  if (p === "/big-chunked") {
    res.writeHead(200, { "content-type": "text/plain" });
    for (let i = 0; i < 8; i++) res.write("y".repeat(512));
    return void res.end();
  }
  if (p === "/gzip-bomb")
    return send(
      res,
      200,
      { "content-type": "text/plain", "content-encoding": "gzip" },
      gzipSync(Buffer.alloc(BOMB_BYTES)),
    );
  if (p === "/br-bomb")
    return send(
      res,
      200,
      { "content-type": "text/plain", "content-encoding": "br" },
      brotliCompressSync(Buffer.alloc(BOMB_BYTES)),
    );
  if (p === "/gzip") return send(res, 200, { ...html, "content-encoding": "gzip" }, gzipSync(PAGE_HTML));
  if (p === "/br") return send(res, 200, { ...html, "content-encoding": "br" }, brotliCompressSync(PAGE_HTML));
  if (p === "/deflate") return send(res, 200, { ...html, "content-encoding": "deflate" }, deflateSync(PAGE_HTML));
  if (p === "/deflate-raw")
    return send(res, 200, { ...html, "content-encoding": "deflate" }, deflateRawSync(PAGE_HTML));
  if (p === "/gzip-truncated")
    return send(res, 200, { ...html, "content-encoding": "gzip" }, gzipSync(PAGE_HTML.repeat(50)).subarray(0, 60));
  if (p === "/zstd") return send(res, 200, { ...html, "content-encoding": "zstd" }, "not really zstd");
  if (p === "/no-type") return send(res, 200, {}, "plain bytes");
  // Headers never come (until 5 s); the body stalls after its first chunk (until 5 s); the body is cut short.
  if (p === "/slow-headers") return ctx.later(5000, () => send(res, 200, html, PAGE_HTML));
  if (p === "/slow-body") {
    res.writeHead(200, { ...html, "content-length": 10_000 });
    res.write("<html>");
    return ctx.later(5000, () => res.end());
  }
  if (p === "/truncated") {
    res.writeHead(200, { ...html, "content-length": 10_000 });
    res.write("<html>only the start");
    return ctx.later(50, () => res.destroy());
  }
  send(res, 404, html, "<p>no such page</p>");
}

/** Starts a target server on `host` (default 127.0.0.1) and `port` (default 0 = ephemeral). */
export async function startHttpTarget(host = "127.0.0.1", port = 0): Promise<HttpTarget> {
  const requests: SeenRequest[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const ctx: RouteContext = {
    base: "",
    later(ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    },
  };
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", host: req.headers.host ?? "", remoteAddress: req.socket.remoteAddress ?? "" });
    route(req, res, ctx);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host}:${bound}`;
  ctx.base = url;
  return {
    url,
    host,
    port: bound,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
