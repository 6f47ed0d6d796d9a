/**
 * Issue 22 acceptance: an existing store gains entities through the backfill. A store is built at schema version 14
 * (before entities) holding real paragraphs of the Russian and English fixtures as atoms, then migrated; the backfill
 * (`reindex entities`, core/entities/backfill.ts) runs interrupted by a limit, resumes where it stopped, then a
 * repeated run and a restart add nothing; the result equals extracting every atom at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqlEntityStore } from "../../src/adapters/sql/entities/store.ts";
import type { Database } from "../../src/adapters/sql/database.ts";
import { applyMigrationsWithin } from "../../src/adapters/sql/migrations.ts";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { atomMentions } from "../../src/domain/entities/atom-mentions.ts";
import { extractMentions } from "../../src/domain/entities/mentions.ts";
import { backfillEntities, ENTITY_SCAN } from "../../src/core/entities/backfill.ts";
import { fixture } from "../support/services.ts";

/** `n` passages of four sentences of a fixture, past its first 40 (the Gutenberg header and a preface). */
function passages(path: string, n: number): string[] {
  const sentences = readFileSync(fixture(path), "utf8")
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?…])\s+(?=[A-ZА-ЯЁ«"“—–-])/u);
  const out: string[] = [];
  for (let i = 40; out.length < n && i + 4 <= sentences.length; i += 4) out.push(sentences.slice(i, i + 4).join(" "));
  return out;
}

const RU = passages("text/ru_chekhov_palata_no6.txt", 60);
const EN = passages("text/en_gutenberg_8868_botchan.txt", 60);

let dir: string;
let db: Database;
let store: SqlEntityStore;
const ids: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pegas-backfill-"));
  db = await openPglite({ dataDir: dir });
  await db.sql.begin((tx) => applyMigrationsWithin(tx, 14));
  const texts = [...RU.map((t) => [t, "ru"]), ...EN.map((t) => [t, "en"])];
  for (const [i, [t, lang]] of texts.entries()) {
    const [r] = await db.sql`
      INSERT INTO pm_atom (type, claim, content, content_hash, lang, search_tsv)
      VALUES ('text', ${`${t.split(". ")[0]}.`}, ${t}, ${`backfill-${i}`}, ${lang}, to_tsvector('pegas', ${t})) RETURNING id`;
    ids.push(Number(r.id));
  }
  // One retracted atom: the backfill leaves it alone.
  await db.sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ${ids[3]}`;
  const [before] = await db.sql`SELECT to_regclass('pm_entity') IS NULL AS absent`;
  expect(before.absent).toBe(true);
  expect((await new SqlCanonicalStore(db).migrate())[0]).toBe(15); // 0015 and those after it
  store = new SqlEntityStore(db);
}, 120_000);

afterAll(async () => {
  await db?.close(0);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe("entity backfill", () => {
  test("the fixtures give entities in both languages", () => {
    const ru = RU.flatMap((t) => extractMentions(t, "ru"));
    const en = EN.flatMap((t) => extractMentions(t, "en"));
    expect(ru.length).toBeGreaterThan(20);
    expect(en.length).toBeGreaterThan(20);
  });

  test("interrupted by a limit, it resumes where it stopped, and ends with every live atom's mentions", async () => {
    const first = await backfillEntities(store, { maxAtoms: 50, pageSize: 20 });
    expect(first).toMatchObject({ atoms: 50, resumedAfter: 0, finished: false });
    expect(first.mentionsAdded).toBeGreaterThan(0);
    expect((await store.scanState(ENTITY_SCAN)).lastAtomId).toBe(first.lastAtomId);
    const rest = await backfillEntities(store, { pageSize: 20 });
    expect(rest.resumedAfter).toBe(first.lastAtomId);
    expect(rest.atoms).toBe(ids.length - 1 - 50);
    expect(rest.finished).toBe(true);
    expect((await store.scanState(ENTITY_SCAN)).finishedAt).not.toBeNull();

    // Exactly the mentions of extracting every live atom at once.
    const atoms = await store.atomsAfter(0, 1000);
    const want = atoms.flatMap((a) => atomMentions(a, extractMentions));
    const got = await store.mentionsOfAtoms(ids);
    const spans = (xs: Array<{ atomId: number; field: string; start: number; end: number; surface: string }>) =>
      xs.map((m) => `${m.atomId}/${m.field}/${m.start}/${m.end}/${m.surface}`).sort();
    expect(spans(got)).toEqual(spans(want.flatMap((b) => b.mentions.map((m) => ({ ...m, ...b })))));
    expect(got.some((m) => m.atomId === ids[3])).toBe(false);
    const counts = await store.entityCounts();
    expect(counts.mentions).toBe(got.length);
    expect(counts.entities + counts.merged).toBe(new Set(want.flatMap((b) => b.mentions.map((m) => m.key))).size);
    // The finished scan resolved aliases over the corpus: every merge audited with the resolver's rule.
    expect(rest.merged).toBe(counts.merges);
    expect(rest.merged).toBeGreaterThan(0);
    for (const m of await store.entityMerges()) {
      expect(m.actor).toBe("resolver");
      expect(["contains-same-document", "prefix-same-document", "contained-unique", "patronymic-variant"]).toContain(
        m.reason,
      );
    }
  }, 120_000);

  test("a finished scan adds nothing; a restart reads every atom again and adds nothing either", async () => {
    const before = await store.entityCounts();
    const again = await backfillEntities(store);
    expect(again).toMatchObject({ atoms: 0, mentionsAdded: 0, finished: true });
    const restarted = await backfillEntities(store, { restart: true });
    expect(restarted).toMatchObject({ atoms: ids.length - 1, resumedAfter: 0, mentionsAdded: 0, entitiesCreated: 0 });
    expect(restarted.merged).toBe(0);
    expect(await store.entityCounts()).toEqual(before);
    // An undone merge is a decision: the next resolution does not make it again.
    const [m] = await store.entityMerges();
    await store.undoEntityMerge(m.id);
    expect((await backfillEntities(store, { restart: true })).merged).toBe(0);
    expect(await store.rootOf(m.fromEntityId)).toBe(m.fromEntityId);
  }, 120_000);

  test("Russian names in any case are one entity", async () => {
    const ragin = await store.entitiesByKeys(["андрей ефимыч"]);
    expect(ragin.length).toBe(1);
    const surfaces = new Set((await store.mentionsOfEntity(ragin[0].id, { limit: 1000 })).map((m) => m.surface));
    expect(surfaces.size).toBeGreaterThan(1);
  }, 60_000);

  test("a cancelled run stops with CANCELLED and keeps the pages it wrote", async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await backfillEntities(store, { restart: true, signal: ac.signal }).catch((e) => e);
    expect(err.code).toBe("CANCELLED");
    expect((await store.scanState(ENTITY_SCAN)).lastAtomId).toBe(0);
  });
});
