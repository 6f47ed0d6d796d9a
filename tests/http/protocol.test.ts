/**
 * The strict side of /mcp on a real listener, with fetch and the SDK's own client: the Origin rule (absent, loopback
 * and configured origins pass; any other is 403 with a JSON-RPC error; other routes are not concerned; CORS answers
 * for configured origins only), JSON-RPC
 * batches refused with 400 -32600 (with and without a session), and the per-session rate limit of tool calls (429
 * with Retry-After and the call's id; methods other than tools/call are not counted); /metrics counts the refusals. Plus the token bucket and the
 * origin normalization on their own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadConfig } from "../../src/config.ts";
import { normalizeOrigin, originRefusal } from "../../src/http/origin.ts";
import { TokenBucket } from "../../src/http/rate-limit.ts";
import { setLogLevel } from "../../src/log.ts";
import { parseExposition, sampleValue } from "./metrics-exposition.ts";
import { httpClient, httpServer, INITIALIZE, MCP_POST_HEADERS } from "./support.ts";

beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

type Server = Awaited<ReturnType<typeof httpServer>>;
/** The process-wide count of /mcp refusals for `reason`, as /metrics of `url` shows it. */
async function refused(url: string, reason: string): Promise<number> {
  const m = parseExposition(await (await fetch(`${url}/metrics`)).text());
  return sampleValue(m, "pegas_mcp_refused_total", { reason });
}

type RpcError = { jsonrpc: string; id: unknown; error: { code: number; message: string } };

