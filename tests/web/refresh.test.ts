/**
 * `pegas-memory refresh` against a local server (issue 24, item 2 acceptance): of the pages stored by URL ingest,
 * on the re-check one changes its text (a new version, its vanished facts stale), one answers 304 to the validators
 * it gave (only the check time moves), one is removed (410: marked gone, atoms flagged, nothing deleted), one fails
 * (503: nothing changes, retried after Retry-After), one changes its HTML but not its text (unchanged), and one is
 * disallowed by robots.txt (never fetched). The server asserts the conditional headers it received. Runs on PGlite,
 * and on PostgreSQL when it is reachable.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { refresh } from "../../src/core/documents/refresh.ts";
import { describeRefreshCounts, describeRefreshItem, refreshLines } from "../../src/core/documents/refresh-report.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { search } from "../../src/core/search/search.ts";
import { pgSkipReason } from "../support/pg.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const page = (title: string, body: string, extra = "") =>
  `<html><head><title>${title}</title></head><body>${extra}<article><h1>${title}</h1>${body}</article></body></html>`;
const para = (...s: string[]) => s.map((x) => `<p>${x}</p>`).join("");

const RU_MORE =
  "Лаборатория расположена на окраине города рядом с рекой, и её корпуса видны с моста. Экскурсии для школьников проводятся по субботам.";
const KEPT = "Скорость света в вакууме равна 299 792 458 метрам в секунду.";
const DROPPED = "Аэродинамическая труба лаборатории построена в 1961 году из бетона.";
const ADDED = "Новый стенд лаборатории открыт в 2024 году для испытаний дронов.";
const CHANGING_V1 = page("Лаборатория", para(KEPT, DROPPED, "Сотрудники работают в три смены круглый год.", RU_MORE));
const CHANGING_V2 = page("Лаборатория", para(KEPT, ADDED, "Сотрудники работают в три смены круглый год.", RU_MORE));
const SAME = page(
  "Release notes",
  para(
    "Version 4.2 of the compiler reduces startup time to 149 ms.",
    "The linker now runs in parallel.",
    "The release also fixes a crash of the debugger when a breakpoint sits in an inlined function.",
    "Binary packages for the three major operating systems are available from the download page.",
  ),
);
const REMOVED = page(
  "Old API",
  para(
    "The legacy endpoint answers on port 8081.",
    "It was deprecated in March 2021 by the platform team.",
    "Clients were asked to move to the new gateway, which signs every request with a rotating key.",
    "A migration guide with examples in three languages was published alongside the notice.",
  ),
);
const FAILING = page(
  "Status board",
  para(
    "The archive mirror holds 12 TB of scans.",
    "Backups run every night at 02:00 UTC.",
    "The board lists each service with its uptime over the last ninety days and its open incidents.",
    "Operators on call update the board within ten minutes of any outage, day or night.",
  ),
);
const COSMETIC_TEXT = para(
  "The observatory dome is 14 metres wide.",
  "Its telescope was installed in 1998.",
  "Visitors may look through the eyepiece on clear evenings, when a guide explains the sky.",
  "The dome rotates on steel wheels driven by a small electric motor installed in the basement.",
);
const PRIVATE = page(
  "Private",
  para(
    "The staff canteen opens at 8 am on weekdays.",
    "Coffee is free on Fridays.",
    "The canteen menu changes every Monday and is posted beside the lifts on each floor.",
    "Vegetarian dishes are marked in green and the soup of the day is always served until three.",
  ),
);

interface Seen {
  path: string;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
}

function serve(phase: () => number, seen: Seen[]) {
  const LM = "Wed, 01 Jan 2025 00:00:00 GMT";
  const html = (body: string, headers: Record<string, string> = {}, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      const inm = req.headers.get("if-none-match");
      seen.push({ path: url.pathname, ifNoneMatch: inm, ifModifiedSince: req.headers.get("if-modified-since") });
      const p = phase();
      switch (url.pathname) {
        case "/robots.txt": // the private page is ingested first, then robots.txt forbids it
          return new Response(
            p === 1 ? "User-agent: *\nDisallow:\n" : "User-agent: *\nDisallow: /private\nAllow: /private/open\n",
            {
              headers: { "content-type": "text/plain" },
            },
          );
        case "/changing":
          return p === 1 ? html(CHANGING_V1, { etag: '"c1"' }) : html(CHANGING_V2, { etag: '"c2"' });
        case "/same":
          if (inm === '"s1"') return new Response(null, { status: 304, headers: { etag: '"s1"' } });
          return html(SAME, { etag: '"s1"', "last-modified": LM });
        case "/removed":
          if (p === 4)
            return html(REMOVED.replace("</article>", "<p>The endpoint was restored in 2026.</p></article>"));
          return p === 1 ? html(REMOVED) : new Response("gone", { status: 410 });
        case "/failing":
          if (p === 2) return new Response("busy", { status: 503, headers: { "retry-after": "120" } });
          return html(FAILING, { "last-modified": LM });
        case "/cosmetic":
          return p === 1
            ? html(page("Observatory", COSMETIC_TEXT))
            : html(page("Observatory", COSMETIC_TEXT, '<!-- rebuilt --><div class="banner" hidden></div>'));
        case "/private/page":
          return html(PRIVATE);
      }
      return new Response("no", { status: 404 });
    },
  });
}

const reason = await pgSkipReason();
const backends: Array<["pglite" | "postgres", string | null]> = [
  ["pglite", null],
  ["postgres", reason],
];

for (const [backend, skip] of backends) {
  describe.skipIf(skip !== null)(`refresh of URL documents (${backend})`, () => {
    let t: TestServices;
    let server: ReturnType<typeof Bun.serve>;
    let phase = 1;
    const seen: Seen[] = [];
    const ids: Record<string, number> = {};
    const sql = () => (t.services.maintenance as unknown as { db: { sql: import("postgres").Sql } }).db.sql;
    const row = async (id: number) =>
      (await sql()`SELECT version, content_hash, updated_at, metadata FROM pm_document WHERE id = ${id}`)[0];
    const atoms = async (id: number) =>
      (
        await sql()`SELECT a.id, a.status, a.metadata FROM pm_atom a
          WHERE a.id IN (SELECT atom_id FROM pm_citation WHERE doc_id = ${id}) ORDER BY a.id`
      ).map((r) => ({ id: Number(r.id), status: String(r.status), metadata: r.metadata as Record<string, unknown> }));

    beforeAll(async () => {
      server = serve(() => phase, seen);
      const opened = await openTestServices(backend, { allow_private_urls: true });
      if (typeof opened === "string") throw new Error(opened);
      t = opened;
      for (const name of ["changing", "same", "removed", "failing", "cosmetic", "private/page"]) {
        const r = await ingest(t.services, { url: `http://127.0.0.1:${server.port}/${name}` });
        expect(r.documents[0]).toMatchObject({ stored: true, version: 1 });
        ids[name] = r.documents[0].doc_id!;
      }
    }, 120_000);
    afterAll(async () => {
      await t?.dispose();
      server?.stop(true);
    });

    test("a fresh store has nothing due at the default age; every URL document is due at age 0", async () => {
      expect((await stats(t.services)).urls_due).toBe(0);
      expect(await t.services.freshness.countDue(0)).toBe(6);
    });

    test("changed, unchanged, gone, retried later, unchanged text, disallowed", async () => {
      const s = t.services;
      type Snapshot = { row: Awaited<ReturnType<typeof row>>; atoms: Awaited<ReturnType<typeof atoms>> };
      const before: Record<string, Snapshot> = Object.fromEntries(
        await Promise.all(
          Object.entries(ids).map(async ([k, id]) => [k, { row: await row(id), atoms: await atoms(id) }]),
        ),
      );
      for (const a of before.removed.atoms) expect(a.metadata.source_gone).toBeUndefined();
      phase = 2;
      seen.length = 0;
      const r = await refresh(s, { olderThanS: 0, hostIntervalMs: 20 });
      const by = Object.fromEntries(r.items.map((i) => [i.uri.replace(/^http:\/\/[^/]+\//, ""), i]));
      expect(r).toMatchObject({ checked: 6, changed: 1, unchanged: 2, gone: 1, retry: 1, disallowed: 1 });

      // Changed text: version 2; the dropped sentence's atom is stale, the new one findable, the kept one not stale.
      expect(by.changing).toMatchObject({ outcome: "changed", version: 2 });
      expect(by.changing.atoms_staled).toBeGreaterThanOrEqual(1);
      const stale = await search(s, { query: "аэродинамическая труба 1961", k: 5, mode: "lexical", status: ["stale"] });
      expect(stale.hits.some((h) => h.content.includes("1961"))).toBe(true);
      const fresh = await search(s, { query: "стенд дронов 2024", k: 5, mode: "lexical" });
      expect(fresh.hits.some((h) => h.content.includes("2024") && h.status !== "stale")).toBe(true);
      expect(await s.freshness.freshness(ids.changing)).toMatchObject({ etag: '"c2"', failures: 0, goneAt: null });

      // 304: nothing but the check time changed.
      expect(by.same).toMatchObject({ outcome: "unchanged", version: 1 });
      const same = await row(ids.same);
      expect(same.version).toBe(before.same.row.version);
      expect(same.content_hash).toBe(before.same.row.content_hash);
      expect(new Date(same.updated_at).getTime()).toBe(new Date(before.same.row.updated_at).getTime());
      expect(await atoms(ids.same)).toEqual(before.same.atoms);
      const sameState = await s.freshness.freshness(ids.same);
      expect(sameState?.checkedAt).not.toBeNull();
      expect(sameState).toMatchObject({ etag: '"s1"', lastModified: "Wed, 01 Jan 2025 00:00:00 GMT", failures: 0 });

      // 410: marked gone, atoms flagged, nothing deleted or restatused.
      expect(by.removed).toMatchObject({ outcome: "gone", version: 1 });
      expect(by.removed.atoms_flagged).toBe(before.removed.atoms.length);
      expect((await s.freshness.freshness(ids.removed))?.goneAt).not.toBeNull();
      expect((await row(ids.removed)).content_hash).toBe(before.removed.row.content_hash);
      const gone = await atoms(ids.removed);
      expect(gone.map((a) => [a.id, a.status])).toEqual(before.removed.atoms.map((a) => [a.id, a.status]));
      for (const a of gone) expect(a.metadata.source_gone).toMatchObject({ doc_id: ids.removed, status: 410 });

      // 503: nothing changed; retried after the server's Retry-After.
      expect(by.failing).toMatchObject({ outcome: "retry", version: 1 });
      const failing = await row(ids.failing);
      expect([failing.version, failing.content_hash]).toEqual([
        before.failing.row.version,
        before.failing.row.content_hash,
      ]);
      expect(await atoms(ids.failing)).toEqual(before.failing.atoms);
      const failState = (await s.freshness.freshness(ids.failing))!;
      expect(failState).toMatchObject({ checkedAt: null, failures: 1 });
      const wait = new Date(failState.nextCheckAt!).getTime() - Date.now();
      expect(wait).toBeGreaterThan(100_000);
      expect(wait).toBeLessThanOrEqual(120_000);

      // Other HTML around the same text is no change; robots.txt kept the private page unfetched.
      expect(by.cosmetic).toMatchObject({ outcome: "unchanged", version: 1 });
      expect((await row(ids.cosmetic)).content_hash).toBe(before.cosmetic.row.content_hash);
      expect(by["private/page"]).toMatchObject({ outcome: "disallowed", version: 1 });

      // At the server: robots.txt read once, the validators sent back, the disallowed page never asked.
      const at = (p: string) => seen.filter((x) => x.path === p);
      expect(at("/robots.txt").length).toBe(1);
      expect(at("/private/page")).toEqual([]);
      expect(at("/changing")[0].ifNoneMatch).toBe('"c1"');
      expect(at("/same")[0]).toMatchObject({ ifNoneMatch: '"s1"', ifModifiedSince: "Wed, 01 Jan 2025 00:00:00 GMT" });
      expect(at("/failing")[0].ifModifiedSince).toBe("Wed, 01 Jan 2025 00:00:00 GMT");
      expect(at("/removed")[0]).toMatchObject({ ifNoneMatch: null, ifModifiedSince: null });
    }, 120_000);

    test("nothing is due again at once; the failed page is retried when its time comes", async () => {
      const s = t.services;
      expect((await refresh(s, { olderThanS: 3600, hostIntervalMs: 20 })).checked).toBe(0);
      // Only the retry time keeps the failed page back; the gone page is re-checked like the others.
      const dueNow = (await s.freshness.dueUrlDocuments(0, 50)).map((d) => d.id);
      expect(dueNow).not.toContain(ids.failing);
      expect(dueNow).toContain(ids.removed);
      await sql()`UPDATE pm_document SET next_check_at = now() - interval '1 second' WHERE id = ${ids.failing}`;
      phase = 3;
      const r = await refresh(s, { olderThanS: 0, hostIntervalMs: 20, limit: 50 });
      const item = r.items.find((i) => i.doc_id === ids.failing);
      expect(item).toMatchObject({ outcome: "unchanged", version: 1 });
      expect(await s.freshness.freshness(ids.failing)).toMatchObject({
        failures: 0,
        nextCheckAt: null,
        lastError: null,
      });
    }, 120_000);

    test("a gone page is re-checked: still gone keeps its first gone time and flags nothing again", async () => {
      const s = t.services;
      await sql()`UPDATE pm_document SET gone_at = gone_at - interval '1 hour' WHERE id = ${ids.removed}`;
      const goneAt = (await s.freshness.freshness(ids.removed))!.goneAt;
      const flags = (await atoms(ids.removed)).map((a) => a.metadata.source_gone);
      seen.length = 0;
      const r = await refresh(s, { olderThanS: 0, hostIntervalMs: 20, limit: 50 });
      const item = r.items.find((i) => i.doc_id === ids.removed)!;
      expect(item).toMatchObject({ outcome: "gone", atoms_flagged: 0, error: "HTTP 410" });
      expect(describeRefreshItem(item)).toBe(`gone ${item.uri} (still gone): HTTP 410`);
      expect((await s.freshness.freshness(ids.removed))?.goneAt).toBe(goneAt);
      expect((await atoms(ids.removed)).map((a) => a.metadata.source_gone)).toEqual(flags);
      expect(seen.filter((x) => x.path === "/removed").length).toBe(1); // asked at the server
    }, 120_000);

    test("pages waiting for a retry are named in the report with their error and next attempt", async () => {
      const s = t.services;
      phase = 2; // /failing answers 503 again
      await sql()`UPDATE pm_document SET next_check_at = now() - interval '1 second' WHERE id = ${ids.failing}`;
      const first = await refresh(s, { olderThanS: 0, hostIntervalMs: 20, limit: 50 });
      const failed = first.items.find((i) => i.doc_id === ids.failing)!;
      expect(failed).toMatchObject({ outcome: "retry" });
      expect(describeRefreshItem(failed)).toMatch(
        /^retry \S+\/failing, next attempt \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: .*503/,
      );
      seen.length = 0;
      const r = await refresh(s, { olderThanS: 0, hostIntervalMs: 20, limit: 50 });
      // The failed page and the page robots.txt forbids wait; neither is asked, both are reported, soonest first.
      expect(seen.map((x) => x.path)).not.toContain("/failing");
      expect(seen.map((x) => x.path)).not.toContain("/private/page");
      expect(r.items.map((i) => i.doc_id)).not.toContain(ids.failing);
      expect(r.waiting).toBe(2);
      const state = (await s.freshness.freshness(ids.failing))!;
      expect(r.waiting_items).toEqual([
        { doc_id: ids.failing, uri: failed.uri, error: state.lastError!, retry_at: state.nextCheckAt!, failures: 1 },
        expect.objectContaining({ doc_id: ids["private/page"], error: "robots.txt disallows this page", failures: 1 }),
      ]);
      expect(state.lastError).toContain("503");
      const text = refreshLines(r).join("\n");
      expect(text).toContain(
        `waiting ${failed.uri}, next attempt ${state.nextCheckAt!.replace(/\.\d+Z$/, "Z")} (failed 1×: `,
      );
      expect(describeRefreshCounts(r)).toContain("2 waiting for a retry");
      await sql()`UPDATE pm_document SET next_check_at = NULL, check_failures = 0 WHERE id = ${ids.failing}`;
    }, 120_000);

    test("a gone page that is ingested again with new text is back: a new version, checked again", async () => {
      const s = t.services;
      phase = 4;
      const r = await ingest(s, { url: `http://127.0.0.1:${server.port}/removed` });
      expect(r.documents[0]).toMatchObject({ doc_id: ids.removed, version: 2 });
      expect(await s.freshness.freshness(ids.removed)).toMatchObject({ goneAt: null, etag: null });
      // The atoms the new version still holds (and the old ones) lose the gone flag with the document's mark.
      const held = await atoms(ids.removed);
      expect(held.length).toBeGreaterThan(0);
      for (const a of held) expect(a.metadata.source_gone).toBeUndefined();
      // Just fetched, it is not due; once its last check and fetch are over a week old, it is.
      expect((await s.freshness.dueUrlDocuments(7 * 86_400, 50)).map((d) => d.id)).toEqual([]);
      await sql()`UPDATE pm_document SET updated_at = now() - interval '8 days', checked_at = now() - interval '9 days'
        WHERE id = ${ids.removed}`;
      expect((await s.freshness.dueUrlDocuments(7 * 86_400, 50)).map((d) => d.id)).toEqual([ids.removed]);
    }, 120_000);
  });
}
