/**
 * The admin page's entity view over plain requests (no browser) on a PGlite store holding Chekhov's «Палата № 6»:
 * the list names each entity's kind, canonical name, aliases and mentions, most mentioned first, and finds a name by
 * a part of it or an inflected form; the kind filter keeps one kind; an entity's page cites its statements with their
 * document, lists the atoms naming it and the entities named beside it; a merged entity leads to its root; names are
 * escaped; pages past the end, unknown and malformed ids behave as elsewhere; the token rule guards the view too.
 * Forgetting an entity from its page retracts the atoms naming it (a same-origin POST with the CSRF token only), shows
 * a signed confirmation with an Undo, and the Undo restores them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { getEntity } from "../../src/core/knowledge/get-entity.ts";
import type { Services } from "../../src/core/services.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { sqlOf } from "../code/support.ts";
import type { TestServices } from "../support/services.ts";
import { HOST, ORIGIN, openChekhovUi } from "./chekhov-app.ts";

let t: TestServices;
let s: Services;
let root: Hono;
let docId: number;

beforeAll(async () => {
  ({ t, s, root, docId } = await openChekhovUi());
}, 120_000);
afterAll(() => t?.dispose());

const get = (path: string) => root.request(`${ORIGIN}${path}`, { headers: { host: HOST } });
const post = (path: string, form: Record<string, string>) =>
  root.request(`${ORIGIN}${path}`, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: { host: HOST, origin: ORIGIN, "sec-fetch-site": "same-origin" },
  });
const page = async (path: string) => {
  const res = await get(path);
  expect(res.status).toBe(200);
  return res.text();
};
/** The rows of the list: [href, name, kind, aliases, mentions, atoms]. */
const rows = (body: string) =>
  [
    ...body.matchAll(
      /<tr><td><a href="([^"]+)">([^<]+)<\/a><\/td><td>([^<]+)<\/td><td>(.*?)<\/td>\s*<td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/gsu,
    ),
  ].map((m) => m.slice(1));
const profile = async (name: string) => {
  const r = await getEntity(s, name);
  if (!("profile" in r)) throw new Error(`${name} is ambiguous`);
  return r.profile;
};

