/**
 * The admin page's guards over plain requests (no browser): POSTs need the page's own origin and the form's CSRF
 * token; the token prompt and cookie, a login returning to the page asked for (only a path of the app); the Host check
 * (DNS rebinding); the security headers of every answer.
 */
import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { createUiApp } from "../../src/ui/app.ts";

const ORIGIN = "http://127.0.0.1:8080";
const noServices = () => Promise.reject(new Error("the guard must answer before any service is used"));

function app(token?: string): Hono {
  const root = new Hono();
  root.route("/ui", createUiApp({ services: noServices, token, allowedHosts: () => ["127.0.0.1:8080"] }));
  return root;
}

const csrfOf = async (res: { text(): Promise<string> }) =>
  /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? "";
const post = (a: Hono, path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  a.request(`${ORIGIN}${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { host: "127.0.0.1:8080", "content-type": "application/x-www-form-urlencoded", ...headers },
  });

describe("admin page guards", () => {
  test("with a token: no cookie → only the prompt; wrong token → 401; right token → HttpOnly SameSite=Strict cookie on /ui", async () => {
    const a = app("tok");
    const prompt = await a.request(`${ORIGIN}/ui`, { headers: { host: "127.0.0.1:8080" } });
    expect(prompt.status).toBe(401);
    const csrf = await csrfOf(prompt.clone());
    const body = await prompt.text();
    expect(body).toContain('name="token"');
    expect(body).not.toContain("Overview");
    const wrong = await post(
      a,
      "/ui/login",
      { token: "nope", _csrf: csrf },
      { origin: ORIGIN, "sec-fetch-site": "same-origin" },
    );
    expect(wrong.status).toBe(303); // to the prompt: a reload does not post the token again
    expect(wrong.headers.get("location")).toBe("/ui/login?wrong=1&next=%2Fui");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const again = await a.request(`${ORIGIN}${wrong.headers.get("location")}`, { headers: { host: "127.0.0.1:8080" } });
    expect(again.status).toBe(401);
    expect(await again.text()).toContain("That token is wrong");
    const right = await post(
      a,
      "/ui/login",
      { token: "tok", _csrf: csrf },
      { origin: ORIGIN, "sec-fetch-site": "same-origin" },
    );
    expect(right.status).toBe(303);
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^pegas_ui=[A-Za-z0-9_-]+;/);
    expect(cookie).not.toContain("tok;");
    for (const attr of ["HttpOnly", "SameSite=Strict", "Path=/ui"]) expect(cookie).toContain(attr);
    const logout = await post(a, "/ui/logout", { _csrf: csrf }, { cookie: cookie.split(";")[0] });
    expect(logout.status).toBe(303);
    expect(logout.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  test("POSTs: another origin, another site, Origin null or a missing/wrong CSRF token → 403", async () => {
    const a = app("tok");
    const csrf = await csrfOf(await a.request(`${ORIGIN}/ui`, { headers: { host: "127.0.0.1:8080" } }));
    const login = await post(
      a,
      "/ui/login",
      { token: "tok", _csrf: csrf },
      { origin: ORIGIN, "sec-fetch-site": "same-origin" },
    );
    const cookie = login.headers.get("set-cookie")!.split(";")[0];
    const refused = [
      post(a, "/ui/atom/1/forget", { reason: "x", _csrf: csrf }, { cookie, origin: "http://127.0.0.1:9999" }),
      post(a, "/ui/atom/1/forget", { reason: "x", _csrf: csrf }, { cookie, origin: "null" }),
      post(a, "/ui/atom/1/forget", { reason: "x", _csrf: csrf }, { cookie, "sec-fetch-site": "same-site" }),
      post(
        a,
        "/ui/atom/1/forget",
        { reason: "x", _csrf: csrf },
        { cookie, "sec-fetch-site": "cross-site", origin: ORIGIN },
      ),
      post(a, "/ui/atom/1/forget", { reason: "x" }, { cookie, origin: ORIGIN }),
      post(
        a,
        "/ui/atom/1/forget",
        { reason: "x", _csrf: "guess" },
        { cookie, origin: ORIGIN, "sec-fetch-site": "same-origin" },
      ),
    ];
    for (const r of await Promise.all(refused)) expect(r.status).toBe(403);
    const ok = await post(
      a,
      "/ui/logout",
      { _csrf: csrf },
      { cookie, origin: ORIGIN, "sec-fetch-site": "same-origin" },
    );
    expect(ok.status).toBe(303);
  });

  test("login returns to the page asked for, only ever a path of the app (no open redirect)", async () => {
    const a = app("tok");
    const prompt = await a.request(`${ORIGIN}/ui/atom/5?x=1`, { headers: { host: "127.0.0.1:8080" } });
    expect(prompt.status).toBe(401);
    const page = await prompt.text();
    expect(page).toContain('name="next" value="/ui/atom/5?x=1"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1];
    const login = (next: string, token = "tok") =>
      post(a, "/ui/login", { token, _csrf: csrf, next }, { origin: ORIGIN });
    expect((await login("/ui/atom/5?x=1")).headers.get("location")).toBe("/ui/atom/5?x=1");
    for (const evil of [
      "https://evil.example/ui",
      "//evil.example/ui",
      "/\\evil.example",
      "/ui/../admin",
      "/other",
      "javascript:alert(1)",
      "/ui/login",
    ]) {
      expect((await login(evil)).headers.get("location")).toBe("/ui");
    }
    const wrong = await login("/ui/gaps?open_page=2", "nope");
    expect(wrong.headers.get("location")).toBe(`/ui/login?wrong=1&next=${encodeURIComponent("/ui/gaps?open_page=2")}`);
    expect(
      await (
        await a.request(`${ORIGIN}${wrong.headers.get("location")}`, { headers: { host: "127.0.0.1:8080" } })
      ).text(),
    ).toContain('name="next" value="/ui/gaps?open_page=2"');
  });

  test("another Host (DNS rebinding) is refused; answers carry CSP, nosniff, no-store; assets are embedded", async () => {
    const a = app();
    const rebound = await a.request("http://evil.example:8080/ui", { headers: { host: "evil.example:8080" } });
    expect(rebound.status).toBe(403);
    const asset = await a.request(`${ORIGIN}/ui/assets/cytoscape.mjs`, { headers: { host: "127.0.0.1:8080" } });
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(300_000);
    const csp = asset.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
    const again = await a.request(`${ORIGIN}/ui/assets/cytoscape.mjs`, {
      headers: { host: "127.0.0.1:8080", "if-none-match": asset.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    const prompt = await app("t").request(`${ORIGIN}/ui/gaps`, { headers: { host: "127.0.0.1:8080" } });
    expect(prompt.headers.get("cache-control")).toBe("no-store");
  });
});
