/**
 * URL ingest through PROXY_URL: a real SOCKS5 server (Debian's microsocks) on loopback carries the fetch while the
 * target, acting as the direct sentinel, sees no connection from anywhere but the proxy's bind address; an
 * unusable proxy fails the ingest and still nothing goes direct. Skipped, with the reason, without microsocks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { PegasError } from "../../src/errors.ts";
import { freePort, type Microsocks, microsocksPath, startMicrosocks } from "../support/socks-microsocks.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const missing = microsocksPath() ? null : "microsocks is not on PATH (apt-get install -y microsocks)";
if (missing) console.warn(`skipping proxied ingest tests: ${missing}`);

const PAGE = `<html><head><title>Через прокси</title></head><body><article><p>${"Страница, полученная через SOCKS5 прокси. ".repeat(12)}</p></article></body></html>`;

describe.skipIf(missing !== null)("URL ingest through a SOCKS5 proxy", () => {
  let socks: Microsocks;
  let server: ReturnType<typeof Bun.serve>;
  const peers: string[] = [];
  const opened: TestServices[] = [];

  beforeAll(async () => {
    socks = await startMicrosocks("127.0.0.2");
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req, srv) {
        peers.push(srv.requestIP(req)?.address ?? "?");
        return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
      },
    });
  });
  afterAll(async () => {
    for (const t of opened) await t.dispose();
    await socks?.stop();
    server?.stop(true);
  });

  async function services(proxyUrl: string) {
    const t = await openTestServices("pglite", { proxy_url: proxyUrl, allow_private_urls: true });
    if (typeof t === "string") throw new Error(t);
    opened.push(t);
    return t.services;
  }

  const direct = () => peers.filter((p) => p !== socks.bindAddress && p !== `::ffff:${socks.bindAddress}`);

  test("the page comes through the proxy; the sentinel sees no direct request", async () => {
    const s = await services(`socks5h://127.0.0.1:${socks.port}`);
    const r = await ingest(s, { url: `http://127.0.0.1:${server.port}/page` });
    expect(r.documents[0]).toMatchObject({ stored: true, kind: "web" });
    expect(peers.length).toBeGreaterThan(0);
    expect(direct()).toEqual([]);
  }, 60_000);

  test("an unusable proxy fails the ingest and nothing goes direct", async () => {
    const before = peers.length;
    const s = await services(`socks5h://127.0.0.1:${await freePort()}`);
    const err = await ingest(s, { url: `http://127.0.0.1:${server.port}/other` }).catch((e) => e);
    expect(err).toBeInstanceOf(PegasError);
    expect(err.code).toBe("NETWORK_FAILED");
    expect(peers.length).toBe(before);
    expect(direct()).toEqual([]);
  }, 60_000);
});
