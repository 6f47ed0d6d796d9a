/**
 * Proxy agents for `node:http`/`node:https` (Bun's fetch refuses SOCKS proxies: DESIGN.md). SOCKS5 (RFC 1928)
 * goes through `socks-proxy-agent`; HTTP proxies through `http-proxy-agent` (plain http targets, absolute-form
 * requests) and `https-proxy-agent` (https targets, CONNECT tunnel). A configured proxy is always used: there is
 * no code path from here to a direct connection, and a proxy that fails fails the fetch.
 *
 * `socks5://` is treated as `socks5h://`: the target name goes to the proxy (RFC 1928 ATYP 3, DOMAINNAME) instead
 * of being resolved here first, because a local lookup would leak the name around the proxy (issue 3, "no local
 * DNS lookup is made"). Proxies that cannot resolve names are rare; use an IP-literal URL with those.
 */
import type { Agent } from "node:http";
import { HttpProxyAgent } from "http-proxy-agent";
import { HttpsProxyAgent } from "https-proxy-agent";
import { SocksProxyAgent } from "socks-proxy-agent";
import { PegasError } from "../../errors.ts";
import { log } from "../../log.ts";

/** A validated proxy: `url` as configured (may hold credentials), `shown` without them, for messages. */
export interface ProxySpec {
  readonly url: URL;
  readonly scheme: "socks5" | "socks5h" | "http" | "https";
  readonly shown: string;
}

const SCHEMES = new Set(["socks5", "socks5h", "http", "https"]);
const DEFAULT_PORTS: Record<ProxySpec["scheme"], string> = {
  socks5: "1080",
  socks5h: "1080",
  http: "80",
  https: "443",
};

/**
 * Parses and validates a proxy URL (`socks5://`, `socks5h://`, `http://`, `https://`, optional user:password).
 * @throws PegasError INVALID_INPUT for anything else, with the proxy shown without credentials.
 */
export function parseProxyUrl(proxyUrl: string): ProxySpec {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new PegasError("INVALID_INPUT", `proxy URL '${proxyUrl.replace(/\/\/[^/@]*@/, "//")}' is not a URL`, {
      hint: "set proxy_url / PROXY_URL like socks5h://127.0.0.1:1080 or http://proxy:3128",
    });
  }
  const scheme = url.protocol.replace(/:$/, "");
  const shown = `${scheme}://${url.host || "(no host)"}`;
  if (!SCHEMES.has(scheme) || !url.hostname) {
    throw new PegasError(
      "INVALID_INPUT",
      `proxy URL '${shown}' is not usable: need socks5, socks5h, http or https with a host`,
      {
        hint: "set proxy_url / PROXY_URL like socks5h://127.0.0.1:1080 or http://proxy:3128",
      },
    );
  }
  const s = scheme as ProxySpec["scheme"];
  return {
    url,
    scheme: s,
    shown: `${scheme}://${url.hostname.includes(":") ? url.host : url.hostname}:${url.port || DEFAULT_PORTS[s]}`,
  };
}

let warnedSocks5 = false;

/**
 * The agent that carries one request to a `targetProtocol` (`http:` or `https:`) URL through `proxy`.
 * `timeoutMs` bounds the SOCKS handshake (and is the idle timeout of its socket); `keepAlive` is off, so no
 * connection outlives its fetch.
 */
export function proxyAgent(proxy: ProxySpec, targetProtocol: string, timeoutMs: number): Agent {
  if (proxy.scheme === "socks5" || proxy.scheme === "socks5h") {
    const url = new URL(proxy.url.href);
    if (proxy.scheme === "socks5") {
      url.protocol = "socks5h:";
      if (!warnedSocks5)
        log.info("socks5:// proxy: target names are resolved by the proxy (as socks5h://)", { proxy: proxy.shown });
      warnedSocks5 = true;
    }
    return new SocksProxyAgent(url, { timeout: timeoutMs, keepAlive: false });
  }
  return targetProtocol === "https:"
    ? new HttpsProxyAgent(proxy.url, { keepAlive: false })
    : new HttpProxyAgent(proxy.url, { keepAlive: false });
}
