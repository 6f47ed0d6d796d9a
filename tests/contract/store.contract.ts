/**
 * CanonicalStore contract: what every backend must do, run against embedded PGlite always and against
 * PostgreSQL when a server answers. `open` gives a fresh, empty database.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Database } from "../../src/adapters/sql/database.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { MIGRATIONS } from "../../src/adapters/sql/migrations.ts";
import { draftAtom } from "../../src/core/knowledge/atoms.ts";
import { PegasError } from "../../src/errors.ts";
import type { IngestPlan } from "../../src/ports/store/ingest.ts";
import { contractSuite, type SkipReason } from "../support/contract.ts";

/** A fresh database and how to dispose of it. */
export interface OpenedDb {
  db: Database;
  dispose(): Promise<void>;
}

const DIM = 8;
const MODEL = "contract-test-model";

function vec(seed: number): Float32Array {
  const v = new Float32Array(DIM).map((_, i) => Math.sin(seed * 7.1 + i));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function atom(text: string, seed: number) {
  return {
    ...draftAtom({ type: "text", claim: `${text.split(".")[0]}.`, content: text, confidence: 0.5 }),
    vector: vec(seed),
  };
}

/** A two-chunk ingest plan for `uri`; `variant` changes the second chunk. */
export function samplePlan(uri: string, variant = ""): IngestPlan {
  const texts = [
    "В больничном дворе стоит небольшой флигель. Крыша ржавая.",
    `Доктор Рагин любит ум и честность${variant}. Он читает.`,
  ];
  return {
    document: {
      kind: "text",
      uri,
      title: "Палата № 6",
      contentHash: `hash-${uri}-${variant}`,
      byteSize: 100,
      authority: 0.5,
      metadata: { lang: "ru" },
    },
    chunks: texts.map((t, i) => ({
      ord: i,
      text: t,
      contentHash: `c${i}${variant}`,
      locator: { line_start: i + 1, line_end: i + 1 },
    })),
    atoms: texts.map((t, i) => ({
      atom: atom(t, i + variant.length),
      citation: {
        chunkOrd: i,
        locator: { line_start: i + 1, line_end: i + 1, char_start: 0, char_end: t.length },
        quote: t.slice(0, 20),
      },
    })),
    model: MODEL,
  };
}

/**
 * Registers the contract suite for one backend (tests/support/contract.ts: `skip`, a probe's reason, skips it and
 * prints why). `open` gives a fresh, empty database, or why it cannot (the suite's tests then fail, naming it).
 */
export function storeContract(name: string, open: () => Promise<OpenedDb | string>, skip: SkipReason = null): void {
  contractSuite(`CanonicalStore contract: ${name}`, skip, () => {
    let opened: OpenedDb | string;
    let store: SqlCanonicalStore;
    beforeAll(async () => {
      opened = await open();
      if (typeof opened === "string") return;
      store = new SqlCanonicalStore(opened.db);
    }, 60_000);
    afterAll(async () => {
      if (typeof opened !== "string") await opened.dispose();
    }, 30_000);
    const it = (title: string, fn: () => Promise<void>) =>
      test(title, async () => {
        if (typeof opened === "string") throw new Error(`cannot open ${name}: ${opened}`);
        await fn();
      }, 60_000);

    it("migrates, and migrating again applies nothing", async () => {
      const all = MIGRATIONS.map((m) => m.version);
      expect(await store.migrate()).toEqual(all);
      expect(await store.migrate()).toEqual([]);
      expect(await store.migrationStatus()).toEqual({ applied: all, pending: [] });
    });

    it("commits an ingest in one transaction; the same content again changes nothing", async () => {
      const first = await store.commitIngest(samplePlan("file:///a.txt"));
      expect(first).toMatchObject({ version: 1, unchanged: false, atomsCreated: 2, citationsAdded: 2, atomsStaled: 0 });
      const again = await store.commitIngest(samplePlan("file:///a.txt"));
      expect(again).toMatchObject({
        docId: first.docId,
        version: 1,
        unchanged: true,
        atomsCreated: 0,
        citationsAdded: 0,
      });
      expect(await store.documentByUri("file:///a.txt")).toEqual({
        id: first.docId,
        version: 1,
        title: "Палата № 6",
        contentHash: "hash-file:///a.txt-",
      });
    });

    it("the same chunk in another document is one atom with two citations", async () => {
      const other = await store.commitIngest(samplePlan("file:///b.txt"));
      expect(other.atomsCreated).toBe(0);
      expect(other.atomsExisting).toBe(2);
      const [a] = await store.atomsByIds([other.atomIds[0]], 5);
      expect(a.citation_count).toBe(2);
      expect(a.citations.map((c) => c.uri).sort()).toEqual(["file:///a.txt", "file:///b.txt"]);
    });

    it("a changed document is a new version; atoms it no longer has become stale", async () => {
      const v2 = await store.commitIngest(samplePlan("file:///c.txt", " и порядок"));
      const v3 = await store.commitIngest(samplePlan("file:///c.txt", " и тишину"));
      expect(v3.docId).toBe(v2.docId);
      expect(v3.version).toBe(2);
      expect(v3.atomsCreated).toBe(1);
      expect(v3.atomsStaled).toBe(1);
    });

    it("a failing ingest leaves nothing behind", async () => {
      const plan = samplePlan("file:///broken.txt", " сломано");
      (plan.atoms[1].atom as { type: string }).type = "no_such_type";
      const err = await store.commitIngest(plan).catch((e) => e);
      expect(err).toBeInstanceOf(PegasError);
      expect(err.code).toBe("INVALID_INPUT");
      expect(await store.documentByUri("file:///broken.txt")).toBeNull();
    });

    it("a batch of documents commits together; a later plan's atom merges into an earlier plan's", async () => {
      const a = samplePlan("file:///batch-a.txt", " в партии");
      const b = samplePlan("file:///batch-b.txt", " во второй партии");
      b.atoms[1].mergeInto = { planned: 1, cosine: 0.97, reason: "same meaning" }; // a's second atom
      b.atoms[1].links = [{ planned: 0, kind: "related", confidence: 0.8, source: "dedup" }];
      const [ca, cb] = (await store.commitIngestBatch([a, b]))!;
      expect(ca).toMatchObject({ version: 1, unchanged: false, atomsCreated: 1, atomsExisting: 1, citationsAdded: 2 });
      expect(cb).toMatchObject({ unchanged: false, atomsExisting: 1, atomsMerged: 1, linksAdded: 1 });
      expect(cb.merges).toEqual([
        { mergeId: expect.any(Number), keptAtomId: ca.atomIds[1], absorbedAtomId: expect.any(Number) },
      ]);
      expect(cb.docId).not.toBe(ca.docId);
      const [kept] = await store.atomsByIds([ca.atomIds[1]], 5);
      expect(kept.citations.map((c) => c.uri).sort()).toEqual(["file:///batch-a.txt", "file:///batch-b.txt"]);
      // One document already stored with this content: nothing of the batch is written.
      const c = samplePlan("file:///batch-c.txt", " третья");
      expect(await store.commitIngestBatch([c, samplePlan("file:///batch-a.txt", " в партии")])).toBeNull();
      expect(await store.documentByUri("file:///batch-c.txt")).toBeNull();
    });

    it("eight parallel stores of one identical atom make one atom", async () => {
      const a = atom("Параллельное сохранение одного и того же факта.", 42);
      const results = await Promise.all(Array.from({ length: 8 }, () => store.storeAtom({ atom: a, model: MODEL })));
      expect(new Set(results.map((r) => r.atomId)).size).toBe(1);
      expect(results.filter((r) => r.created).length).toBe(1);
    });

    it("a store with a source cites it once", async () => {
      const a = atom("The ward is dirty.", 43);
      const r1 = await store.storeAtom({ atom: a, model: MODEL, sourceUri: "https://example.org/x", quote: "dirty" });
      const r2 = await store.storeAtom({ atom: a, model: MODEL, sourceUri: "https://example.org/x", quote: "dirty" });
      expect(r1).toMatchObject({ created: true, citationAdded: true });
      expect(r2).toMatchObject({ atomId: r1.atomId, created: false, citationAdded: false, docId: r1.docId });
    });

    it("analysis stems Russian and English alike and folds ё", async () => {
      const a = (await store.analyze("в субботу ёлки стояли")).map((l) => l.lexeme);
      const b = (await store.analyze("суббота, елка, стоять")).map((l) => l.lexeme);
      expect(a.sort()).toEqual(b.sort());
      expect((await store.analyze("running dogs")).map((l) => l.lexeme).sort()).toEqual(["dog", "run"]);
    });

    it("an atom given its search vector's text stores the vector the store would compute", async () => {
      // Quotes and backslashes are escaped in a tsvector's text; hyphenated words, e-mails, URLs, numbers and a
      // repeated word (many positions) are the parser's special cases.
      const text =
        "Ёлки в субботу стояли у «Флигеля»: O'Brien's dogs' running-time was 3.5 km (a\\b, x@example.org, " +
        "https://example.org/p?q=1). Доктор Рагин, Рагин и снова Рагин; it's the doctor's, doctors' and Doctor's.";
      const plain = atom(text, 45);
      const [tsv] = await store.searchVectors([plain.searchText]);
      const given = { ...atom(`${text} Ещё.`, 46), searchText: plain.searchText, searchTsv: tsv };
      const a = await store.storeAtom({ atom: plain, model: MODEL });
      const b = await store.storeAtom({ atom: given, model: MODEL });
      const { sql } = (opened as OpenedDb).db;
      const rows = await sql`
        SELECT id, search_tsv, search_tsv::text AS t FROM pm_atom WHERE id IN (${a.atomId}, ${b.atomId}) ORDER BY id`;
      expect(rows.length).toBe(2);
      expect(rows[1].t).toBe(rows[0].t);
      expect(rows[0].t).toBe(tsv);
      const [same] = await sql`
        SELECT (SELECT search_tsv FROM pm_atom WHERE id = ${a.atomId}) = (SELECT search_tsv FROM pm_atom WHERE id = ${b.atomId}) AS eq`;
      expect(same.eq).toBe(true);
      // The given text is what is stored (the store does not analyse again).
      const marked = await store.storeAtom({
        atom: { ...atom(`${text} Конец.`, 47), searchTsv: "'marker':1" },
        model: MODEL,
      });
      const [m] = await sql`SELECT search_tsv::text AS t FROM pm_atom WHERE id = ${marked.atomId}`;
      expect(m.t).toBe("'marker':1");
    });

    it("the change feed returns each change after the mark, with identical row shapes", async () => {
      const all = await store.atomChanges({ xid: "0", id: 0 }, 1000);
      expect(all.length).toBeGreaterThan(3);
      const row = all[0];
      expect(typeof row.id).toBe("number");
      expect(row.lexemes.length).toBeGreaterThan(0);
      const vectors = await store.embeddingChanges({ xid: "0", id: 0 }, MODEL, 1000);
      expect(vectors[0].vector).toBeInstanceOf(Float32Array);
      expect(vectors[0].vector.length).toBe(DIM);
      const paged: number[] = [];
      for (let cursor = { xid: "0", id: 0 }; ; ) {
        const page = await store.atomChanges(cursor, 2);
        if (!page.length) break;
        paged.push(...page.map((x) => x.id));
        cursor = { xid: page[page.length - 1].xid, id: page[page.length - 1].id };
      }
      expect(paged.sort((x, y) => x - y)).toEqual(all.map((x) => x.id).sort((x, y) => x - y));
      const mark = await store.changeMark();
      // The mark is the cluster's snapshot xmin: a transaction open anywhere on the server holds it back, so rows
      // already read may come again (the projections apply them idempotently), never rows below the mark.
      for (const x of await store.atomChanges({ xid: mark, id: 0 }, 1000))
        expect(BigInt(x.xid) >= BigInt(mark)).toBe(true);
      const r = await store.storeAtom({ atom: atom("Новый факт после метки.", 44), model: MODEL });
      expect((await store.atomChanges({ xid: mark, id: 0 }, 1000)).map((x) => x.id)).toContain(r.atomId);
      expect((await store.embeddingChanges({ xid: mark, id: 0 }, MODEL, 1000)).map((x) => x.atomId)).toContain(
        r.atomId,
      );
    });

    it("trigram fallback finds a misspelled claim", async () => {
      const hits = await store.trigramSearch("флегель", 5, {});
      expect(hits.length).toBeGreaterThan(0);
      const [a] = await store.atomsByIds([hits[0].atomId], 1);
      expect(a.claim).toContain("флигель");
    });

    it("atoms come back in the asked order with typed fields", async () => {
      const ids = (await store.atomChanges({ xid: "0", id: 0 }, 3)).map((x) => x.id).reverse();
      const atoms = await store.atomsByIds([...ids, 999_999], 1);
      expect(atoms.map((a) => a.id)).toEqual(ids);
      const a = atoms.find((x) => x.citations.length)!;
      expect(typeof a.confidence).toBe("number");
      expect(a.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(a.citations.length).toBeLessThanOrEqual(1);
      expect(typeof a.citations[0].doc_id).toBe("number");
      expect(a.citations[0].locator.line_start).toBeNumber();
    });

    it("stats count what was stored", async () => {
      const s = await store.stats();
      expect(s.documents.total).toBeGreaterThanOrEqual(3);
      expect(s.atoms.total).toBe(Object.values(s.atoms.by_status).reduce((x, y) => x + y, 0));
      expect(s.atoms.by_status.stale).toBe(2); // the version test's old atom and the batch test's absorbed one
      expect(s.embeddings[MODEL]).toBeGreaterThan(0);
      expect(s.outbox.pending).toBe(0); // no projection registered as a reader: nothing is queued for nobody
      expect(s.schema_version).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
    });
  });
}
