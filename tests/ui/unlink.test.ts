/**
 * Removing a link from the admin page, over plain requests (no browser) on a PGlite store: each agent link listed on
 * an atom page (out, in, to a code symbol) has a "Remove link" form, inferred and extracted ones do not; "linked"
 * offers to remove the link just made; a removal posts with the CSRF field, redirects (303) to a signed confirmation
 * that says what went and how many inferred edges went with it and offers "Link again"; a link of another atom, an
 * inferred link and an unknown one are refused with the page's error pages.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Hono } from "hono";
import { infer } from "../../src/core/inference/infer.ts";
import { linkNodes } from "../../src/core/knowledge/link-forget.ts";
import type { Services } from "../../src/core/services.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { atom, link, rule, sqlOf } from "../inference/support.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const HOST = "127.0.0.1:8080";
const ORIGIN = `http://${HOST}`;
let t: TestServices;
let s: Services;
let root: Hono;
let csrf: string;
const n = { a: 0, b: 0, c: 0, d: 0, sym: 0 };

const get = (path: string) => root.request(`${ORIGIN}${path}`, { headers: { host: HOST } });
const post = (path: string, form: Record<string, string>) =>
  root.request(`${ORIGIN}${path}`, {
    method: "POST",
    body: new URLSearchParams({ ...form, _csrf: csrf }),
    headers: { host: HOST, origin: ORIGIN, "sec-fetch-site": "same-origin" },
  });
/** The hidden fields of every "Remove link" form of a page, as "src kind dst". */
const removeForms = (body: string) =>
  [
    ...body.matchAll(
      /action="\/ui\/atom\/\d+\/unlink"[\s\S]*?name="src" value="([^"]+)"[\s\S]*?name="dst" value="([^"]+)"[\s\S]*?name="kind" value="([^"]+)"/g,
    ),
  ].map((m) => `${m[1]} ${m[3]} ${m[2]}`);

beforeAll(async () => {
  const opened = await openTestServices("pglite");
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
  s = t.services;
  n.a = await atom(s, "Служба A зависит от службы B");
  n.b = await atom(s, "Служба B зависит от базы C");
  n.c = await atom(s, "База C хранит заказы");
  n.d = await atom(s, "Отчёт D подтверждает, что A работает");
  await linkNodes(s, { src: n.a, dst: n.b, kind: "depends_on" });
  await linkNodes(s, { src: n.b, dst: n.c, kind: "depends_on" });
  await infer(s, { ruleIds: [await rule(s, '{"if": ["depends_on", "depends_on"], "then": "depends_on"}')] }); // a → c inferred
  await link(s, n.d, n.a, "supports"); // extracted
  const [sym] = await sqlOf(
    s,
  )`INSERT INTO pm_code_symbol (repo, path, language, name, qualified_name, kind, line_start, line_end)
                               VALUES ('ui', 'svc.py', 'python', 'serve', 'svc.serve', 'function', 3, 9) RETURNING id`;
  n.sym = Number(sym.id);
  await linkNodes(s, { src: n.a, dst: `symbol:${n.sym}`, kind: "describes" });
  root = new Hono();
  root.route("/ui", createUiApp({ services: async () => s, allowedHosts: () => [HOST] }));
  csrf = /name="_csrf" value="([^"]+)"/.exec(await (await get(`/ui/atom/${n.a}`)).text())![1];
}, 120_000);
afterAll(() => t?.dispose());

test("the atom page offers Remove link for the agent's links only (out, in, to a symbol), with a name for screen readers", async () => {
  const a = await (await get(`/ui/atom/${n.a}`)).text();
  expect(removeForms(a).sort()).toEqual(
    [`atom:${n.a} depends_on atom:${n.b}`, `atom:${n.a} describes symbol:${n.sym}`].sort(),
  );
  expect(a).toContain(`Remove link<span class="sr"> → depends_on atom ${n.b}</span>`);
  expect(a).toContain("(inferred)"); // a → c is listed, without a form; d → a (extracted) too
  const b = await (await get(`/ui/atom/${n.b}`)).text();
  expect(removeForms(b).sort()).toEqual(
    [`atom:${n.a} depends_on atom:${n.b}`, `atom:${n.b} depends_on atom:${n.c}`].sort(),
  );
});

