/**
 * fetchUrl without a proxy, against loopback servers only: pages and charsets, redirects, the SSRF guard on the
 * first request and on every redirect (a sentinel server must see nothing), DNS pinning, size caps and zip bombs,
 * timeouts, cancellation and HTTP errors. Private and public addresses other than loopback appear only in
 * injected lookups that are refused before any connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { WebFetchError } from "../../src/adapters/web/errors.ts";
import { type FetchOptions, fetchUrl } from "../../src/adapters/web/fetch.ts";
import { PegasError } from "../../src/errors.ts";
import { CYRILLIC, type HttpTarget, PAGE_HTML, startHttpTarget } from "../support/http-target.ts";
import { freePort } from "../support/socks-microsocks.ts";

let target: HttpTarget;
let sentinel: HttpTarget;
beforeAll(async () => {
  target = await startHttpTarget();
  sentinel = await startHttpTarget();
});
afterAll(async () => {
  await target.stop();
  await sentinel.stop();
});

/** The error fetchUrl rejects with (fails the test when it resolves). */
async function failure(url: string, opts: FetchOptions): Promise<PegasError> {
  const err = await fetchUrl(url, opts).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PegasError);
  expect((err as Error).message).not.toContain("    at ");
  return err as PegasError;
}

/** A lookup that answers from a table and records what it was asked. */
function tableLookup(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found;
  };
  return { asked, lookup };
}

const loopback: FetchOptions = { allowPrivate: true };
const text = (b: Uint8Array, enc = "utf-8") =>
  new TextDecoder(enc as ConstructorParameters<typeof TextDecoder>[0]).decode(b);