/** POSTs `body` to `url`/mcp with the MCP headers and `headers`. */
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/mcp`, { method: "POST", headers: { ...MCP_POST_HEADERS, ...headers }, body });

/** A raw initialize (and `notifications/initialized`); resolves with the session id. */
async function session(url: string): Promise<string> {
  const res = await post(url, INITIALIZE);
  expect(res.status).toBe(200);
  await res.text();
  const sid = res.headers.get("mcp-session-id") as string;
  const ack = await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
    "mcp-session-id": sid,
  });
  expect(ack.status).toBe(202);
  return sid;
}

describe("Origin on /mcp", () => {
  let s: Server;
  beforeAll(async () => {
    s = await httpServer({ allowed_origins: ["https://app.example", "vscode-webview://abc"] });
  }, 60_000);
  afterAll(async () => s?.dispose());

  test("absent, loopback (any port) and configured origins pass; others are 403 with a JSON-RPC error", async () => {
    const url = s.listener.url;
    expect((await post(url, INITIALIZE)).status).toBe(200);
    for (const origin of [
      "http://localhost:5173",
      "http://127.0.0.1",
      "http://[::1]:8080",
      "https://app.example",
      "https://APP.example:443",
      "vscode-webview://abc",
    ]) {
      const res = await post(url, INITIALIZE, { origin });
      expect({ origin, status: res.status }).toEqual({ origin, status: 200 });
      await res.text();
    }
    for (const origin of ["https://evil.example", "http://app.example", "null", "https://app.example.evil.example"]) {
      const res = await post(url, INITIALIZE, { origin });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
      const body = (await res.json()) as RpcError;
      expect(body.jsonrpc).toBe("2.0");
      expect(body.id).toBeNull();
      expect(body.error.message).toContain(`Origin '${origin}'`);
      expect(body.error.message).toContain("allowed_origins");
    }
  }, 30_000);

  test("the refusal covers every method of /mcp and no other route", async () => {
    const sid = await session(s.listener.url);
    const evil = { origin: "https://evil.example", "mcp-session-id": sid };
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping" });
    expect((await post(s.listener.url, ping, evil)).status).toBe(403);
    const get = await fetch(`${s.listener.url}/mcp`, { headers: { ...evil, accept: "text/event-stream" } });
    expect(get.status).toBe(403);
    const del = await fetch(`${s.listener.url}/mcp`, { method: "DELETE", headers: evil });
    expect(del.status).toBe(403);
    // The session still lives: the refused DELETE ended nothing.
    expect((await post(s.listener.url, ping, { "mcp-session-id": sid })).status).toBe(200);
    const health = await fetch(`${s.listener.url}/healthz`, { headers: { origin: "https://evil.example" } });
    expect(health.status).toBe(200);
  }, 30_000);

  test("CORS for listed origins only: preflight 204 naming the MCP headers; answers expose Mcp-Session-Id", async () => {
    const preflight = (origin: string) =>
      fetch(`${s.listener.url}/mcp`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type,mcp-session-id",
        },
      });
    const ok = await preflight("https://app.example");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(ok.headers.get("access-control-allow-headers")).toContain("mcp-session-id");
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    // Admitted but not listed: no CORS, so a browser does not let the page call.
    const local = await preflight("http://localhost:5173");
    expect(local.headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight("https://evil.example")).status).toBe(403);

    const res = await post(s.listener.url, INITIALIZE, { origin: "https://app.example" });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeString();
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(res.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    expect(await res.text()).toContain('"result"');
  }, 30_000);

  test("origin comparison: normalized, exact host, '*' allows any", () => {
    expect(normalizeOrigin("HTTPS://App.Example:443/")).toBe("https://app.example");
    expect(normalizeOrigin("http://app.example:8080")).toBe("http://app.example:8080");
    expect(normalizeOrigin("null")).toBeNull();
    expect(normalizeOrigin("https://app.example/path")).toBeNull();
    expect(originRefusal(undefined, [])).toBeNull();
    expect(originRefusal("http://localhost.:3000", [])).toBeNull();
    expect(originRefusal("http://127.8.9.10:1", [])).toBeNull();
    expect(originRefusal("http://localhost.evil.example", [])).not.toBeNull();
    expect(originRefusal("file://", [])).not.toBeNull();
    expect(originRefusal("https://any.example", ["*"])).toBeNull();
    expect(originRefusal("null", ["*"])).not.toBeNull();
  });

  test("configuration: PEGAS_ALLOWED_ORIGINS is comma-separated; a value that is no origin is refused", () => {
    const env = { HOME: "/tmp", XDG_CONFIG_HOME: "/nonexistent", PEGAS_ALLOWED_ORIGINS: "https://a.example, *" };
    expect(loadConfig({ env }).allowed_origins).toEqual(["https://a.example", "*"]);
    expect(() => loadConfig({ env: { ...env, PEGAS_ALLOWED_ORIGINS: "https://a.example/path" } })).toThrow(
      "allowed_origins",
    );
  });
});

describe("batches", () => {
  let s: Server;
  beforeAll(async () => {
    s = await httpServer();
  }, 60_000);
  afterAll(async () => s?.dispose());

  test("a JSON array is 400 -32600 naming the removal of batching, before and after initialize", async () => {
    const before = await refused(s.listener.url, "batch");
    const first = await post(s.listener.url, `[${INITIALIZE}]`);
    expect(first.status).toBe(400);
    expect(first.headers.get("mcp-session-id")).toBeNull();
    const e1 = (await first.json()) as RpcError;
    expect(e1.error.code).toBe(-32600);
    expect(e1.error.message).toContain("batches are not supported");
    expect(e1.error.message).toContain("2025-06-18");

    const sid = await session(s.listener.url);
    const pings = JSON.stringify([1, 2].map((id) => ({ jsonrpc: "2.0", id, method: "ping" })));
    const second = await post(s.listener.url, pings, { "mcp-session-id": sid });
    expect(second.status).toBe(400);
    expect(((await second.json()) as RpcError).error.code).toBe(-32600);
    // One message per POST still works, and bad JSON is a parse error.
    const one = await post(s.listener.url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }), {
      "mcp-session-id": sid,
    });
    expect(await one.text()).toContain('"result"');
    const bad = await post(s.listener.url, "{nope", { "mcp-session-id": sid });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as RpcError).error.code).toBe(-32700);
    // Params that are no object: -32602 to the request's id, naming the method (the SDK said -32700, id null).
    const five = await post(
      s.listener.url,
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: 5 }),
      {
        "mcp-session-id": sid,
      },
    );
    expect(five.status).toBe(400);
    expect(await five.json()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: -32602,
        message: 'tools/call params must be a JSON object {"name": <tool>, "arguments": {…}}, not a number',
      },
    });
    expect((await refused(s.listener.url, "batch")) - before).toBe(2);
  }, 30_000);
});

describe("rate limit of tool calls", () => {
  let s: Server;
  // One token per 1000 s after a burst of 2: the third call is refused whatever the machine's speed.
  beforeAll(async () => {
    s = await httpServer({ http_rate_limit: 0.001, http_rate_burst: 2 });
  }, 60_000);
  afterAll(async () => s?.dispose());

  test("beyond the burst a tool call is 429 with Retry-After and the call's id; other methods pass", async () => {
    const before = await refused(s.listener.url, "rate_limit");
    const { client, transport } = await httpClient(s.listener.url);
    for (let i = 0; i < 2; i++) {
      const r = await client.callTool({ name: "memory_stats", arguments: {} });
      expect(r.isError).toBeFalsy();
    }
    const third = await client.callTool({ name: "memory_stats", arguments: {} }).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(StreamableHTTPError);
    expect((third as StreamableHTTPError).code).toBe(429);
    expect(String(third)).toContain("Too Many Requests");

    const sid = transport.sessionId as string;
    const call = JSON.stringify({ jsonrpc: "2.0", id: 77, method: "tools/call", params: { name: "memory_stats" } });
    const res = await post(s.listener.url, call, { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" });
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 1000).toBe(true);
    const body = (await res.json()) as RpcError;
    expect(body.id).toBe(77);
    expect(body.error.message).toContain(`retry after ${retry} s`);
    expect(body.error.message).toContain("http_rate_limit");
    expect((await refused(s.listener.url, "rate_limit")) - before).toBe(2);

    // Not tool calls: not counted.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.ping();
    // Another session has its own bucket.
    const other = await httpClient(s.listener.url);
    expect((await other.client.callTool({ name: "memory_stats", arguments: {} })).isError).toBeFalsy();
    await other.client.close();
    await client.close();
  }, 60_000);

  test("token bucket: a burst, then one token per 1/rate seconds; rate 0 never limits", () => {
    const b = new TokenBucket({ perSecond: 2, burst: 3 }, 0);
    expect([b.take(0), b.take(0), b.take(0)]).toEqual([0, 0, 0]);
    expect(b.take(0)).toBeCloseTo(0.5);
    expect(b.take(250)).toBeCloseTo(0.25);
    expect(b.take(500)).toBe(0);
    expect(b.take(10_000)).toBe(0); // refilled to the burst, not beyond
    expect([b.take(10_000), b.take(10_000)]).toEqual([0, 0]);
    expect(b.take(10_000)).toBeGreaterThan(0);
    const off = new TokenBucket({ perSecond: 0, burst: 1 }, 0);
    for (let i = 0; i < 1000; i++) expect(off.take(0)).toBe(0);
  });
});
