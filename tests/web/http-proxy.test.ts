/**
 * fetchUrl through an HTTP proxy (tests/support/http-proxy.ts: forwarding for http, CONNECT for https), and https
 * without a proxy. The proxy resolves `public.test` from its own table to loopback, so the first hop is a public
 * name that needs no exemption and every redirect meets the real guard; the proxy binds to 127.0.0.3, so the
 * target can tell proxied requests from direct ones. TLS tests need `openssl` and skip, with the reason, without.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { WebFetchError } from "../../src/adapters/web/errors.ts";
import { type FetchOptions, fetchUrl } from "../../src/adapters/web/fetch.ts";
import { PegasError } from "../../src/errors.ts";
import { PROXY_BIND_ADDRESS, type TestHttpProxy, startHttpProxy } from "../support/http-proxy.ts";
import { type HttpTarget, PAGE_HTML, startHttpTarget } from "../support/http-target.ts";
import { type TlsTarget, opensslPath, startTlsTarget } from "../support/http-tls.ts";

let target: HttpTarget;
let sentinel: HttpTarget;
let proxy: TestHttpProxy;
beforeAll(async () => {
  target = await startHttpTarget();
  sentinel = await startHttpTarget();
  proxy = await startHttpProxy({ "public.test": "127.0.0.1" });
});
afterAll(async () => {
  await proxy.stop();
  await target.stop();
  await sentinel.stop();
});

const noLookup = {
  asked: [] as string[],
  lookup: async (host: string): Promise<string[]> => {
    noLookup.asked.push(host);
    throw new Error("no local lookup expected");
  },
};

async function failure(url: string, opts: FetchOptions): Promise<PegasError> {
  const err = await fetchUrl(url, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PegasError);
  return err as PegasError;
}

describe("HTTP proxy, http targets (forwarding)", () => {
  test("a public name goes through the proxy, which resolves it; no local lookup", async () => {
    const before = target.requests.length;
    const r = await fetchUrl(`http://public.test:${target.port}/chain/2`, {
      proxyUrl: proxy.url,
      lookup: noLookup.lookup,
    });
    expect(new TextDecoder().decode(r.bytes)).toBe(PAGE_HTML);
    expect(r.redirects).toHaveLength(2);
    expect(noLookup.asked).toEqual([]);
    const seen = target.requests.slice(before);
    expect(seen.map((q) => q.remoteAddress)).toEqual(Array(3).fill(PROXY_BIND_ADDRESS));
    expect(seen.every((q) => q.host === `public.test:${target.port}`)).toBe(true);
  });

  test.each([
    ["127.0.0.1", () => `http://127.0.0.1:${sentinel.port}/x`],
    ["localhost", () => `http://localhost:${sentinel.port}/x`],
    ["::ffff:7f00:1", () => `http://[::ffff:7f00:1]:${sentinel.port}/x`],
    ["a single-label name", () => `http://intranet:${sentinel.port}/x`],
  ])("a redirect to %s is refused; neither proxy nor sentinel is asked for it", async (_name, to) => {
    const seenBefore = proxy.seen.length;
    const err = await failure(`http://public.test:${target.port}/to?u=${encodeURIComponent(to())}`, {
      proxyUrl: proxy.url,
      lookup: noLookup.lookup,
    });
    expect(err.code).toBe("INVALID_INPUT");
    expect(proxy.seen.length).toBe(seenBefore + 1);
    expect(sentinel.requests).toHaveLength(0);
    expect(noLookup.asked).toEqual([]);
  });

  test("a proxy that refuses the destination fails the fetch (no direct retry)", async () => {
    const before = target.requests.length;
    const err = (await failure(`http://unmapped.test:${target.port}/page`, { proxyUrl: proxy.url })) as WebFetchError;
    expect(err).toMatchObject({ kind: "status", status: 502 });
    expect(target.requests.length).toBe(before);
  });

  test.each(["ftp://127.0.0.1:21", "not a url", "socks4://127.0.0.1:1080", "http://"])(
    "proxy URL %p is INVALID_INPUT",
    async (proxyUrl) => {
      const before = target.requests.length;
      expect(
        (await failure(`http://public.test:${target.port}/page`, { proxyUrl, lookup: noLookup.lookup })).code,
      ).toBe("INVALID_INPUT");
      expect(target.requests.length).toBe(before);
      expect(noLookup.asked).toEqual([]);
    },
  );
});

const noTls = opensslPath() ? null : "openssl is not on PATH";
if (noTls) console.warn(`skipping TLS fetch tests: ${noTls}`);

describe.skipIf(noTls !== null)("https", () => {
  let tls: TlsTarget;
  beforeAll(async () => {
    tls = await startTlsTarget("public.test");
  });
  afterAll(async () => {
    await tls?.stop();
  });

  test("through the proxy's CONNECT tunnel, with SNI and Host of the name", async () => {
    const r = await fetchUrl(`https://public.test:${tls.port}/page`, {
      proxyUrl: proxy.url,
      ca: tls.cert,
      lookup: noLookup.lookup,
    });
    expect(new TextDecoder().decode(r.bytes)).toBe(PAGE_HTML);
    expect(proxy.seen).toContain(`CONNECT public.test:${tls.port}`);
    expect(tls.requests.at(-1)).toEqual({ servername: "public.test", host: `public.test:${tls.port}` });
    expect(noLookup.asked).toEqual([]);
  });

  test("direct and pinned: the name's certificate is checked against the checked address", async () => {
    const asked: string[] = [];
    const lookup = async (h: string) => (asked.push(h), ["127.0.0.1"]);
    const r = await fetchUrl(`https://public.test:${tls.port}/page`, {
      allowHosts: ["public.test"],
      ca: tls.cert,
      lookup,
    });
    expect(r.status).toBe(200);
    expect(asked).toEqual(["public.test"]);
    expect(tls.requests.at(-1)?.servername).toBe("public.test");
  });

  test("a certificate for another name is a TLS error; an untrusted one too", async () => {
    const lookup = async () => ["127.0.0.1"];
    const wrong = (await failure(`https://other.test:${tls.port}/`, {
      allowPrivate: true,
      ca: tls.cert,
      lookup,
    })) as WebFetchError;
    expect(wrong.kind).toBe("tls");
    const untrusted = (await failure(`https://public.test:${tls.port}/`, {
      allowPrivate: true,
      lookup,
    })) as WebFetchError;
    expect(untrusted.kind).toBe("tls");
  });
});
