/**
 * The web fetcher of URL ingest: GET an http(s) URL with redirects, timeouts, a size cap, decompression, an
 * optional proxy and the SSRF guard on every hop.
 *
 * Decisions (issue 3, items 1–3):
 * - Only http and https; URLs with user:password are refused (the URL becomes the stored document's uri).
 * - Without a proxy, each hop's name is resolved here, every address is checked, and the socket is pinned to the
 *   checked addresses (no second DNS answer can be used); the Host header and TLS SNI keep the name.
 * - With a proxy, no local DNS lookup is made at all: IP literals and local names are checked, the proxy resolves
 *   the rest (`socks5://` is used as `socks5h://`, see proxy.ts). A public name that resolves to a private
 *   address *at the proxy* is beyond our sight: the proxy's own egress rules must cover that.
 * - A configured proxy that fails fails the fetch; there is no direct fallback.
 * - Redirects: 301/302/303/307/308 with a Location, at most `maxRedirects`; every hop is checked like the first.
 *   An https → http redirect is followed (as browsers do): nothing secret is sent, no cookies or credentials,
 *   and the final `url` shows the downgrade.
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { PegasError } from "../../errors.ts";
import type { ConditionalRequest, FetchedResource } from "../../ports/models/fetcher.ts";
import { log } from "../../log.ts";
import { VERSION } from "../../version.ts";
import { type GuardPolicy, checkHost, isIpLiteral, normalizeHost } from "./address-guard.ts";
import { contentCoding, decodeBody, readRawBody } from "./body.ts";
import { parseContentType } from "./content-type.ts";
import { displayUrl, limitError, networkError, statusError } from "./errors.ts";
import { type ProxySpec, parseProxyUrl, proxyAgent } from "./proxy.ts";
import { requestHead, withDeadline } from "./request.ts";
import { type Lookup, pinnedLookup, refusingLookup, resolveChecked, systemLookup } from "./resolve.ts";

/** Options of {@link fetchUrl}; every field is optional. Times are in ms, sizes in bytes. */
export interface FetchOptions {
  /** `socks5://`, `socks5h://`, `http://` or `https://` proxy; when set, every request goes through it. */
  proxyUrl?: string;
  /** Allow loopback, private, link-local… addresses (default false; tests allow loopback). Metadata stays refused. */
  allowPrivate?: boolean;
  /** Host names or IP literals exempted from the private-address refusal, e.g. an intranet wiki (default none). */
  allowHosts?: readonly string[];
  /** Per request (each redirect hop): DNS + connect + response headers (default 15000). */
  timeoutMs?: number;
  /** Whole body once the headers are in (default 60000). */
  bodyTimeoutMs?: number;
  /** Largest body, on the wire and after decompression (default 50 MiB). */
  maxBytes?: number;
  /** Most redirects followed (default 5); one more is LIMIT_EXCEEDED. */
  maxRedirects?: number;
  /** User-Agent header (default `pegas-memory/<version>`). */
  userAgent?: string;
  signal?: AbortSignal;
  /** Resolver for direct requests (default the system's); never called when a proxy is set. */
  lookup?: Lookup;
  /** Extra trusted CA certificates (PEM) for https, for private PKI and tests; the system roots stay trusted. */
  ca?: string | Uint8Array;
  /** Validators of a stored copy (RFC 9110 §13.1): sent as If-None-Match / If-Modified-Since; a 304 is returned. */
  conditional?: ConditionalRequest;
}

/** A fetched resource (the Fetcher port's shape). */
export type { FetchedResource };

interface Resolved {
  proxy?: ProxySpec;
  policy: GuardPolicy;
  timeoutMs: number;
  bodyTimeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  headers: Record<string, string>;
  signal?: AbortSignal;
  lookup: Lookup;
  ca?: string | Uint8Array;
  conditional: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function positive(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min)
    throw new PegasError("INVALID_INPUT", `fetch option ${name} must be ≥ ${min}, got ${value}`);
  return Math.floor(value);
}

function resolveOptions(o: FetchOptions): Resolved {
  return {
    proxy: o.proxyUrl ? parseProxyUrl(o.proxyUrl) : undefined,
    policy: { allowPrivate: o.allowPrivate === true, allowHosts: new Set((o.allowHosts ?? []).map(normalizeHost)) },
    timeoutMs: positive("timeoutMs", o.timeoutMs, 15_000),
    bodyTimeoutMs: positive("bodyTimeoutMs", o.bodyTimeoutMs, 60_000),
    maxBytes: positive("maxBytes", o.maxBytes, 50 * 1024 * 1024),
    maxRedirects: positive("maxRedirects", o.maxRedirects, 5, 0),
    headers: {
      "user-agent": o.userAgent ?? `pegas-memory/${VERSION}`,
      accept: "text/html,application/xhtml+xml,application/pdf,application/epub+zip,text/plain;q=0.9,*/*;q=0.8",
      "accept-encoding": "gzip, deflate, br",
      connection: "close",
      ...(o.conditional?.etag ? { "if-none-match": o.conditional.etag } : {}),
      ...(o.conditional?.lastModified ? { "if-modified-since": o.conditional.lastModified } : {}),
    },
    signal: o.signal,
    lookup: o.lookup ?? systemLookup,
    ca: o.ca,
    conditional: Boolean(o.conditional?.etag || o.conditional?.lastModified),
  };
}

