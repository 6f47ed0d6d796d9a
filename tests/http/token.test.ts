/**
 * The token rule on a real listener: beyond loopback without PEGAS_HTTP_TOKEN the server refuses to start (nothing
 * listens, the message names the variable); with a token, /mcp without it or with a wrong one is 401, the right one
 * works through the SDK client, /healthz stays open. Plus the address parsing and the loopback test it rests on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isLoopback, listenAddress, parseHttpAddress } from "../../src/http/address.ts";
import { hasToken } from "../../src/http/auth.ts";
import { serveHttp } from "../../src/http/serve.ts";
import { setLogLevel } from "../../src/log.ts";
import { PegasError } from "../../src/errors.ts";
import { httpClient, httpServer, INITIALIZE, MCP_POST_HEADERS, runtimeOf } from "./support.ts";

// Quieter while this file runs; restored after it, since every test file shares the one process logger.
beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));
const TOKEN = "a-token-of-twenty-four-ch";

describe("addresses", () => {
  test("host:port and [v6]:port parse; bad ones are INVALID_INPUT naming the value", () => {
    expect(parseHttpAddress("127.0.0.1:8765")).toEqual({ hostname: "127.0.0.1", port: 8765 });
    expect(parseHttpAddress("[::1]:0")).toEqual({ hostname: "::1", port: 0 });
    expect(parseHttpAddress("localhost:80")).toEqual({ hostname: "localhost", port: 80 });
    for (const bad of ["127.0.0.1", "127.0.0.1:70000", "::1:80", "[zz::1]:80", "host:-1"]) {
      expect(() => parseHttpAddress(bad)).toThrow(bad);
    }
  });

  test("loopback is 127.0.0.0/8, ::1, localhost (and v4-mapped loopback); nothing else", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "::1", "localhost", "LOCALHOST", "::ffff:127.0.0.1"])
      expect(isLoopback(h)).toBe(true);
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.2", "example.org", "::ffff:10.0.0.1", "128.0.0.1"])
      expect(isLoopback(h)).toBe(false);
  });

  test("beyond loopback without a token: INVALID_INPUT naming PEGAS_HTTP_TOKEN; with one, or on loopback, allowed", () => {
    for (const http of ["0.0.0.0:8765", "[::]:8765", "192.168.1.2:80", "myhost:8080"]) {
      let err: unknown;
      try {
        listenAddress({ http, http_token: undefined });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PegasError);
      expect((err as PegasError).code).toBe("INVALID_INPUT");
      expect((err as PegasError).message).toContain("PEGAS_HTTP_TOKEN");
      expect(listenAddress({ http, http_token: TOKEN }).loopback).toBe(false);
    }
    expect(listenAddress({ http: "127.0.0.1:0", http_token: undefined }).loopback).toBe(true);
  });

  test("token comparison: exact match only", () => {
    expect(hasToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasToken(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
    for (const h of [undefined, "", TOKEN, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, "Bearer "])
      expect(hasToken(h, TOKEN)).toBe(false);
  });
});

test("serve on 0.0.0.0 without a token refuses to start and listens nowhere", async () => {
  const t = runtimeOf({ http: "0.0.0.0:0", database_url: "postgres://postgres@127.0.0.1:1/none" });
  await expect(serveHttp(t.config, t.runtime)).rejects.toThrow("PEGAS_HTTP_TOKEN");
  expect(t.runtime.services.opened).toBe(false);
  await t.dispose();
});

describe("with a token", () => {
  let s: Awaited<ReturnType<typeof httpServer>>;
  beforeAll(async () => {
    s = await httpServer({ http_token: TOKEN });
  }, 60_000);
  afterAll(async () => s?.dispose());

  test("/mcp: 401 without or with a wrong token, the right one works; /healthz open", async () => {
    const { url } = s.listener;
    const none = await fetch(`${url}/mcp`, { method: "POST", headers: MCP_POST_HEADERS, body: INITIALIZE });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toStartWith("Bearer ");
    const wrong = httpClient(url, { authorization: "Bearer not-the-token-at-all" });
    const err = await wrong.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StreamableHTTPError);
    expect((err as StreamableHTTPError).code).toBe(401);
    expect(String(err)).toContain("PEGAS_HTTP_TOKEN");
    const right = await httpClient(url, { authorization: `Bearer ${TOKEN}` });
    const r = await right.client.callTool({ name: "memory_stats", arguments: {} });
    expect(r.isError).toBeFalsy();
    await right.client.close();
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
  }, 30_000);
});
