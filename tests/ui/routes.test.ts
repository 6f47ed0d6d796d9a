/**
 * The admin page's routes over plain requests (no browser) on a PGlite store holding the Chekhov text: unknown paths
 * get the page's own HTML 404; pages asked beyond the last are redirected to it (documents, a document's atoms, gaps);
 * a revert names a change of the atom in its URL and never a forget; a confirmation shows only when the app signed it;
 * the atom page names its document by title and shows its confidence with its reasons.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Hono } from "hono";
import { addGap } from "../../src/core/gaps/gaps.ts";
import { forget } from "../../src/core/knowledge/link-forget.ts";
import type { Services } from "../../src/core/services.ts";
import { atom } from "../inference/support.ts";
import type { TestServices } from "../support/services.ts";
import { HOST, ORIGIN, openChekhovUi } from "./chekhov-app.ts";

let t: TestServices;
let s: Services;
let root: Hono;
let docId: number;
let csrf: string;

beforeAll(async () => {
  ({ t, s, root, docId } = await openChekhovUi());
  const [first] = (await s.documents.documentAtoms(docId, 0, 1)).rows;
  csrf = /name="_csrf" value="([^"]+)"/.exec(await (await get(`/ui/atom/${first.id}`)).text())![1];
}, 120_000);
afterAll(() => t?.dispose());

const get = (path: string) => root.request(`${ORIGIN}${path}`, { headers: { host: HOST } });
const post = (path: string, form: Record<string, string>) =>
  root.request(`${ORIGIN}${path}`, {
    method: "POST",
    body: new URLSearchParams({ ...form, _csrf: csrf }),
    headers: { host: HOST, origin: ORIGIN, "sec-fetch-site": "same-origin" },
  });

test("unknown paths under /ui get the page's HTML 404 (GET and POST); /ui/ still redirects to /ui", async () => {
  for (const path of ["/ui/nope", "/ui/atom/1/nope", `/ui/${encodeURIComponent("палата")}`, "/ui/documents/1/x/y"]) {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    const body = await res.text();
    expect(body).toContain("<h1>Not found</h1>");
    expect(body).toContain('aria-label="Sections"');
  }
  expect((await post("/ui/nope", {})).status).toBe(404);
  const slash = await get("/ui/");
  expect(slash.status).toBe(301);
  expect(slash.headers.get("location")).toBe("/ui");
});

test("pages beyond the last redirect to the last: documents, a document's atoms, gaps", async () => {
  const docs = await get("/ui/documents?page=99");
  expect(docs.status).toBe(302);
  expect(docs.headers.get("location")).toBe("/ui/documents?page=1");
  const atoms = (await s.documents.documentAtoms(docId, 0, 1)).total;
  const last = Math.ceil(atoms / 50);
  expect(last).toBeGreaterThan(1);
  const far = await get(`/ui/documents/${docId}?page=999`);
  expect(far.status).toBe(302);
  expect(far.headers.get("location")).toBe(`/ui/documents/${docId}?page=${last}`);
  const lastPage = await (await get(far.headers.get("location")!)).text();
  expect(lastPage).toContain(`Page ${last} of ${last}`);
  expect(lastPage).toContain('rel="prev"');
  await addGap(s, { question: "Где стоит палата номер шесть?", priority: 3 });
  const gaps = await get("/ui/gaps?open_page=7&answered_page=2");
  expect(gaps.status).toBe(302);
  expect(gaps.headers.get("location")).toBe("/ui/gaps?open_page=1&answered_page=1");
  expect((await get("/ui/gaps?open_page=1")).status).toBe(200);
});

test("revert: a change of another atom → 400, unchanged; a forget → 400 pointing to Restore; the atom's own change reverts", async () => {
  const [a, b] = [
    await atom(s, "Рагин служит врачом в уездной больнице"),
    await atom(s, "Громов лежит в палате номер шесть"),
  ];
  const [change] = (
    await s.verification.applyVerification({
      actor: "verify",
      changes: [{ atomId: b, from: "candidate", to: "verified", reason: "test", evidence: [] }],
      links: [],
      confidence: [],
    })
  ).changes;
  const other = await post(`/ui/atom/${a}/revert`, { change: String(change.id) });
  expect(other.status).toBe(400);
  expect(await other.text()).toContain(`is not one of atom ${a}`);
  expect((await s.atomReads.atomsByIds([b], 0))[0].status).toBe("verified");
  const own = await post(`/ui/atom/${b}/revert`, { change: String(change.id) });
  expect(own.status).toBe(303);
  expect(own.headers.get("location")).toStartWith(`/ui/atom/${b}?done=reverted`);
  expect((await s.atomReads.atomsByIds([b], 0))[0].status).toBe("candidate");
  const forgot = (await forget(s, { atom_id: a, reason: "test" })).changes[0].id;
  const plain = await post(`/ui/atom/${a}/revert`, { change: String(forgot) });
  expect(plain.status).toBe(400);
  expect(await plain.text()).toContain("Restore atom");
  expect((await s.atomReads.atomsByIds([a], 0))[0].status).toBe("retracted");
  expect(await (await get(`/ui/atom/${a}`)).text()).not.toContain(`Revert #${forgot}`);
});

test("a confirmation shows only when the app signed it; a forget's Undo only while the atom is forgotten", async () => {
  const id = await atom(s, "Никитин сторож при палате");
  const forged = await (await get(`/ui/atom/${id}?done=forgot&change=42`)).text();
  expect(forged).not.toContain('class="flash"');
  expect(forged).not.toContain("forgotten");
  const done = await post(`/ui/atom/${id}/forget`, { reason: "test" });
  expect(done.status).toBe(303);
  const location = done.headers.get("location")!;
  expect(location).toContain("sig=");
  const shown = await (await get(location)).text();
  expect(shown).toContain(`Atom ${id} forgotten`);
  expect(shown).toContain(">Undo</button>");
  expect(await (await get(location.replace(`/atom/${id}?`, `/atom/${id - 1}?`))).text()).not.toContain('class="flash"');
  expect(await (await get(location.replace("done=forgot", "done=restored"))).text()).not.toContain('class="flash"');
  await forget(s, { atom_id: id, reason: "restored elsewhere", undo: true });
  const stale = await (await get(location)).text();
  expect(stale).toContain(`Atom ${id} forgotten`);
  expect(stale).not.toContain(">Undo</button>");
});

test("the atom page names its document by title, linked", async () => {
  const doc = await s.documents.document(docId);
  const [row] = (await s.documents.documentAtoms(docId, 0, 1)).rows;
  const body = await (await get(`/ui/atom/${row.id}`)).text();
  expect(doc.title).toBeTruthy();
  const meta = body.split('<p class="meta">')[1].split("</p>")[0]; // the line under the heading, not the citations
  expect(meta).toContain(`from <a href="/ui/documents/${docId}">${doc.title}</a>`);
  expect(meta).not.toContain(`document ${docId}`);
});

test("the atom page shows its computed confidence and why, each reason with its signed weight", async () => {
  const [row] = (await s.documents.documentAtoms(docId, 0, 1)).rows;
  const explained = (await s.confidence.confidenceFacts([row.id])).get(row.id)!;
  const body = await (await get(`/ui/atom/${row.id}`)).text();
  const section = body.split('<section aria-labelledby="h-confidence">')[1]?.split("</section>")[0] ?? "";
  expect(section).toMatch(/<h2 id="h-confidence">Confidence 0\.\d\d: why<\/h2>/);
  // An ingested text that memory_verify has not checked: its source raises it, the missing check lowers it.
  expect(explained.checked).toBe(false);
  expect(section).toMatch(/<li class="up">\+0\.50 1 source site\(s\): local<\/li>/);
  expect(section).toContain('<li class="down">−0.30 not yet verified</li>');
  const meta = body.split('<p class="meta">')[1].split("</p>")[0];
  expect(meta).toContain(`confidence ${/Confidence (0\.\d\d): why/.exec(section)![1]}`);
});
