/**
 * HEAD on the real listener (Bun.serve through src/platform/http-server.ts, the endpoint of `serve --http`): the
 * answer carries the GET's header fields (RFC 9110 §9.3.2) and a Content-Length equal to the length of the body the
 * GET sends — never `content-length: 0` for a non-empty body — with and without compression. Read off a raw socket,
 * so that what is checked is what goes on the wire (Bun's fetch adds Accept-Encoding and decodes by itself).
 * The server has a token and /readyz is asked without it: the anonymous answer has no probe durations, so its bytes
 * do not move between the GET and the HEAD.
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

const TOKEN = "a-token-of-twenty-four-ch";

describe("HEAD over the real listener", () => {
  let s: Awaited<ReturnType<typeof httpServer>>;
  let atomId = 0;
  /** The admin page's session cookie, got through its login form. */
  let cookie = "";
  beforeAll(async () => {
    s = await httpServer({ http_token: TOKEN });
    const prompt = await (await fetch(`http://127.0.0.1:${s.listener.port}/ui`)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(prompt)?.[1] ?? "";
    const login = await fetch(`http://127.0.0.1:${s.listener.port}/ui/login`, {
      method: "POST",
      body: new URLSearchParams({ token: TOKEN, _csrf: csrf }),
      redirect: "manual",
    });
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toStartWith("pegas_ui=");
    const services = await s.runtime.services.get();
    atomId = (await storeAtom(services, { type: "fact", claim: "A HEAD answer tells the length of the GET's body" }))
      .atom_id;
  }, 60_000);
  afterAll(() => s?.dispose());

  /** Header fields that must agree between GET and HEAD (Date and the body-derived ones aside). */
  const SAME = ["content-type", "content-encoding", "vary", "cache-control", "content-security-policy", "etag"];

  // The same bytes twice in a row: the pages without timings and the JSON answers (/readyz anonymous: no durations).
  const PATHS = ["/ui", "/ui/atom/ID", "/readyz", "/healthz"];
  /** The session for the admin page, the token for /metrics; /readyz and /healthz are asked without either. */
  const auth = (path: string): Record<string, string> =>
    path.startsWith("/ui")
      ? { cookie }
      : path === "/metrics" || path === "/no-such-route"
        ? { authorization: `Bearer ${TOKEN}` }
        : {};

  for (const accept of ["identity", "br", "gzip"]) {
    test(`Accept-Encoding ${accept}: HEAD has the GET's headers and Content-Length, no body`, async () => {
      for (const p of PATHS) {
        const path = p.replace("ID", String(atomId));
        const get = await rawRequest(s.listener.port, "GET", path, { "accept-encoding": accept, ...auth(path) });
        const head = await rawRequest(s.listener.port, "HEAD", path, { "accept-encoding": accept, ...auth(path) });
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
  // "N ms", the 404 text naming the method (GET or HEAD). Their lengths cannot be compared; HEAD still tells one.
  test("/metrics, a search, a 404: HEAD tells a Content-Length, never 0, and sends no body", async () => {
    for (const path of ["/metrics", "/ui/search?q=HEAD+answer", "/no-such-route"]) {
      for (const accept of ["identity", "gzip"]) {
        const headers = { "accept-encoding": accept, ...auth(path) };
        const get = await rawRequest(s.listener.port, "GET", path, headers);
        const head = await rawRequest(s.listener.port, "HEAD", path, headers);
        const what = `${accept} ${path}`;
        expect(head.status, what).toBe(get.status);
        expect(head.body.byteLength, what).toBe(0);
        for (const h of SAME) expect(head.headers.get(h), `${what} ${h}`).toBe(get.headers.get(h));
        expect(get.body.byteLength, what).toBeGreaterThan(0);
        expect(head.headers.get("content-length"), what).toMatch(/^[1-9][0-9]*$/);
      }
    }
  }, 30_000);
});
