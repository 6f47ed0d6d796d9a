/**
 * The admin page's guard before any body is read, and behind a TLS-terminating reverse proxy (no browser: plain
 * requests to the UI app): a form body over 64 KiB is refused with a 413 page whether it declares its length or comes
 * chunked; a POST from another origin or without the session cookie is refused without reading its body; the
 * browser's `Origin: https://host` matches a request that reached the server as http with `Host: host` (or
 * `X-Forwarded-Host`), the session cookie then being Secure; another host is still refused.
 */
import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { UI_MAX_BODY_BYTES, createUiApp } from "../../src/ui/app.ts";

const HOST = "127.0.0.1:8080";
const ORIGIN = `http://${HOST}`;
const noServices = () => Promise.reject(new Error("the guard must answer before any service is used"));

function app(token?: string, hosts: string[] | null = [HOST]): Hono {
  const root = new Hono();
  root.route("/ui", createUiApp({ services: noServices, token, allowedHosts: () => hosts ?? undefined }));
  return root;
}

const csrfOf = async (a: Hono, host = HOST) =>
  /name="_csrf" value="([^"]+)"/.exec(
    await (await a.request(`http://${host}/ui`, { headers: { host } })).text(),
  )?.[1] ?? "";

/** A body stream of `chunks` chunks of 64 KiB that counts how many were pulled (none until someone reads). */
function countingBody(chunks: number): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let n = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(ctl) {
        if (n === chunks) return ctl.close();
        n++;
        ctl.enqueue(new TextEncoder().encode(`reason=${"x".repeat(65_536 - 7)}`));
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => n };
}

const form = { "content-type": "application/x-www-form-urlencoded" };

describe("admin page guard: body limit", () => {
  test("a login body over the limit is refused with 413 before it is parsed (declared length and chunked)", async () => {
    const a = app("tok");
    const csrf = await csrfOf(a);
    const big = new URLSearchParams({ token: "tok", _csrf: csrf, pad: "x".repeat(UI_MAX_BODY_BYTES) });
    const declared = await a.request(`${ORIGIN}/ui/login`, {
      method: "POST",
      body: big.toString(),
      headers: { host: HOST, origin: ORIGIN, ...form },
    });
    expect(declared.status).toBe(413);
    expect(declared.headers.get("content-type")).toContain("text/html");
    expect(await declared.text()).toContain("too large");
    expect(declared.headers.get("set-cookie")).toBeNull();
    const chunked = countingBody(1000);
    const res = await a.request(`${ORIGIN}/ui/login`, {
      method: "POST",
      body: chunked.body,
      headers: { host: HOST, origin: ORIGIN, ...form },
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(chunked.pulled()).toBeLessThanOrEqual(3); // 64 KiB read, not 64 MiB
    const small = await a.request(`${ORIGIN}/ui/login`, {
      method: "POST",
      body: new URLSearchParams({ token: "tok", _csrf: csrf }),
      headers: { host: HOST, origin: ORIGIN, ...form },
    });
    expect(small.status).toBe(303);
  });

  test("cross-site POSTs and POSTs without the session cookie are refused without reading the body", async () => {
    const a = app("tok");
    for (const [path, headers, status] of [
      ["/ui/login", { origin: "http://evil.example" }, 403],
      ["/ui/atom/1/forget", { "sec-fetch-site": "cross-site" }, 403],
      ["/ui/atom/1/forget", { origin: ORIGIN }, 401], // no cookie: only the prompt, whatever the body says
    ] as const) {
      const b = countingBody(1000);
      const res = await a.request(`${ORIGIN}${path}`, {
        method: "POST",
        body: b.body,
        headers: { host: HOST, ...form, ...headers },
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(status);
      expect(b.pulled()).toBe(0);
    }
  });
});

describe("admin page guard behind a TLS-terminating reverse proxy", () => {
  const PUBLIC = "memory.example.org";

  test("Origin https://host with Host: host (request seen as http) logs in; the cookie is Secure", async () => {
    const a = app("tok", null); // beyond loopback: any Host
    const csrf = await csrfOf(a, PUBLIC);
    const login = await a.request(`http://${PUBLIC}/ui/login`, {
      method: "POST",
      body: new URLSearchParams({ token: "tok", _csrf: csrf }),
      headers: { host: PUBLIC, origin: `https://${PUBLIC}`, "sec-fetch-site": "same-origin", ...form },
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("set-cookie")).toContain("Secure");
    const other = await a.request(`http://${PUBLIC}/ui/login`, {
      method: "POST",
      body: new URLSearchParams({ token: "tok", _csrf: csrf }),
      headers: { host: PUBLIC, origin: `https://evil.example`, ...form },
    });
    expect(other.status).toBe(403);
    const otherPort = await a.request(`http://${PUBLIC}/ui/login`, {
      method: "POST",
      body: new URLSearchParams({ token: "tok", _csrf: csrf }),
      headers: { host: PUBLIC, origin: `https://${PUBLIC}:8443`, ...form },
    });
    expect(otherPort.status).toBe(403);
  });

  test("a proxy to loopback that rewrites Host keeps X-Forwarded-Host: matched; X-Forwarded-Proto https makes the cookie Secure", async () => {
    const a = app("tok");
    const csrf = await csrfOf(a);
    const post = (origin: string, fwd: Record<string, string>) =>
      a.request(`${ORIGIN}/ui/login`, {
        method: "POST",
        body: new URLSearchParams({ token: "tok", _csrf: csrf }),
        headers: { host: HOST, origin, ...form, ...fwd },
      });
    const ok = await post(`https://${PUBLIC}`, { "x-forwarded-host": PUBLIC, "x-forwarded-proto": "https" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("set-cookie")).toContain("Secure");
    expect((await post("https://evil.example", { "x-forwarded-host": PUBLIC })).status).toBe(403);
    const plain = await post(ORIGIN, {});
    expect(plain.status).toBe(303);
    expect(plain.headers.get("set-cookie")).not.toContain("Secure");
  });
});
