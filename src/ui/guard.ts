/**
 * The admin page's guard middleware and its login/logout routes. Every request: the Host check (DNS rebinding), then
 * for a POST the cross-site check on headers alone, then the session cookie (the token prompt when it is missing), and
 * only then — for an admitted POST, or the login form — the body, read up to {@link UI_MAX_BODY_BYTES} (a 413 page
 * beyond) and checked for the form's CSRF token. So no unauthenticated or cross-site request makes the server read
 * more than the headers, and no request makes it buffer more than 64 KiB.
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { log } from "../log.ts";
import type { PageContext } from "./html.ts";
import { errorPage, promptPage } from "./pages/prompt.ts";
import { CSRF_FIELD, type UiGuard, crossSiteReason } from "./security.ts";

/** Largest request body the admin page reads (bytes): its forms hold a reason of ≤ 1000 characters at most. */
export const UI_MAX_BODY_BYTES = 64 * 1024;

/**
 * Where to go after logging in: `next` when it is a path of this app (`base` or under it, with its query), else `base`.
 * Never an absolute URL, a scheme-relative `//host` or a path outside the app (no open redirect).
 */
export function safeNext(next: unknown, base: string): string {
  if (
    typeof next !== "string" ||
    !next.startsWith("/") ||
    next.startsWith("//") ||
    /[\\\u0000-\u001f]/.test(next) ||
    next.length > 2000
  )
    return base;
  let u: URL;
  try {
    u = new URL(next, "http://pegas.invalid");
  } catch {
    return base;
  }
  if (u.origin !== "http://pegas.invalid" || !(u.pathname === base || u.pathname.startsWith(`${base}/`))) return base;
  if (u.pathname === `${base}/login` || u.pathname === `${base}/logout`) return base;
  return `${u.pathname}${u.search}`;
}

/** The page a prompt shown at this request leads back to after login: the request's own path for a GET, else `base`. */
function requested(c: Context, base: string): string {
  if (c.req.method !== "GET") return base;
  if (c.req.path === `${base}/login`) return safeNext(c.req.query("next"), base);
  const u = new URL(c.req.url);
  return safeNext(`${u.pathname}${u.search}`, base);
}

/** Registers the guard (`app.use("*")`) and POST /login, GET /login, POST /logout. */
export function guardRoutes(
  app: Hono,
  base: string,
  g: UiGuard,
  hosts: () => string[] | undefined,
  ctx: (c: Context) => PageContext,
): void {
  const refuse = async (c: Context, why: string): Promise<Response> => {
    log.warn("ui: cross-site or stale form refused", { path: c.req.path, why });
    return c.html(
      errorPage(
        ctx(c),
        "Refused",
        "This form did not come from this page (a cross-site request, or a page from before a restart).",
        "Reload the page and try again.",
      ),
      403,
    );
  };
  const limit = bodyLimit({
    maxSize: UI_MAX_BODY_BYTES,
    onError: (c) =>
      c.html(
        errorPage(
          ctx(c),
          "Refused",
          `The form sent is too large: this page takes at most ${UI_MAX_BODY_BYTES / 1024} KiB.`,
          "Shorten what you typed and try again.",
        ),
        413,
      ),
  });
  app.use("*", async (c, next) => {
    const allowed = hosts();
    if (allowed !== undefined && !allowed.includes(c.req.header("host") ?? ""))
      return c.text("this page answers only on its own host name", 403);
    const post = c.req.method === "POST";
    const why = post ? crossSiteReason(c) : null;
    if (why !== null) return refuse(c, why);
    const login = c.req.path === `${base}/login`;
    if (!(login && post) && !g.admitted(c)) {
      const wrong = login && c.req.query("wrong") === "1";
      return c.html(promptPage(ctx(c), wrong, requested(c, base)), 401);
    }
    if (!post) return next();
    return limit(c, async () => {
      const body = await c.req.parseBody();
      if (g.csrfMatches(body[CSRF_FIELD])) await next();
      else c.res = await refuse(c, "CSRF token missing or wrong");
    });
  });
  app.post("/login", async (c) => {
    const body = await c.req.parseBody();
    const next = safeNext(body.next, base);
    if (!g.required) return c.redirect(next, 303);
    // A wrong token: a redirect to the prompt (so that a reload does not post the token again).
    if (typeof body.token !== "string" || !g.tokenMatches(body.token))
      return c.redirect(`${base}/login?${new URLSearchParams({ wrong: "1", next })}`, 303);
    g.grant(c, base);
    return c.redirect(next, 303);
  });
  app.get("/login", (c) => c.redirect(safeNext(c.req.query("next"), base), 303));
  app.post("/logout", (c) => {
    g.revoke(c, base);
    return c.redirect(base, 303);
  });
}
