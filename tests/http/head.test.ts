/**
 * HEAD on the real listener (Bun.serve through src/platform/http-server.ts, the endpoint of `serve --http`): the
 * answer carries the GET's header fields (RFC 9110 §9.3.2) and a Content-Length equal to the length of the body the
 * GET sends — never `content-length: 0` for a non-empty body — with and without compression. Read off a raw socket,
 * so that what is checked is what goes on the wire (Bun's fetch adds Accept-Encoding and decodes by itself).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { setLogLevel } from "../../src/log.ts";
import { httpServer } from "./support.ts";

beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

/** One answer as sent: the status, the headers (names lower-cased) and the body bytes that followed them. */
interface Wire {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** Sends one request with `Connection: close` over a fresh socket and reads the answer until the server closes. */
function rawRequest(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`${method} ${path}: no end within 10 s`)), 10_000);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf("\r\n\r\n");
      if (end < 0)
        return reject(new Error(`${method} ${path}: no header block in ${JSON.stringify(all.toString("latin1"))}`));
      const [statusLine, ...lines] = all.subarray(0, end).toString("latin1").split("\r\n");
      const map = new Map<string, string>();
      for (const l of lines) map.set(l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim());
      resolve({ status: Number(statusLine.split(" ")[1]), headers: map, body: all.subarray(end + 4) });
    });
    const all = { host: `127.0.0.1:${port}`, connection: "close", ...headers };
    socket.write(
      `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("")}\r\n`,
    );
  });
}

describe("HEAD over the real listener", () => {
  let s: Awaited<ReturnType<typeof httpServer>>;
  let atomId = 0;
  beforeAll(async () => {
    s = await httpServer();
    const services = await s.runtime.services.get();
    atomId = (await storeAtom(services, { type: "fact", claim: "A HEAD answer tells the length of the GET's body" }))
      .atom_id;
  }, 60_000);
  afterAll(() => s?.dispose());

  /** Header fields that must agree between GET and HEAD (Date and the body-derived ones aside). */
  const SAME = ["content-type", "content-encoding", "vary", "cache-control", "content-security-policy", "etag"];

  // The same bytes twice in a row: the pages without timings and the JSON answers.
  const PATHS = ["/ui", "/ui/atom/ID", "/readyz", "/healthz"];

  for (const accept of ["identity", "br", "gzip"]) {
    test(`Accept-Encoding ${accept}: HEAD has the GET's headers and Content-Length, no body`, async () => {
      for (const p of PATHS) {
        const path = p.replace("ID", String(atomId));
        const get = await rawRequest(s.listener.port, "GET", path, { "accept-encoding": accept });
        const head = await rawRequest(s.listener.port, "HEAD", path, { "accept-encoding": accept });
        const what = `${accept} ${path}`;
        expect(get.status, what).toBe(200);
        expect(get.body.byteLength, what).toBeGreaterThan(0);
        expect(Number(get.headers.get("content-length")), what).toBe(get.body.byteLength);
        expect(head.status, what).toBe(get.status);
        expect(head.body.byteLength, what).toBe(0);
        expect(head.headers.get("content-length"), what).toBe(String(get.body.byteLength));
        for (const h of SAME) expect(head.headers.get(h), `${what} ${h}`).toBe(get.headers.get(h));
      }
    }, 30_000);
  }

  // Answers whose bytes move between two requests: /metrics' values (uptime, request counts), the search page's
  // "N ms", the 404 text naming the method (GET or HEAD).
  test("/metrics, a search, a 404: HEAD tells a length within a few bytes of the GET's, never 0", async () => {
    for (const path of ["/metrics", "/ui/search?q=HEAD+answer", "/no-such-route"]) {
      for (const accept of ["identity", "gzip"]) {
        const get = await rawRequest(s.listener.port, "GET", path, { "accept-encoding": accept });
        const head = await rawRequest(s.listener.port, "HEAD", path, { "accept-encoding": accept });
        const what = `${accept} ${path}`;
        expect(head.status, what).toBe(get.status);
        expect(head.body.byteLength, what).toBe(0);
        for (const h of SAME) expect(head.headers.get(h), `${what} ${h}`).toBe(get.headers.get(h));
        const told = Number(head.headers.get("content-length"));
        expect(get.body.byteLength, what).toBeGreaterThan(64);
        expect(Math.abs(told - get.body.byteLength), `${what}: HEAD ${told}, GET ${get.body.byteLength}`).toBeLessThan(
          16,
        );
      }
    }
  }, 30_000);
});