/**
 * Parses and checks one hop's URL: http(s) only, no credentials, host allowed by the guard (see address-guard).
 * @throws PegasError INVALID_INPUT.
 */
function target(href: string, o: Resolved): URL {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new PegasError("INVALID_INPUT", `'${displayUrl(href)}' is not a valid URL`, {
      hint: "pass an absolute http(s) URL",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PegasError(
      "INVALID_INPUT",
      `refusing to fetch '${displayUrl(url)}': only http and https URLs are fetched`,
    );
  }
  if (url.username || url.password) {
    throw new PegasError("INVALID_INPUT", `refusing to fetch '${displayUrl(url)}': the URL holds credentials`, {
      hint: "remove user:password from the URL; it would be stored as the document's uri",
    });
  }
  url.hash = "";
  checkHost(url.href, normalizeHost(url.hostname), o.policy, o.proxy !== undefined);
  return url;
}

/** Opens one hop up to its headers: resolve + check + pin when direct, the proxy agent otherwise. */
async function openHop(url: URL, o: Resolved) {
  const deadline = Date.now() + o.timeoutMs;
  const host = normalizeHost(url.hostname);
  const https = url.protocol === "https:";
  const agent = o.proxy
    ? proxyAgent(o.proxy, url.protocol, o.timeoutMs)
    : https
      ? new HttpsAgent({ keepAlive: false })
      : new HttpAgent({ keepAlive: false });
  let lookup = refusingLookup;
  if (!o.proxy && !isIpLiteral(host)) {
    // The guard's own refusals pass through; a resolver failure becomes a DNS error naming the URL.
    const resolving = Promise.resolve()
      .then(() => resolveChecked(url.href, host, o.lookup, o.policy))
      .catch((e: unknown) => Promise.reject(e instanceof PegasError ? e : networkError(url.href, e)));
    lookup = pinnedLookup(host, await withDeadline(resolving, url.href, deadline, o.timeoutMs, o.signal));
  }
  const res = await requestHead({
    url,
    agent,
    lookup,
    headers: o.headers,
    deadline,
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    proxy: o.proxy?.shown,
    ca: o.ca,
  });
  log.debug("web response", { url: displayUrl(url), status: res.statusCode, via: o.proxy?.shown ?? "direct" });
  return res;
}

/** A Location header resolved against the URL that sent it (RFC 9110 §10.2.2: it may be relative). */
function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new PegasError(
      "INVALID_INPUT",
      `'${displayUrl(base)}' redirects to an invalid URL '${location.replace(/\/\/[^/@]*@/, "//").slice(0, 200)}'`,
      {
        hint: "the site sent a broken redirect; open the target page's URL directly",
      },
    );
  }
}

function flatHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/**
 * Fetches `url` (GET) and returns the decoded body with its facts; with `conditional` validators, a 304 answer is
 * returned as status 304 with no bytes.
 * @throws PegasError INVALID_INPUT (bad URL, non-http(s), credentials, forbidden address, bad proxy URL or options),
 *   LIMIT_EXCEEDED (too many redirects, body or decoded body over `maxBytes`), UNSUPPORTED_MEDIA (unknown or
 *   corrupt Content-Encoding), CANCELLED (signal), NOT_FOUND (404/410, as a WebFetchError), and WebFetchError for
 *   other HTTP statuses ≥ 300 that are not followed, timeouts, DNS, connection, TLS and proxy failures.
 */
export async function fetchUrl(url: string, opts: FetchOptions = {}): Promise<FetchedResource> {
  const o = resolveOptions(opts);
  let current = target(url, o);
  const redirects: string[] = [];
  for (let hop = 0; hop <= o.maxRedirects + 1; hop++) {
    const res = await openHop(current, o);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      res.destroy();
      if (redirects.length >= o.maxRedirects) {
        throw limitError(
          current.href,
          `more than ${o.maxRedirects} redirects`,
          "open the final URL directly, or it loops",
        );
      }
      redirects.push(current.href);
      const next = target(resolveLocation(location, current), o);
      if (current.protocol === "https:" && next.protocol === "http:")
        log.debug("redirect downgrades to http", { url: displayUrl(next) });
      current = next;
      continue;
    }
    if (status === 304 && o.conditional) {
      res.destroy(); // not modified: the stored copy is current, there is no body
      return {
        url: current.href,
        status,
        mediaType: "",
        bytes: new Uint8Array(),
        headers: flatHeaders(res.headers),
        redirects,
      };
    }
    if (status < 200 || status >= 300) {
      res.destroy();
      throw statusError(current.href, status, res.headers["retry-after"]);
    }
    const limits = {
      url: current.href,
      maxBytes: o.maxBytes,
      bodyTimeoutMs: o.bodyTimeoutMs,
      signal: o.signal,
      proxy: o.proxy?.shown,
    };
    let coding: string;
    try {
      coding = contentCoding(current.href, res.headers["content-encoding"]);
    } catch (err) {
      res.destroy();
      throw err;
    }
    const bytes = await decodeBody(await readRawBody(res, limits), coding, limits);
    const { mediaType, charset } = parseContentType(res.headers["content-type"]);
    return { url: current.href, status, mediaType, charset, bytes, headers: flatHeaders(res.headers), redirects };
  }
  throw new PegasError("INTERNAL", `redirect loop of '${displayUrl(url)}' was not bounded`);
}
