/**
 * The Origin check of /mcp (MCP transport spec 2025-06-18 and 2025-11-25, "Security Warning": servers MUST validate
 * the Origin header of every incoming connection to prevent DNS rebinding, and answer 403 when it is invalid). A
 * request without Origin — every CLI and SDK client; browsers always send one on a cross-origin fetch — passes, as
 * does a loopback origin (`http://localhost:5173`, `http://127.0.0.1`, `http://[::1]:8080`, any port and scheme);
 * any other only when `allowed_origins` (env PEGAS_ALLOWED_ORIGINS) lists it, or lists `*`. The admin page (/ui) has
 * its own, stricter rule (src/ui/security.ts): same origin and a CSRF token.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { log } from "../log.ts";
import { isLoopback } from "./address.ts";
import { countRefused } from "./metrics.ts";
import { rpcError } from "./rpc.ts";

/**
 * An origin in the form browsers send it, for comparison: http(s) origins as `URL.origin` writes them (lower case,
 * default port dropped, no trailing slash); any other scheme (`vscode-webview://…`) lower-cased without a trailing
 * slash; null when `origin` is not `scheme://host…` at all (`null`, the opaque origin of sandboxed pages, is not).
 */
export function normalizeOrigin(origin: string): string | null {
  const o = origin.trim().replace(/\/$/, "");
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+$/i.test(o)) return null;
  if (/^https?:/i.test(o)) {
    try {
      return new URL(o).origin.toLowerCase();
    } catch {
      return null;
    }
  }
  return o.toLowerCase();
}

/** True when `origin` is http(s) on a loopback name or address (any port). */
function loopbackOrigin(origin: string): boolean {
  if (!/^https?:\/\//.test(origin)) return false;
  return isLoopback(new URL(origin).hostname.replace(/^\[(.*)\]$/, "$1"));
}

/** True when `origin` is one `allowed` lists (or `allowed` holds `*`): such a page also gets CORS answers. */
function listed(origin: string, allowed: readonly string[]): boolean {
  const o = normalizeOrigin(origin);
  return o !== null && allowed.some((a) => a === "*" || normalizeOrigin(a) === o);
}

/**
 * Why a request with this Origin header is refused, or null when it may go on: absent → null; loopback → null;
 * listed in `allowed` (origins as in the configuration, or `*`) → null; anything else → the reason.
 */
export function originRefusal(origin: string | undefined | null, allowed: readonly string[]): string | null {
  if (origin === undefined || origin === null) return null;
  const o = normalizeOrigin(origin);
  if (o !== null && (loopbackOrigin(o) || listed(o, allowed))) return null;
  return (
    `Forbidden: Origin '${origin.slice(0, 100)}' may not use this MCP endpoint; only requests without Origin, ` +
    "from loopback origins and from those listed in allowed_origins (env PEGAS_ALLOWED_ORIGINS) are served"
  );
}

/** Middleware answering 403 with a JSON-RPC error (id null) when {@link originRefusal} refuses the request's Origin. */
export function requireOrigin(allowed: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const why = originRefusal(c.req.header("origin"), allowed);
    if (why === null) return next();
    countRefused("origin");
    log.info("mcp request refused: Origin not allowed", { origin: c.req.header("origin")?.slice(0, 100) });
    return rpcError(403, -32000, why);
  };
}

/**
 * CORS for the pages of the origins `allowed` lists, so that a browser lets them call /mcp (a JSON POST is preflighted):
 * `OPTIONS` is answered 204 with the methods and the MCP headers allowed (before the token check: a preflight
 * carries no token), other answers name the origin and expose `Mcp-Session-Id`. Loopback origins, admitted by
 * {@link requireOrigin} without being listed, get no CORS headers, so a browser keeps their pages from calling or
 * reading /mcp unless they are listed too.
 */
export function mcpCors(allowed: readonly string[]): MiddlewareHandler {
  return cors({
    origin: (origin) => (listed(origin, allowed) ? origin : null),
    allowMethods: ["GET", "POST", "DELETE"],
    allowHeaders: [
      "content-type",
      "accept",
      "authorization",
      "mcp-session-id",
      "mcp-protocol-version",
      "last-event-id",
    ],
    exposeHeaders: ["mcp-session-id", "mcp-protocol-version", "www-authenticate", "retry-after"],
    maxAge: 600,
  });
}
