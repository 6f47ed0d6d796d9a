/**
 * `pegas-memory healthcheck [--url U]`: the container HEALTHCHECK of an image without curl. GETs the running server's
 * `/healthz` (from `http` = host:port, a wildcard bind address probed on loopback; `--url` overrides, meaning its
 * /healthz when it has no path) with a 3 s deadline; exit 0 on HTTP 200, else 1 with the reason on stderr. No database
 * access, no proxy (node:http, so that HTTP_PROXY in a container's environment cannot reroute a loopback probe), never
 * a token (/healthz needs none).
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Config } from "../config.ts";
import { invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { out } from "./output.ts";

/** Deadline of the probe, ms (Docker's own HEALTHCHECK timeout defaults to 30 s). */
export const HEALTHCHECK_TIMEOUT_MS = 3000;

/**
 * The URL to probe: `override` (http or https; without a path, i.e. `http://host:port` or `…:port/`, its `/healthz`),
 * else `http://<host>:<port>/healthz` from `http`, with the wildcard addresses 0.0.0.0 → 127.0.0.1 and [::] → [::1].
 * @throws PegasError INVALID_INPUT when neither is set or the URL is not http(s).
 */
export function healthzUrl(http: string | undefined, override?: string): string {
  if (override !== undefined) {
    let u: URL;
    try {
      u = new URL(override);
    } catch {
      throw invalidInput(`--url '${override}' is not a URL`, "give e.g. --url http://127.0.0.1:8765/healthz");
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw invalidInput(`--url '${override}' is not http(s)`);
    // The server's root is no health endpoint (404): a bare address means its /healthz.
    if (u.pathname === "/") u.pathname = "/healthz";
    return u.href;
  }
  if (!http) {
    throw invalidInput(
      "no server address to probe: neither --url nor http (PEGAS_HTTP) is set",
      "set PEGAS_HTTP=host:port as for `serve --http`, or give --url http://host:port/healthz",
    );
  }
  const m = /^(.*):(\d+)$/.exec(http);
  if (!m) throw invalidInput(`http '${http}' is not host:port`);
  const host = m[1] === "0.0.0.0" ? "127.0.0.1" : m[1] === "[::]" ? "[::1]" : m[1];
  return `http://${host}:${m[2]}/healthz`;
}

/** GETs `url`; resolves the status and the first 200 characters of the body. @throws network errors and the deadline. */
export function probeHealthz(
  url: string,
  timeoutMs = HEALTHCHECK_TIMEOUT_MS,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith("https:") ? httpsRequest : httpRequest)(
      url,
      { method: "GET", timeout: timeoutMs, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (body.length < 200) body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: body.slice(0, 200) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

/** `healthcheck`: 0 when /healthz answers 200, else 1 (reason on stderr). Never throws. */
export async function runHealthcheck(config: Config, cli: Cli): Promise<number> {
  let url: string;
  try {
    url = healthzUrl(config.http, cli.values.url as string | undefined);
  } catch (err) {
    const e = err as Error & { hint?: string };
    process.stderr.write(`healthcheck: ${e.message}${e.hint ? `. ${e.hint}` : ""}\n`);
    return 1;
  }
  try {
    const r = await probeHealthz(url);
    if (r.status === 200) {
      out(`healthy: ${url} answered 200`);
      return 0;
    }
    process.stderr.write(
      `healthcheck: ${url} answered HTTP ${r.status}${r.body ? `: ${r.body.replace(/\s+/g, " ").trim()}` : ""}\n`,
    );
  } catch (err) {
    const e = err as Error & { code?: string };
    process.stderr.write(
      `healthcheck: cannot reach ${url}: ${e.code && !e.message.includes(e.code) ? `${e.code} ` : ""}${e.message}\n`,
    );
  }
  return 1;
}
