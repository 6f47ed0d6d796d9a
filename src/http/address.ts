/**
 * The HTTP endpoint's address (`config.http`: "host:port" or "[v6]:port") and the exposure rule: beyond loopback,
 * a bearer token is required.
 */
import ipaddr from "ipaddr.js";
import type { Config } from "../config.ts";
import { PegasError } from "../errors.ts";

/** A parsed listen address: `hostname` without brackets, `port` 0..65535 (0 = any free port). */
export interface HttpAddress {
  hostname: string;
  port: number;
}

/** Parses "host:port" or "[v6]:port". @throws PegasError INVALID_INPUT naming the value. */
export function parseHttpAddress(spec: string): HttpAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(spec.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) {
    throw new PegasError("INVALID_INPUT", `http address '${spec}' is not host:port with a port 0..65535`, {
      hint: "give e.g. 127.0.0.1:8765 or [::1]:8765 (--http, env PEGAS_HTTP)",
    });
  }
  const hostname = m[1] ?? m[2];
  if (m[1] && !ipaddr.IPv6.isValid(hostname)) {
    throw new PegasError("INVALID_INPUT", `http address '${spec}' has no valid IPv6 address in brackets`, {
      hint: "give e.g. [::1]:8765",
    });
  }
  return { hostname, port };
}

/** True for `localhost`, 127.0.0.0/8, ::1 and IPv4-mapped loopback; false for any other name or address (0.0.0.0 too). */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(h)) return false;
  let addr = ipaddr.parse(h);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === "loopback";
}

/**
 * The address to listen on, checked against the exposure rule.
 * @throws PegasError INVALID_INPUT when `config.http` is unset or malformed, or binds beyond loopback while no
 *   `http_token` (PEGAS_HTTP_TOKEN) is set.
 */
export function listenAddress(config: Pick<Config, "http" | "http_token">): HttpAddress & { loopback: boolean } {
  if (!config.http)
    throw new PegasError("INVALID_INPUT", "no HTTP address is configured", {
      hint: "give --http HOST:PORT or env PEGAS_HTTP",
    });
  const addr = parseHttpAddress(config.http);
  const loopback = isLoopback(addr.hostname);
  if (!loopback && !config.http_token) {
    throw new PegasError(
      "INVALID_INPUT",
      `refusing to serve HTTP on '${config.http}' (beyond loopback) without a bearer token: PEGAS_HTTP_TOKEN is not set`,
      {
        hint: "set PEGAS_HTTP_TOKEN (http_token, at least 16 characters) to a secret that clients send as 'Authorization: Bearer <token>', or bind to 127.0.0.1",
      },
    );
  }
  return { ...addr, loopback };
}

/** Host header values a loopback listener on `port` accepts (DNS-rebinding protection): its loopback names. */
export function loopbackHostHeaders(hostname: string, port: number): string[] {
  const names = new Set(["localhost", "127.0.0.1", "[::1]", hostname.includes(":") ? `[${hostname}]` : hostname]);
  return [...names].flatMap((n) => (port === 80 ? [n, `${n}:80`] : [`${n}:${port}`]));
}