test("link, then Remove link from its confirmation: 303 to a signed confirmation with Link again, which restores it", async () => {
  const linked = await post(`/ui/atom/${n.c}/link`, { kind: "related", dst: String(n.d), confidence: "0.65" });
  expect(linked.status).toBe(303);
  const flash = await (await get(linked.headers.get("location")!)).text();
  expect(flash).toContain("stored.");
  expect(removeForms(flash.split('class="flash"')[1] ?? "")[0]).toBe(`atom:${n.c} related atom:${n.d}`);

  const removed = await post(`/ui/atom/${n.c}/unlink`, { src: `atom:${n.c}`, dst: `atom:${n.d}`, kind: "related" });
  expect(removed.status).toBe(303);
  const location = removed.headers.get("location")!;
  expect(location).toStartWith(`/ui/atom/${n.c}?done=unlinked`);
  expect(location).toContain("sig=");
  const shown = await (await get(location)).text();
  expect(shown).toMatch(new RegExp(`Link #\\d+ atom:${n.c} → related → atom:${n.d} removed \\(source agent\\)\\.`));
  expect(shown).toContain(">Link again</button>");
  expect(shown).toContain('name="confidence" value="0.65"');
  expect((await s.atomReads.atomLinks(n.c, 10)).out).toEqual([]);
  expect(await (await get(location.replace("retracted=0", "retracted=5"))).text()).not.toContain('class="flash"');

  const again = await post(`/ui/atom/${n.c}/link`, { kind: "related", dst: `atom:${n.d}`, confidence: "0.65" });
  expect(again.status).toBe(303);
  expect((await s.atomReads.atomLinks(n.c, 10)).out).toEqual([
    expect.objectContaining({ atom_id: n.d, kind: "related", source: "agent", confidence: expect.closeTo(0.65, 5) }),
  ]);
});

test("an in-link removed from its target's page takes the inferred edge it justified along; the confirmation says so", async () => {
  const removed = await post(`/ui/atom/${n.b}/unlink`, { src: `atom:${n.a}`, dst: `atom:${n.b}`, kind: "depends_on" });
  expect(removed.status).toBe(303);
  const shown = await (await get(removed.headers.get("location")!)).text();
  expect(shown).toContain(
    `atom:${n.a} → depends_on → atom:${n.b} removed (source agent). 1 inferred edge(s) that depended on it retracted.`,
  );
  expect(shown).not.toContain(">Link again</button>"); // the link went out of another atom: link it again from there
  expect((await s.atomReads.atomLinks(n.a, 10)).out).toEqual([]);
});

test("refused: a link of another atom (400), an inferred link (400), an unknown link (404), no CSRF field; nothing changes", async () => {
  await linkNodes(s, { src: n.a, dst: n.b, kind: "depends_on" });
  await infer(s, {});
  const other = await post(`/ui/atom/${n.d}/unlink`, { src: `atom:${n.b}`, dst: `atom:${n.c}`, kind: "depends_on" });
  expect(other.status).toBe(400);
  expect(await other.text()).toContain(`is not one of atom ${n.d}`);
  const inferred = await post(`/ui/atom/${n.a}/unlink`, { src: `atom:${n.a}`, dst: `atom:${n.c}`, kind: "depends_on" });
  expect(inferred.status).toBe(400);
  expect(await inferred.text()).toContain("was inferred by the rule atom");
  const unknown = await post(`/ui/atom/${n.a}/unlink`, { src: `atom:${n.a}`, dst: `atom:${n.d}`, kind: "depends_on" });
  expect(unknown.status).toBe(404);
  expect(await unknown.text()).toContain(`no link atom:${n.a} -depends_on-&gt; atom:${n.d}`);
  const noCsrf = await root.request(`${ORIGIN}/ui/atom/${n.a}/unlink`, {
    method: "POST",
    body: new URLSearchParams({ src: `atom:${n.a}`, dst: `atom:${n.b}`, kind: "depends_on" }),
    headers: { host: HOST, origin: ORIGIN, "sec-fetch-site": "same-origin" },
  });
  expect(noCsrf.status).toBeGreaterThanOrEqual(400);
  expect((await s.atomReads.atomLinks(n.a, 10)).out.map((l) => l.kind).sort()).toEqual(["depends_on", "depends_on"]);
});
