/**
 * Errors of the web fetcher. Every failure becomes a {@link PegasError} whose message names the URL (never its
 * credentials, never a stack trace) and whose hint says what to do; HTTP statuses ≥ 400 and network failures
 * become a {@link WebFetchError} that also keeps the status, so a caller can store the agent's snippet instead.
 */
import { type ErrorCode, PegasError } from "../../errors.ts";

/**
 * Code for failures of the network or of the remote server (DNS, refused connections, unusable proxy, timeouts,
 * HTTP 5xx/403/429…): NETWORK_FAILED (STORE_UNAVAILABLE and INDEX_UNAVAILABLE name our own backends).
 */
export const NETWORK_ERROR_CODE: ErrorCode = "NETWORK_FAILED";

/** What went wrong, for callers that branch without parsing messages. */
export type WebFailureKind = "status" | "timeout" | "network" | "proxy" | "tls" | "dns";

/** HTTP statuses that usually mean "a bot wall, a login or a rate limit", not "no such page". */
const BLOCKED_STATUSES = new Set([401, 403, 407, 429, 451]);

/** True for statuses that typically mark a blocked page (401, 403, 407, 429, 451). */
export function isBlockedStatus(status: number): boolean {
  return BLOCKED_STATUSES.has(status);
}

/**
 * A failed fetch with its facts kept: `url` (credentials removed), `kind`, and for `kind: "status"` the HTTP
 * `status`, `blocked` (see {@link isBlockedStatus}) and `retryAfter` (the raw Retry-After header, if any).
 */
export class WebFetchError extends PegasError {
  readonly url: string;
  readonly kind: WebFailureKind;
  readonly status?: number;
  readonly blocked: boolean;
  readonly retryAfter?: string;

  constructor(
    code: ErrorCode,
    message: string,
    facts: { url: string; kind: WebFailureKind; status?: number; retryAfter?: string; hint?: string; cause?: unknown },
  ) {
    super(code, message, { hint: facts.hint, cause: facts.cause });
    this.name = "WebFetchError";
    this.url = facts.url;
    this.kind = facts.kind;
    this.status = facts.status;
    this.blocked = facts.status !== undefined && isBlockedStatus(facts.status);
    this.retryAfter = facts.retryAfter;
  }
}

/** A URL as shown in messages and logs: without user:password, and without the fragment. */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    u.username = "";
    u.password = "";
    u.hash = "";
    return u.href;
  } catch {
    return String(url)
      .replace(/\/\/[^/@]*@/, "//")
      .slice(0, 200);
  }
}

/** The HTTP status error of `url`: NOT_FOUND for 404/410, else {@link NETWORK_ERROR_CODE}. */
export function statusError(url: string, status: number, retryAfter?: string): WebFetchError {
  const shown = displayUrl(url);
  const code: ErrorCode = status === 404 || status === 410 ? "NOT_FOUND" : NETWORK_ERROR_CODE;
  const hint = isBlockedStatus(status)
    ? "the site blocks automated access or needs a login; pass the search result's text as `snippet` to store that instead"
    : status >= 500
      ? "the server failed; try again later or pass the search result's text as `snippet`"
      : "check the URL";
  return new WebFetchError(code, `fetching '${shown}' failed with HTTP ${status}`, {
    url: shown,
    kind: "status",
    status,
    retryAfter,
    hint,
  });
}

/** The fetch did not get its headers (phase "headers") or its whole body (phase "body") within `ms`. */
export function timeoutError(url: string, phase: "headers" | "body", ms: number): WebFetchError {
  const shown = displayUrl(url);
  const what = phase === "headers" ? "connect and send its headers" : "send its whole body";
  return new WebFetchError(NETWORK_ERROR_CODE, `'${shown}' did not ${what} within ${ms} ms`, {
    url: shown,
    kind: "timeout",
    hint: "the server or the proxy is slow or unreachable; try again later",
  });
}

/** The caller's AbortSignal fired. */
export function cancelledError(url: string, cause?: unknown): PegasError {
  return new PegasError("CANCELLED", `fetching '${displayUrl(url)}' was cancelled`, { cause });
}

/** A limit (size, redirects) was exceeded. */
export function limitError(url: string, what: string, hint: string): PegasError {
  return new PegasError("LIMIT_EXCEEDED", `'${displayUrl(url)}': ${what}`, { hint });
}

function errCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

/**
 * Translates a socket, DNS, TLS or proxy error of one request into a {@link WebFetchError}. `proxy` is the proxy
 * as shown (no credentials) when one was configured: its failures say that no direct connection was tried.
 */
export function networkError(url: string, err: unknown, proxy?: string): WebFetchError {
  const shown = displayUrl(url);
  const code = errCode(err);
  const detail = (err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 300);
  if (/^(ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code) || /certificate/i.test(detail)) {
    return new WebFetchError(NETWORK_ERROR_CODE, `TLS with '${shown}' failed: ${detail}`, {
      url: shown,
      kind: "tls",
      cause: err,
      hint: "the site's certificate is not valid for its name; fetch it over a trusted URL",
    });
  }
  if (proxy) {
    return new WebFetchError(NETWORK_ERROR_CODE, `fetching '${shown}' through proxy '${proxy}' failed: ${detail}`, {
      url: shown,
      kind: "proxy",
      cause: err,
      hint: "check that the proxy (proxy_url / PROXY_URL) runs and can reach the site; no direct connection is ever tried",
    });
  }
  const dns = code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME";
  return new WebFetchError(NETWORK_ERROR_CODE, `fetching '${shown}' failed: ${detail}`, {
    url: shown,
    kind: dns ? "dns" : "network",
    cause: err,
    hint: dns ? "check the host name" : "check the network or try again later",
  });
}