describe("entity view", () => {
  test("the list: kind, name, aliases, mentions, most mentioned first; found by a part or a form of the name", async () => {
    const body = await page("/ui/entities");
    expect(body).toContain('<a href="/ui/entities" aria-current="page">Entities</a>');
    const list = rows(body);
    expect(list.length).toBeGreaterThan(5);
    const atoms = list.map((r) => Number(r[5]));
    expect(atoms).toEqual([...atoms].sort((a, b) => b - a));
    const ragin = await profile("Андрей Ефимыч");
    const row = list.find((r) => r[1] === ragin.name); // «Андрей Ефимыч Рагин»: the write merged the short name in
    expect(row?.slice(0, 3)).toEqual([`/ui/entities/${ragin.entity_id}`, ragin.name, "person"]);
    expect(Number(row?.[5])).toBe(ragin.atoms);
    expect(Number(row?.[4])).toBeGreaterThanOrEqual(ragin.atoms);

    for (const q of ["ефимыч", "ЕФИМЫЧ", "Андрея Ефимыча"]) {
      const found = rows(await page(`/ui/entities?q=${encodeURIComponent(q)}`));
      expect(found.map((r) => r[1])).toContain(ragin.name);
      expect(found.length).toBeLessThan(list.length);
    }
    const places = rows(await page("/ui/entities?kind=place"));
    expect(places.length).toBeGreaterThan(0);
    expect(new Set(places.map((r) => r[2]))).toEqual(new Set(["place"]));
    const none = await page(`/ui/entities?q=${encodeURIComponent("<script>alert(1)</script>")}`);
    expect(none).toContain("No entity matches this filter.");
    expect(none).not.toContain("<script>alert(1)");
    expect(none).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const past = await get("/ui/entities?q=ефимыч&page=99");
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe(`/ui/entities?q=${encodeURIComponent("ефимыч")}&page=1`);
  }, 60_000);

  test("one entity: cited statements with their document, the atoms naming it, the entities beside it", async () => {
    const ragin = await profile("Андрей Ефимыч");
    const body = await page(`/ui/entities/${ragin.entity_id}`);
    expect(body).toContain(`<h1>${ragin.name}</h1>`);
    expect(body).toContain(`href="/ui/atom/${ragin.statements[0].atom_id}"`);
    expect(body).toContain(`<a href="/ui/documents/${docId}">Антон Павлович Чехов. Палата No 6</a>`);
    expect(body).toContain(`Atoms that name it (${ragin.atoms})`);
    const dmitrich = await profile("Иван Дмитрич");
    expect(body).toContain(`<a href="/ui/entities/${dmitrich.entity_id}">${dmitrich.name}</a>`);
    expect(body).toContain(`href="/ui/graph?node=entity:${ragin.entity_id}"`);
    const atomLinks = [...body.matchAll(/<tr><td><a href="\/ui\/atom\/(\d+)"/gu)].map((m) => Number(m[1]));
    expect(atomLinks.length).toBe(Math.min(50, ragin.atoms));

    const past = await get(`/ui/entities/${ragin.entity_id}?page=99`);
    expect(past.status).toBe(302);
    for (const path of ["/ui/entities/987654", "/ui/entities/abc", "/ui/entities/0"])
      expect((await get(path)).status).toBe(404);
  }, 60_000);

  test("a merged entity leads to its root, which names it as merged", async () => {
    const ragin = await profile("Андрей Ефимыч");
    const khobotov = await profile("Хоботов");
    const merge = await s.entities.mergeEntities({
      fromEntityId: khobotov.entity_id,
      intoEntityId: ragin.entity_id,
      reason: "test",
      actor: "cli",
    });
    try {
      const res = await get(`/ui/entities/${khobotov.entity_id}`);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/ui/entities/${ragin.entity_id}`);
      const body = await page(`/ui/entities/${ragin.entity_id}`);
      expect(body).toContain(`${khobotov.name} <span class="muted">entity:${khobotov.entity_id}</span>`);
      const listed = rows(await page("/ui/entities")).map((r) => r[1]);
      expect(listed).not.toContain(khobotov.name);
    } finally {
      await s.entities.undoEntityMerge(merge.id);
    }
  }, 60_000);

  test("with a token, the entity pages answer only the prompt", async () => {
    const guarded = new Hono();
    guarded.route("/ui", createUiApp({ services: async () => s, token: "tok", allowedHosts: () => [HOST] }));
    for (const path of ["/ui/entities", "/ui/entities/1"]) {
      const res = await guarded.request(`${ORIGIN}${path}`, { headers: { host: HOST } });
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain("Андрей");
    }
  });

  test("forget from the entity page: its atoms go, a signed confirmation offers Undo, which restores them", async () => {
    const belova = await profile("Белова");
    const path = `/ui/entities/${belova.entity_id}`;
    const before = await page(path);
    const csrf = /name="_csrf" value="([^"]+)"/u.exec(before)![1];
    expect(before).toContain(`action="/ui/entities/${belova.entity_id}/forget"`);
    expect((await post(`${path}/forget`, { reason: "test" })).status).toBe(403); // no CSRF token
    const atomsOf = async () =>
      (
        await sqlOf(s)`SELECT DISTINCT a.status FROM pm_entity_mention m JOIN pm_atom a ON a.id = m.atom_id
                        WHERE m.entity_id = ${belova.entity_id}`
      ).map((r) => String(r.status));
    expect(await atomsOf()).toEqual(["candidate"]);

    const done = await post(`${path}/forget`, { reason: "privacy", _csrf: csrf });
    expect(done.status).toBe(303);
    const location = done.headers.get("location")!;
    expect(location).toStartWith(`${path}?done=entity-forgot&atoms=${belova.atoms}&docs=0&t=`);
    expect(await atomsOf()).toEqual(["retracted"]);
    const confirmed = await page(location);
    expect(confirmed).toContain(`Entity forgotten: ${belova.atoms} atom(s) retracted`);
    expect(confirmed).toContain("No statement names it now");
    expect(confirmed).toContain('<button type="submit">Undo</button>');
    const forged = await page(`${path}?done=entity-forgot&atoms=99&docs=0`);
    expect(forged).not.toContain("Entity forgotten");

    const undo = await post(`${path}/forget`, { reason: "undo", undo: "1", _csrf: csrf });
    expect(undo.status).toBe(303);
    expect(await page(undo.headers.get("location")!)).toContain(`Entity restored: ${belova.atoms} atom(s) back.`);
    expect(await atomsOf()).toEqual(["candidate"]);
  }, 60_000);
});
