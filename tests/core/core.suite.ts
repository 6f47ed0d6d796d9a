/**
 * Use-case suite (ingest, store, search, stats) over real fixtures, run per backend.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { rejectsWith } from "../support/errors.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";

const CHEKHOV = fixture("text/ru_chekhov_palata_no6.txt");
const BOTCHAN = fixture("text/en_gutenberg_8868_botchan.txt");

/** Registers the suite for one backend; `skipReason` skips it. */
export function coreSuite(backend: "postgres" | "pglite", skipReason: string | null = null): void {
  describe.skipIf(skipReason !== null)(`core use cases on ${backend}`, () => {
    let t: TestServices | string;
    let chekhovDoc = 0;
    beforeAll(async () => {
      t = await openTestServices(backend, { ingest_roots: [fixture("")] });
    }, 60_000);
    afterAll(async () => {
      if (typeof t !== "string") await t.dispose();
    }, 30_000);
    const it = (title: string, fn: (s: TestServices["services"]) => Promise<void>) =>
      test(title, async () => {
        if (typeof t === "string") throw new Error(`cannot open ${backend}: ${t}`);
        await fn(t.services);
      }, 60_000);

    it("ingests the Russian fixture with line locators, and again changes nothing", async (s) => {
      const r = await ingest(s, { path: CHEKHOV });
      expect(r).toMatchObject({ unchanged: false, version: 1 });
      expect(r.chunks).toBeGreaterThan(60);
      expect(r.atoms_distilled).toBeGreaterThan(r.chunks);
      expect(r.atoms_created + r.atoms_existing + r.atoms_near_duplicate).toBe(r.atoms_distilled);
      expect(r.chunks_quarantined).toBe(0);
      chekhovDoc = r.doc_id!;
      const before = await stats(s);
      const again = await ingest(s, { path: CHEKHOV });
      expect(again).toMatchObject({ unchanged: true, doc_id: r.doc_id, atoms_created: 0 });
      const after = await stats(s);
      expect(after.atoms).toEqual(before.atoms);
      expect(after.citations).toBe(before.citations);
    });

    for (const q of ["больничная палата", "палата", "больницы", "Рагин", "Андрей Ефимыч"]) {
      it(`«${q}» finds cited hits in the Chekhov text`, async (s) => {
        const r = await search(s, { query: q, k: 5 });
        expect(r.hits.length).toBeGreaterThan(0);
        const h = r.hits[0];
        expect(h.ranks.lexical).toBeDefined();
        expect(h.citations[0].doc_id).toBe(chekhovDoc);
        expect(h.citations[0].locator.line_start).toBeGreaterThan(0);
        const stem = q === "Андрей Ефимыч" ? "ефимыч" : q.slice(0, 4).toLowerCase();
        expect(h.content.toLowerCase().replaceAll("ё", "е")).toContain(stem);
      });
    }

    it("an English query finds the Botchan text", async (s) => {
      await ingest(s, { path: BOTCHAN });
      const r = await search(s, { query: "teacher of mathematics at the middle school", k: 3 });
      expect(r.hits[0].citations[0].uri).toEndWith("en_gutenberg_8868_botchan.txt");
      expect(r.hits[0].citations[0].locator.line_end).toBeGreaterThanOrEqual(
        r.hits[0].citations[0].locator.line_start!,
      );
    });

    it("a query with no full-text match uses the trigram fallback", async (s) => {
      const r = await search(s, { query: "флегель", k: 3 });
      expect(r.lexical_fallback).toBe(true);
      expect(r.hits[0].claim).toContain("флигель");
      const exact = await search(s, { query: "флигель", k: 3 });
      expect(exact.lexical_fallback).toBe(false);
    });

    it("filters by document and pages with a cursor", async (s) => {
      const p1 = await search(s, { query: "доктор", k: 3, doc_id: chekhovDoc });
      expect(p1.hits.every((h) => h.citations.some((c) => c.doc_id === chekhovDoc))).toBe(true);
      expect(p1.next_cursor).not.toBeNull();
      const p2 = await search(s, { query: "доктор", k: 3, doc_id: chekhovDoc, cursor: p1.next_cursor! });
      const ids1 = new Set(p1.hits.map((h) => h.atom_id));
      expect(p2.hits.some((h) => ids1.has(h.atom_id))).toBe(false);
      await rejectsWith(search(s, { query: "другое", k: 3, cursor: p1.next_cursor! }), "INVALID_INPUT");
      await rejectsWith(search(s, { query: "  " }), "INVALID_INPUT");
      await rejectsWith(search(s, { query: "x", k: 500 }), "INVALID_INPUT");
    });

    it("gibberish finds nothing rather than noise", async (s) => {
      expect((await search(s, { query: "qwertyuiopasdfzx" })).hits).toEqual([]);
      expect((await search(s, { query: "qwertyuiopasdfzx", mode: "vector", k: 3 })).hits.length).toBe(3);
    });

    it("each leg can run alone", async (s) => {
      const lexical = await search(s, { query: "больничный флигель", k: 5, mode: "lexical" });
      const vector = await search(s, { query: "больничный флигель", k: 5, mode: "vector" });
      expect(lexical.hits.length).toBe(5);
      expect(vector.hits.length).toBe(5);
      expect(lexical.hits.every((h) => h.ranks.vector === undefined && h.ranks.lexical !== undefined)).toBe(true);
      expect(vector.hits.every((h) => h.ranks.lexical === undefined && h.ranks.vector !== undefined)).toBe(true);
    });

    it("stores atoms: exact duplicate, near duplicate, and a negation that must stay apart", async (s) => {
      const a = await storeAtom(s, {
        type: "fact",
        claim: "Доктор Рагин служит в больнице уездного города с 1870 года.",
      });
      expect(a.created).toBe(true);
      const same = await storeAtom(s, {
        type: "fact",
        claim: "  доктор Рагин служит в больнице уездного города с 1870 года. ",
      });
      expect(same).toMatchObject({ atom_id: a.atom_id, created: false });
      const near = await storeAtom(s, {
        type: "fact",
        claim: "Доктор Рагин служит в больнице уездного города с 1870 года!!",
        source_uri: "https://example.org/ragin",
      });
      expect(near.near_duplicate_of?.atom_id).toBe(a.atom_id);
      expect(near.citation_added).toBe(true);
      await rejectsWith(
        storeAtom(s, { type: "fact", claim: "X.", source_uri: "https://user:secret@example.org/p" }),
        "INVALID_INPUT",
      );
      const neg = await storeAtom(s, {
        type: "fact",
        claim: "Доктор Рагин не служит в больнице уездного города с 1870 года.",
      });
      expect(neg.created).toBe(true);
      const year = await storeAtom(s, {
        type: "fact",
        claim: "Доктор Рагин служит в больнице уездного города с 1880 года.",
      });
      expect(year.created).toBe(true);
      const hit = await search(s, { query: "Рагин служит", types: ["fact"], k: 10 });
      expect(hit.hits.map((h) => h.atom_id)).toContain(a.atom_id);
      expect(hit.hits.every((h) => h.type === "fact")).toBe(true);
    });

    it("bad characters are stored with warnings; oversized input is refused; nothing half-written", async (s) => {
      const r = await ingest(s, {
        text: "Нулевой\u0000 байт и одинокий \ud800 суррогат. Эмодзи 👨‍👩‍👧‍👦 на краю.",
        title: "bad chars",
      });
      expect(r.warnings.join(" ")).toContain("NUL");
      expect(r.warnings.join(" ")).toContain("surrogate");
      const found = await search(s, { query: "одинокий суррогат" });
      expect(found.hits[0].content).toContain("\ufffd");
      const line = "слово ".repeat(170_000);
      const big = await ingest(s, { text: line, title: "one line" });
      expect(big.chunks).toBeGreaterThan(500);
      const before = await stats(s);
      await rejectsWith(storeAtom(s, { type: "fact", claim: "x".repeat(1_000_000) }), "INVALID_INPUT");
      await rejectsWith(ingest(s, { text: "abc", path: CHEKHOV }), "INVALID_INPUT");
      await rejectsWith(ingest(s, { path: "/etc/passwd" }), "INVALID_INPUT");
      const ac = new AbortController();
      ac.abort();
      await rejectsWith(ingest(s, { text: "Отменённый документ про флигель." }, { signal: ac.signal }), "CANCELLED");
      const after = await stats(s);
      expect(after.documents.total).toBe(before.documents.total);
      expect(after.atoms.total).toBe(before.atoms.total);
    });

    it("retracted atoms are never found", async (s) => {
      const r = await storeAtom(s, { type: "definition", claim: "Флигель — это пристройка к главному зданию." });
      expect((await search(s, { query: "пристройка к главному зданию" })).hits[0].atom_id).toBe(r.atom_id);
      const db = (s.maintenance as unknown as { db: { sql: import("postgres").Sql } }).db;
      await db.sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ${r.atom_id}`;
      const after = await search(s, { query: "пристройка к главному зданию" });
      expect(after.hits.map((h) => h.atom_id)).not.toContain(r.atom_id);
    });

    it("stats report the projections caught up", async (s) => {
      const st = await stats(s);
      expect(st.projections.lexical.lag_atoms).toBe(0);
      expect(st.projections.vector.lag_vectors).toBe(0);
      expect(st.embedder.kind).toBe("lexical");
      expect(st.documents.by_kind.text).toBeGreaterThanOrEqual(2);
    });
  });
}
