/**
 * The admin page's guards. Token rule (as /mcp): when `http_token` is set, a browser proves it once through the token
 * prompt and keeps an HttpOnly, SameSite=Strict cookie (Path=/ui) holding a digest of the token, never the token
 * itself. Cross-site protection of every POST: the request must come from the page's own origin (Sec-Fetch-Site
 * `same-origin` and an Origin equal to the page's, when the browser sends them) and carry the form's CSRF token.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";

/** Name of the session cookie. */
export const SESSION_COOKIE = "pegas_ui";
/** Name of the form field carrying the CSRF token. */
export const CSRF_FIELD = "_csrf";
/** How long an action's confirmation (its signed query string) is shown (s): a reload soon after still shows it. */
export const FLASH_MAX_AGE_S = 120;
/** How long the session cookie lives (s): 30 days; a new token invalidates it at once anyway. */
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

const mac = (key: string | Buffer, what: string): string =>
  createHmac("sha256", key).update(what, "utf8").digest("base64url");

/** Constant-time equality of two strings (their SHA-256 MACs under a per-process key are compared). */
function same(a: string, b: string, key: Buffer): boolean {
  return timingSafeEqual(Buffer.from(mac(key, a)), Buffer.from(mac(key, b)));
}

/** The first value of a comma-separated header (proxies append theirs), trimmed; undefined when absent or empty. */
const firstValue = (v: string | undefined): string | undefined => v?.split(",")[0]?.trim() || undefined;

/**
 * Why a POST was refused as cross-site, or null when it may go on. Only headers are read (never the body), so a
 * cross-site request is refused before its body is.
 *
 * Reverse proxies: the browser's Origin is compared by host and port only — not by scheme — with the request's Host
 * header, or with X-Forwarded-Host when a proxy set it. So a proxy terminating TLS (`Origin: https://memory.example`,
 * the request reaching this server as http) passes when it keeps the Host header (Caddy does; nginx needs
 * `proxy_set_header Host $host`) or sets X-Forwarded-Host; on a loopback binding, whose Host check (DNS rebinding)
 * takes only loopback names, the proxy must pass the upstream's own Host and the public name in X-Forwarded-Host.
 * A page of another host or port is still refused; a browser cannot put a forged X-Forwarded-Host on a cross-site form.
 */
export function crossSiteReason(c: Context): string | null {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin") return `Sec-Fetch-Site is '${site}'`;
  const origin = c.req.header("origin");
  if (origin === undefined) return null; // not a browser, or an old one: the CSRF token decides
  let originHost: string;
  try {
    const u = new URL(origin);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http(s)");
    originHost = u.host.toLowerCase();
  } catch {
    return `Origin '${origin.slice(0, 100)}' is not this page's`;
  }
  const hosts = [c.req.header("host") ?? new URL(c.req.url).host, firstValue(c.req.header("x-forwarded-host"))];
  if (!hosts.some((h) => h !== undefined && hostOf(h) === originHost))
    return `Origin '${origin.slice(0, 100)}' is not this page's`;
  return null;
}

/** A Host header value as URL.host writes it (lower case, default ports of http and https dropped). */
function hostOf(h: string): string {
  return h.toLowerCase().replace(/:(80|443)$/, "");
}

/** True when the browser talks https to this page: the request URL, the Origin it sent, or X-Forwarded-Proto says so. */
export function viaHttps(c: Context): boolean {
  return (
    new URL(c.req.url).protocol === "https:" ||
    (c.req.header("origin") ?? "").startsWith("https://") ||
    firstValue(c.req.header("x-forwarded-proto"))?.toLowerCase() === "https"
  );
}

/** The token check and the CSRF tokens of one UI app. */
export class UiGuard {
  /** Key of the CSRF tokens and of comparisons: derived from the token, else random per process. */
  private readonly key: Buffer;
  private readonly session: string | null;

  /** `token`: the server's http_token, or undefined when none is configured (loopback binding). */
  constructor(private readonly token: string | undefined) {
    this.key = token === undefined ? randomBytes(32) : Buffer.from(mac(token, "pegas-memory ui key v1"));
    this.session = token === undefined ? null : mac(token, "pegas-memory ui session v1");
  }

  /** Whether the token rule applies. */
  get required(): boolean {
    return this.token !== undefined;
  }

  /** True when no token is configured or the request carries the session cookie. */
  admitted(c: Context): boolean {
    if (this.session === null) return true;
    const cookie = getCookie(c, SESSION_COOKIE);
    return cookie !== undefined && same(cookie, this.session, this.key);
  }

  /** True when `given` is the configured token (constant time). */
  tokenMatches(given: string): boolean {
    return this.token !== undefined && same(given, this.token, this.key);
  }

  /** Sets the session cookie (HttpOnly, SameSite=Strict, Path=/ui; Secure when the browser uses https: {@link viaHttps}). */
  grant(c: Context, base: string): void {
    if (this.session === null) return;
    const secure = viaHttps(c);
    setCookie(c, SESSION_COOKIE, this.session, {
      httpOnly: true,
      sameSite: "Strict",
      path: base,
      secure,
      maxAge: SESSION_MAX_AGE_S,
    });
  }

  /** Clears the session cookie. */
  revoke(c: Context, base: string): void {
    setCookie(c, SESSION_COOKIE, "", { httpOnly: true, sameSite: "Strict", path: base, maxAge: 0 });
  }

  /** The CSRF token every form of the page carries. */
  csrfToken(): string {
    return mac(this.key, "pegas-memory ui csrf v1");
  }

  /** True when `given` is the CSRF token. */
  csrfMatches(given: unknown): boolean {
    return typeof given === "string" && same(given, this.csrfToken(), this.key);
  }

  /**
   * Signs the confirmation query `q` of an action on atom `atomId` (or on another target, named as `entity:<id>`, so
   * that a confirmation never shows on another page) in place: adds `t` (Unix seconds) and `sig`, a MAC of the target
   * and the rest of the query under this app's key.
   */
  signFlash(atomId: number | string, q: URLSearchParams): void {
    q.delete("sig");
    q.set("t", String(Math.floor(Date.now() / 1000)));
    q.set("sig", mac(this.key, `pegas-memory ui flash v1 ${atomId} ${q}`));
  }

  /**
   * True when `q` carries a confirmation this app signed for atom `atomId` (or target `entity:<id>`) less than {@link FLASH_MAX_AGE_S} ago; a
   * hand-written query string (`?done=forgot&change=42`) is not one.
   */
  flashValid(atomId: number | string, q: URLSearchParams): boolean {
    const sig = q.get("sig");
    const age = Date.now() / 1000 - Number(q.get("t"));
    if (!sig || !(age >= -5 && age <= FLASH_MAX_AGE_S)) return false;
    const rest = new URLSearchParams(q);
    rest.delete("sig");
    return same(sig, mac(this.key, `pegas-memory ui flash v1 ${atomId} ${rest}`), this.key);
  }
}
