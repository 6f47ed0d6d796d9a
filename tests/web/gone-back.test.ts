/**
 * A page a refresh found gone (410) that answers again with the text it held, when its URL is ingested again or when
 * a later refresh re-checks it: the document is no longer gone and its atoms lose the `source_gone` flag (the same
 * version, nothing re-distilled); one that comes back with another text becomes a new version, flags cleared too.
 * Embedded database.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { refresh } from "../../src/core/documents/refresh.ts";
import { describeRefreshItem } from "../../src/core/documents/refresh-report.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const PAGE = `<html><head><title>Мост</title></head><body><article><h1>Мост</h1><p>${[
  "Разводной мост открывается каждую ночь в половине второго.",
  "Его пролёт длиной 60 метров поднимают два электромотора.",
  "Летом у моста собираются туристы, чтобы посмотреть на развод.",
  "The bridge was rebuilt in 1998 and repainted green in 2015.",
].join("</p><p>")}</p></article></body></html>`;

const FERRY = PAGE.replaceAll("Мост", "Паром").replace("Разводной мост открывается", "Паром отходит от причала");
const FERRY_NEW = "С 2026 года паром ходит и по воскресеньям, с девяти утра до полуночи.";

describe("a gone page that comes back unchanged", () => {
  let t: TestServices;
  let gone = false;
  /** /ferry: 1 = the page, 0 = gone, 2 = another text; every request to it is logged with its If-None-Match. */
  let ferry = 1;
  const ferryAsked: Array<string | null> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      const html = (body: string, etag: string) =>
        new Response(body, { headers: { "content-type": "text/html; charset=utf-8", etag } });
      if (path === "/ferry") {
        const inm = req.headers.get("if-none-match");
        ferryAsked.push(inm);
        if (ferry === 0) return new Response("gone", { status: 410 });
        if (ferry === 2) return html(FERRY.replace("</article>", `<p>${FERRY_NEW}</p></article>`), '"f2"');
        return inm === '"f1"' ? new Response(null, { status: 304, headers: { etag: '"f1"' } }) : html(FERRY, '"f1"');
      }
      return path !== "/bridge" || gone
        ? new Response("gone", { status: 410 })
        : new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  const url = `http://127.0.0.1:${server.port}/bridge`;
  const flags = async (docId: number) =>
    (
      await (t.services.maintenance as unknown as { db: { sql: import("postgres").Sql } }).db.sql`
        SELECT a.metadata FROM pm_atom a JOIN pm_citation c ON c.atom_id = a.id
         WHERE c.doc_id = ${docId} AND c.chunk_id IS NOT NULL ORDER BY a.id`
    ).map((r) => (r.metadata as Record<string, unknown>).source_gone ?? null);

  beforeAll(async () => {
    const opened = await openTestServices("pglite", { allow_private_urls: true });
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
  }, 120_000);
  afterAll(async () => {
    await t?.dispose();
    server.stop(true);
  });

  test("ingesting its URL again clears the gone mark and every atom's flag", async () => {
    const s = t.services;
    const first = await ingest(s, { url });
    const docId = first.documents[0].doc_id!;
    gone = true;
    const r = await refresh(s, { olderThanS: 0, hostIntervalMs: 10 });
    expect(r).toMatchObject({ checked: 1, gone: 1 });
    const flagged = await flags(docId);
    expect(flagged.length).toBeGreaterThan(0);
    for (const f of flagged) expect(f).toMatchObject({ doc_id: docId, status: 410 });
    expect((await s.freshness.freshness(docId))?.goneAt).not.toBeNull();

    gone = false;
    const again = await ingest(s, { url });
    expect(again.documents[0]).toMatchObject({ doc_id: docId, version: 1, unchanged: true });
    expect((await s.freshness.freshness(docId))?.goneAt).toBeNull();
    expect(await flags(docId)).toEqual(flagged.map(() => null));
    // Back in the refresh cycle: due again once its check is old enough.
    expect((await s.freshness.dueUrlDocuments(0, 10)).map((d) => d.id)).toEqual([docId]);
    expect(await s.freshness.markBack(docId)).toBe(0);
  }, 120_000);

  test("a refresh re-checks a gone page: back with the same text (a 304) clears the mark; another text is a version", async () => {
    const s = t.services;
    const url = `http://127.0.0.1:${server.port}/ferry`;
    const docId = (await ingest(s, { url })).documents[0].doc_id!;
    ferry = 0;
    const goneRun = await refresh(s, { olderThanS: 0, hostIntervalMs: 10 });
    expect(goneRun.items.find((i) => i.doc_id === docId)).toMatchObject({ outcome: "gone" });
    const flagged = await flags(docId);
    expect(flagged.every((f) => f !== null)).toBe(true);

    ferry = 1;
    ferryAsked.length = 0;
    const backRun = await refresh(s, { olderThanS: 0, hostIntervalMs: 10 });
    const back = backRun.items.find((i) => i.doc_id === docId)!;
    expect(back).toMatchObject({ outcome: "back", version: 1, atoms_unflagged: flagged.length });
    expect(backRun.back).toBe(1);
    expect(describeRefreshItem(back)).toBe(`back ${url}, ${flagged.length} atom(s) unflagged`);
    expect(ferryAsked).toEqual(['"f1"']); // the stored ETag went back; the server's 304 said "the same"
    expect((await s.freshness.freshness(docId))?.goneAt).toBeNull();
    expect(await flags(docId)).toEqual(flagged.map(() => null));

    ferry = 0;
    await refresh(s, { olderThanS: 0, hostIntervalMs: 10 });
    expect((await s.freshness.freshness(docId))?.goneAt).not.toBeNull();
    ferry = 2;
    const changedRun = await refresh(s, { olderThanS: 0, hostIntervalMs: 10 });
    const changed = changedRun.items.find((i) => i.doc_id === docId)!;
    expect(changed).toMatchObject({ outcome: "changed", version: 2 });
    expect(changed.atoms_unflagged).toBeGreaterThan(0);
    expect((await s.freshness.freshness(docId))?.goneAt).toBeNull();
    expect((await flags(docId)).every((f) => f === null)).toBe(true);
  }, 120_000);
});
