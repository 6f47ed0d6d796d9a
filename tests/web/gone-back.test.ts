/**
 * A page a refresh found gone (410) that answers again with the text it held, when its URL is ingested again: the
 * document is no longer gone and its atoms lose the `source_gone` flag (the same version, nothing re-distilled).
 * Embedded database.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { refresh } from "../../src/core/documents/refresh.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const PAGE = `<html><head><title>Мост</title></head><body><article><h1>Мост</h1><p>${[
  "Разводной мост открывается каждую ночь в половине второго.",
  "Его пролёт длиной 60 метров поднимают два электромотора.",
  "Летом у моста собираются туристы, чтобы посмотреть на развод.",
  "The bridge was rebuilt in 1998 and repainted green in 2015.",
].join("</p><p>")}</p></article></body></html>`;

describe("a gone page that comes back unchanged", () => {
  let t: TestServices;
  let gone = false;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname !== "/bridge" || gone
        ? new Response("gone", { status: 410 })
        : new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
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
});