describe("pages", () => {
  test("a page: status, media type, charset, bytes, headers", async () => {
    const r = await fetchUrl(`${target.url}/page`, loopback);
    expect(r).toMatchObject({
      url: `${target.url}/page`,
      status: 200,
      mediaType: "text/html",
      charset: "utf-8",
      redirects: [],
    });
    expect(text(r.bytes)).toBe(PAGE_HTML);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  test("a windows-1251 page keeps its bytes and reports the header's charset", async () => {
    const r = await fetchUrl(`${target.url}/cp1251`, loopback);
    expect(r.charset).toBe("windows-1251");
    expect(text(r.bytes, r.charset)).toContain(CYRILLIC);
    expect(text(r.bytes)).not.toContain(CYRILLIC);
  });

  test("no Content-Type gives an empty media type", async () => {
    const r = await fetchUrl(`${target.url}/no-type`, loopback);
    expect(r.mediaType).toBe("");
    expect(r.charset).toBeUndefined();
  });

  test.each(["/gzip", "/br", "/deflate", "/deflate-raw"])("%s is decoded", async (path) => {
    expect(text((await fetchUrl(`${target.url}${path}`, loopback)).bytes)).toBe(PAGE_HTML);
  });
});

describe("redirects", () => {
  test("3 hops are followed, relative Locations resolved, the chain reported", async () => {
    const r = await fetchUrl(`${target.url}/chain/3`, loopback);
    expect(r.url).toBe(`${target.url}/chain/0`);
    expect(r.redirects).toEqual([3, 2, 1].map((n) => `${target.url}/chain/${n}`));
  });

  test("5 hops are the limit; the 6th redirect is LIMIT_EXCEEDED and not followed", async () => {
    expect((await fetchUrl(`${target.url}/chain/5`, loopback)).redirects).toHaveLength(5);
    const before = target.requests.length;
    const err = await failure(`${target.url}/chain/6`, loopback);
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain("more than 5 redirects");
    expect(target.requests.slice(before).map((r) => r.path)).toEqual([6, 5, 4, 3, 2, 1].map((n) => `/chain/${n}`));
  });

  test("a broken Location is INVALID_INPUT naming the redirecting URL", async () => {
    const err = await failure(`${target.url}/to?u=${encodeURIComponent("http://u:pw@[bad")}`, loopback);
    expect(err.code).toBe("INVALID_INPUT");
    expect(err.message).toContain("redirects to an invalid URL 'http://[bad'");
  });

  test("a redirect loop ends with LIMIT_EXCEEDED", async () => {
    expect((await failure(`${target.url}/loop`, { ...loopback, maxRedirects: 2 })).code).toBe("LIMIT_EXCEEDED");
  });
});

describe("SSRF guard, direct", () => {
  test("loopback is refused on the first request unless allowed; nothing connects", async () => {
    const err = await failure(`${sentinel.url}/x`, {});
    expect(err.code).toBe("INVALID_INPUT");
    expect(err.message).toContain("loopback");
    expect(sentinel.requests).toHaveLength(0);
  });

  test("a name is refused when any of its addresses is private (checked before connecting)", async () => {
    const { lookup } = tableLookup({ "mixed.test": ["93.184.216.34", "10.0.0.1"], "loop.test": ["127.0.0.1"] });
    expect((await failure("http://mixed.test/", { lookup })).message).toContain(
      "'mixed.test' resolves to 10.0.0.1, a private address",
    );
    expect((await failure(`http://loop.test:${sentinel.port}/`, { lookup })).message).toContain("loopback");
    expect(sentinel.requests).toHaveLength(0);
  });

  // public.test is exempted by name (allowHosts), so hop 1 reaches the loopback server; every redirect target
  // below meets the real check.
  const viaPublic = (to: string) => `http://public.test:${target.port}/to?u=${encodeURIComponent(to)}`;
  test.each([
    ["an IPv4 loopback literal", () => `http://127.0.0.1:${sentinel.port}/x`, "loopback"],
    ["an IPv6 loopback literal", () => `http://[::1]:${sentinel.port}/x`, "loopback"],
    ["an IPv4-mapped loopback", () => `http://[::ffff:127.0.0.1]:${sentinel.port}/x`, "ipv4Mapped/loopback"],
    ["a name resolving to 10.0.0.1", () => `http://intranet.test:${sentinel.port}/x`, "private"],
    ["localhost", () => `http://localhost:${sentinel.port}/x`, "loopback"],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/", "metadata"],
    ["the GCP metadata name", () => "http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["a file URL", () => "file:///etc/passwd", "only http and https"],
  ])("a redirect to %s is refused", async (_name, to, why) => {
    const { lookup, asked } = tableLookup({
      "public.test": ["127.0.0.1"],
      "intranet.test": ["10.0.0.1"],
      localhost: ["127.0.0.1", "::1"],
    });
    const err = await failure(viaPublic(to()), { lookup, allowHosts: ["public.test"] });
    expect(err.code).toBe("INVALID_INPUT");
    expect(err.message).toContain(why);
    expect(asked[0]).toBe("public.test");
    expect(sentinel.requests).toHaveLength(0);
  });

  test("redirects inside the exempted host are followed", async () => {
    const { lookup, asked } = tableLookup({ "public.test": ["127.0.0.1"] });
    const r = await fetchUrl(`http://public.test:${target.port}/chain/2`, { lookup, allowHosts: ["public.test"] });
    expect(r.redirects).toHaveLength(2);
    expect(asked).toEqual(["public.test", "public.test", "public.test"]);
  });

  test("the connection is pinned to the checked address and keeps the name in Host", async () => {
    const twin = await startTwin(target.port);
    try {
      const { lookup, asked } = tableLookup({ "pin.test": ["127.0.0.2"] });
      const before = target.requests.length;
      await fetchUrl(`http://pin.test:${target.port}/page`, { ...loopback, lookup });
      expect(asked).toEqual(["pin.test"]);
      expect(twin.requests).toEqual([{ path: "/page", host: `pin.test:${target.port}`, remoteAddress: "127.0.0.1" }]);
      expect(target.requests.length).toBe(before);
    } finally {
      await twin.stop();
    }
  });

  test("URLs with credentials or other schemes are refused without echoing the password", async () => {
    const err = await failure(`http://user:hunter2@127.0.0.1:${sentinel.port}/`, loopback);
    expect(err.message).toContain("credentials");
    expect(err.message).not.toContain("hunter2");
    expect((await failure("ftp://example.com/x", {})).code).toBe("INVALID_INPUT");
    expect((await failure("not a url", {})).code).toBe("INVALID_INPUT");
    expect(sentinel.requests).toHaveLength(0);
  });
});

/** A second server on 127.0.0.2 at the same port, to see where a pinned connection lands. */
async function startTwin(port: number): Promise<HttpTarget> {
  return startHttpTarget("127.0.0.2", port);
}

describe("limits", () => {
  test("Content-Length over maxBytes is refused before reading", async () => {
    const err = await failure(`${target.url}/big`, { ...loopback, maxBytes: 1024 });
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain("Content-Length 2048 exceeds the limit max_input_bytes of 1024 bytes");
    expect(err.userMessage).toContain("raise max_input_bytes in the config file");
  });

  test("a streamed body over maxBytes is cut", async () => {
    const err = await failure(`${target.url}/big-chunked`, { ...loopback, maxBytes: 1024 });
    expect(err.message).toContain("the body exceeds the limit max_input_bytes of 1024 bytes");
  });

  test.each(["gzip", "br"])("a %s bomb stops at maxBytes of decoded output", async (coding) => {
    const err = await failure(`${target.url}/${coding}-bomb`, { ...loopback, maxBytes: 1 << 20 });
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain(`${coding}-decoded body exceeds`);
  });

  test("a truncated gzip body and an unknown coding are UNSUPPORTED_MEDIA", async () => {
    expect((await failure(`${target.url}/gzip-truncated`, loopback)).code).toBe("UNSUPPORTED_MEDIA");
    expect((await failure(`${target.url}/zstd`, loopback)).message).toContain("Content-Encoding 'zstd'");
  });

  test("a body cut short by the server is an error, not a short success", async () => {
    const err = (await failure(`${target.url}/truncated`, loopback)) as WebFetchError;
    expect(err).toBeInstanceOf(WebFetchError);
    expect(err.message).toContain(`${target.url}/truncated`);
  });
});

describe("timeouts, cancellation, statuses", () => {
  test("headers that never come time out, naming the URL", async () => {
    const err = (await failure(`${target.url}/slow-headers`, { ...loopback, timeoutMs: 300 })) as WebFetchError;
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe(`'${target.url}/slow-headers' did not connect and send its headers within 300 ms`);
  });

  test("a stalled body times out", async () => {
    const err = (await failure(`${target.url}/slow-body`, { ...loopback, bodyTimeoutMs: 300 })) as WebFetchError;
    expect(err.kind).toBe("timeout");
    expect(err.message).toContain("whole body within 300 ms");
  });

  test("an AbortSignal cancels, before or during the request", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect((await failure(`${target.url}/slow-headers`, { ...loopback, signal: ac.signal })).code).toBe("CANCELLED");
    const before = sentinel.requests.length;
    expect((await failure(`${sentinel.url}/x`, { ...loopback, signal: AbortSignal.abort() })).code).toBe("CANCELLED");
    expect(sentinel.requests.length).toBe(before);
  });

  test("403 is a blocked WebFetchError with its status and Retry-After", async () => {
    const err = (await failure(`${target.url}/status/403`, loopback)) as WebFetchError;
    expect(err).toBeInstanceOf(WebFetchError);
    expect(err).toMatchObject({ status: 403, blocked: true, retryAfter: "120", kind: "status" });
    expect(err.userMessage).toContain("snippet");
  });

  test("404 is NOT_FOUND, 500 is not blocked", async () => {
    expect(await failure(`${target.url}/nothing`, loopback)).toMatchObject({
      code: "NOT_FOUND",
      status: 404,
      blocked: false,
    });
    expect(await failure(`${target.url}/status/500`, loopback)).toMatchObject({ status: 500, blocked: false });
  });

  test("DNS and connection failures name the URL", async () => {
    const { lookup } = tableLookup({});
    expect(await failure("http://nowhere.test/", { lookup })).toMatchObject({ kind: "dns" });
    const port = await freePort();
    const err = (await failure(`http://127.0.0.1:${port}/`, loopback)) as WebFetchError;
    expect(err.kind).toBe("network");
    expect(err.message).toContain(`http://127.0.0.1:${port}/`);
  });
});
