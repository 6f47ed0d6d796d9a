/**
 * fetchUrl through a real SOCKS5 server (RFC 1928): Debian's microsocks on loopback, whose outgoing connections
 * are bound to 127.0.0.2. The target server records each peer address, so any request from elsewhere is a
 * direct connection that went around the proxy (the sentinel count must stay 0). microsocks' log shows whether it
 * received the name (remote resolution) or an address. Skipped, with the reason, when microsocks is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WebFetchError } from "../../src/adapters/web/errors.ts";
import { type FetchOptions, fetchUrl } from "../../src/adapters/web/fetch.ts";
import { PegasError } from "../../src/errors.ts";
import { type HttpTarget, PAGE_HTML, startHttpTarget } from "../support/http-target.ts";
import { type Microsocks, freePort, microsocksPath, startMicrosocks } from "../support/socks-microsocks.ts";

const missing = microsocksPath() ? null : "microsocks is not on PATH (install it: apt-get install -y microsocks)";
if (missing) console.warn(`skipping SOCKS5 tests: ${missing}`);

describe.skipIf(missing !== null)("SOCKS5 proxy (microsocks)", () => {
  let target: HttpTarget;
  let socks: Microsocks;
  beforeAll(async () => {
    target = await startHttpTarget();
    socks = await startMicrosocks("127.0.0.2");
  });
  afterAll(async () => {
    await socks?.stop();
    await target?.stop();
  });

  /** Requests that reached the target from anywhere but the proxy's bind address: must stay empty. */
  const direct = () => target.requests.filter((r) => r.remoteAddress !== socks.bindAddress);

  /** A lookup that must never be called: with a proxy no name is resolved locally. */
  function spyLookup() {
    const asked: string[] = [];
    return { asked, lookup: async (host: string) => (asked.push(host), ["127.0.0.1"]) };
  }

  async function failure(url: string, opts: FetchOptions): Promise<PegasError> {
    const err = await fetchUrl(url, opts).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PegasError);
    return err as PegasError;
  }

  test.each(["socks5h", "socks5"])(
    "%s:// carries the fetch; the proxy resolves the name; no local lookup",
    async (scheme) => {
      const spy = spyLookup();
      const logBefore = socks.log.length;
      const before = target.requests.length;
      const r = await fetchUrl(`http://localhost:${target.port}/page`, {
        proxyUrl: `${scheme}://127.0.0.1:${socks.port}`,
        allowPrivate: true,
        lookup: spy.lookup,
      });
      expect(new TextDecoder().decode(r.bytes)).toBe(PAGE_HTML);
      expect(spy.asked).toEqual([]);
      // microsocks got the name itself (ATYP DOMAINNAME), not an address resolved here.
      expect(socks.log.slice(logBefore).join("\n")).toContain(`connected to localhost:${target.port}`);
      expect(target.requests.slice(before)).toEqual([
        { path: "/page", host: `localhost:${target.port}`, remoteAddress: "127.0.0.2" },
      ]);
      expect(direct()).toEqual([]);
    },
  );

  test("every redirect hop goes through the proxy too", async () => {
    const before = target.requests.length;
    const r = await fetchUrl(`http://127.0.0.1:${target.port}/chain/3`, {
      proxyUrl: `socks5h://127.0.0.1:${socks.port}`,
      allowPrivate: true,
    });
    expect(r.redirects).toHaveLength(3);
    expect(target.requests.slice(before).map((q) => q.remoteAddress)).toEqual(Array(4).fill("127.0.0.2"));
    expect(direct()).toEqual([]);
  });

  test("an unusable proxy fails the fetch and nothing goes direct", async () => {
    const closed = await freePort();
    const spy = spyLookup();
    const before = target.requests.length;
    const err = (await failure(`http://localhost:${target.port}/page`, {
      proxyUrl: `socks5h://user:s3cret@127.0.0.1:${closed}`,
      allowPrivate: true,
      lookup: spy.lookup,
    })) as WebFetchError;
    expect(err).toBeInstanceOf(WebFetchError);
    expect(err.kind).toBe("proxy");
    expect(err.message).toContain(`through proxy 'socks5h://127.0.0.1:${closed}'`);
    expect(err.userMessage).toContain("no direct connection is ever tried");
    expect(err.userMessage).not.toContain("s3cret");
    expect(target.requests.length).toBe(before);
    expect(spy.asked).toEqual([]);
  });

  test("a proxy that cannot reach the target fails; the target sees nothing", async () => {
    const closed = await freePort();
    const err = (await failure(`http://127.0.0.1:${closed}/`, {
      proxyUrl: `socks5h://127.0.0.1:${socks.port}`,
      allowPrivate: true,
    })) as WebFetchError;
    expect(err.kind).toBe("proxy");
    expect(direct()).toEqual([]);
  });

  test("with a proxy, loopback literals and local names are refused before the proxy is asked", async () => {
    const spy = spyLookup();
    const logBefore = socks.log.length;
    const proxyUrl = `socks5h://127.0.0.1:${socks.port}`;
    for (const url of [
      `http://127.0.0.1:${target.port}/`,
      `http://localhost:${target.port}/`,
      `http://[::1]:${target.port}/`,
      "http://db.internal/",
    ]) {
      expect((await failure(url, { proxyUrl, lookup: spy.lookup })).code).toBe("INVALID_INPUT");
    }
    expect(spy.asked).toEqual([]);
    expect(socks.log.length).toBe(logBefore);
    expect(direct()).toEqual([]);
  });

  test("a redirect to a local name is refused through the proxy as well", async () => {
    const before = target.requests.length;
    const to = encodeURIComponent(`http://localhost:${target.port}/page`);
    // Hop 1 is allowed by name (allowHosts), hop 2 meets the local-name check.
    const err = await failure(`http://127.0.0.1:${target.port}/to?u=${to}`, {
      proxyUrl: `socks5h://127.0.0.1:${socks.port}`,
      allowHosts: ["127.0.0.1"],
    });
    expect(err.message).toContain("'localhost' is localhost");
    expect(target.requests.slice(before).map((q) => q.path)).toEqual([`/to?u=${to}`]);
  });
});
