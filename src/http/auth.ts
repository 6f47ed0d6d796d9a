/**
 * Bearer-token check of the HTTP endpoint (`http_token`, env PEGAS_HTTP_TOKEN): constant-time, answering 401 with a
 * `WWW-Authenticate` challenge (RFC 6750) and a JSON-RPC error body, which MCP clients show as is.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

const digest = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();

/**
 * True when the request's `Authorization: Bearer <token>` equals `token`. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or content of the guess.
 */
export function hasToken(authorization: string | undefined | null, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  const given = digest(m ? m[1] : "");
  return timingSafeEqual(given, digest(token)) && m !== null;
}

/** The 401 answer: a JSON-RPC error (id null) and the challenge naming what is wrong. */
export function unauthorized(hadHeader: boolean): Response {
  const error = hadHeader ? "invalid_token" : "invalid_request";
  const message = hadHeader
    ? "the bearer token is wrong; send the server's PEGAS_HTTP_TOKEN as 'Authorization: Bearer <token>'"
    : "this endpoint needs 'Authorization: Bearer <token>' (the server's PEGAS_HTTP_TOKEN)";
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }), {
    status: 401,
    headers: {
      "content-type": "application/json",
      "www-authenticate": `Bearer realm="pegas-memory", error="${error}"`,
    },
  });
}

/** Middleware that lets a request through only with the right token; a no-op when `token` is undefined. */
export function requireToken(token: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (token === undefined) return next();
    const header = c.req.header("authorization");
    if (!hasToken(header, token)) return unauthorized(header !== undefined);
    return next();
  };
}
