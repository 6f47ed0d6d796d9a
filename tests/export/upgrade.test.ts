/**
 * An export made by an older pegas-memory survives the upgrade: a store left at schema version 1 (and one at 8) by
 * applying only that prefix of the migrations, filled by SQL as that version wrote its rows, is exported; the same
 * store is then upgraded in place by applyMigrations. Importing the old export into an empty store of this build gives
 * the same rows in every table and the same schema objects as the store upgraded in place — the later migrations'
 * data rewrites (0009's question_key, 0012's stemmed words of code symbols) ran on the imported rows. A damaged line
 * after the old rows, a newer export, one older than the first migration, a target that holds rows or outbox rows
 * are refused and leave the target empty at this build's schema version. On PGlite, and on PostgreSQL when it answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EMBEDDINGS_TABLE } from "../../src/ports/store/export-store.ts";
import { applyMigrations, LATEST_SCHEMA_VERSION as LATEST, MIGRATIONS } from "../../src/adapters/sql/migrations.ts";
import { pgSkipReason } from "../support/pg.ts";
import { exportToFile, importFile, importLines, rowCounts, tableRows } from "./support.ts";
import { migrateTo, openStore, schemaDigest, seedOld, type TestStore, versionOf } from "./upgrade-support.ts";

/** Schema versions of the old stores: the first, and one before the data rewrites of 0009 and 0012. */
const VERSIONS = [1, 8];
/** Exported with embeddings: only version 8 (version 1's file shows that a file without them upgrades too). */
const withEmbeddings = (v: number) => v === 8;
/** The versions of this build's migrations from `a` to `b` (numbers may skip one a branch reserved). */
const range = (a: number, b: number) => MIGRATIONS.map((m) => m.version).filter((v) => v >= a && v <= b);

const pgSkip = await pgSkipReason();

function suite(backend: "pglite" | "postgres", skip: string | null): void {
  describe.skipIf(skip !== null)(`${backend}: import of an export made at an older schema version`, () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-upgrade-"));
    const opened: TestStore[] = [];
    const olds = new Map<number, { store: TestStore; file: string }>();
    const open = async (migrated: boolean) => {
      const s = await openStore(backend, migrated);
      opened.push(s);
      return s;
    };

    beforeAll(async () => {
      if (skip) return;
      for (const v of VERSIONS) {
        const store = await open(false);
        await migrateTo(store.db, v);
        expect(await versionOf(store.db)).toBe(v);
        await seedOld(store.db.sql, v);
        const file = join(dir, `v${v}.jsonl`);
        await exportToFile(store.db, file, withEmbeddings(v));
        await applyMigrations(store.db.sql); // the same store, upgraded in place as `pegas-memory migrate` does
        olds.set(v, { store, file });
      }
    }, 180_000);

    afterAll(async () => {
      for (const s of opened) await s.dispose();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    for (const v of VERSIONS) {
      test(`schema version ${v} → ${LATEST}: the rows and schema objects of the old store upgraded in place`, async () => {
        const { store: old, file } = olds.get(v)!;
        const header = JSON.parse(readFileSync(file, "utf8").split("\n")[0]);
        expect(header.schema_version).toBe(v);
        const gapColumns = header.tables
          .find((t: { name: string }) => t.name === "pm_research_gap")
          .columns.map((c: { name: string }) => c.name);
        expect(gapColumns).not.toContain("question_key"); // the old tables travel as they were

        const target = await open(true);
        const fresh = await schemaDigest(target.db);
        const summary = await importFile(target.db, file);
        expect(summary).toMatchObject({
          schema_version: v,
          store_schema_version: LATEST,
          migrated: range(v + 1, LATEST),
        });
        expect(await versionOf(target.db)).toBe(LATEST);

        const want = await tableRows(old.db);
        const got = await tableRows(target.db);
        expect([...got.keys()]).toEqual([...want.keys()]);
        for (const [table, rows] of want) {
          if (table === EMBEDDINGS_TABLE && !withEmbeddings(v)) expect(got.get(table)).toEqual([]);
          else expect({ table, rows: got.get(table) }).toEqual({ table, rows });
        }
        expect(want.get("pm_atom")!.length).toBe(5);
        const digest = await schemaDigest(target.db);
        expect(digest).toEqual(await schemaDigest(old.db));
        expect(digest).toEqual(fresh);

        // The data rewrites ran on the imported rows.
        const gaps = await target.db.sql`SELECT id::int, question_key FROM pm_research_gap ORDER BY id`;
        expect(gaps.every((g) => typeof g.question_key === "string" && g.question_key.length > 0)).toBe(true);
        expect(gaps[1].question_key).toBe("и в на?"); // stop words only: the folded text
        const found = async (id: number, query: string) => {
          const [r] = await target.db
            .sql`SELECT search_tsv @@ plainto_tsquery('pegas', ${query}) AS ok FROM pm_code_symbol WHERE id = ${id}`;
          return r.ok;
        };
        expect(await found(1, "сумма чисел")).toBe(true);
        expect(await found(2, "decoding documents")).toBe(true);
        expect(await found(4, "Елка")).toBe(true);
        expect(await found(9, "в субботу")).toBe(true);

        // The id sequences are past the imported ids.
        const [doc] = await target.db
          .sql`INSERT INTO pm_document (kind, uri) VALUES ('text', 'file:///new.txt') RETURNING id::int AS id`;
        expect(doc.id).toBe(5);
      }, 120_000);
    }

    test("refused imports leave the target empty at this build's schema version; then the intact file loads", async () => {
      const target = await open(true);
      const fresh = await schemaDigest(target.db);
      const file = olds.get(1)!.file;
      const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
      const header = JSON.parse(lines[0]);
      const unchanged = async () => {
        expect(Object.entries(await rowCounts(target.db)).filter(([, n]) => n > 0)).toEqual([]);
        expect(await versionOf(target.db)).toBe(LATEST);
        expect(await schemaDigest(target.db)).toEqual(fresh);
      };
      const refused = async (edited: string[], message: RegExp, hint?: RegExp) => {
        const err = await importLines(target.db, edited).then(
          () => null,
          (e) => e,
        );
        expect(err).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(message) });
        if (hint) expect(err.hint).toMatch(hint);
        await unchanged();
      };

      // A damaged line after every old row: the rebuild and the rows are rolled back.
      const damaged = [...lines];
      damaged[lines.length - 2] = '{"table":"pm_research_gap","row":{"id":';
      await refused(damaged, new RegExp(`^line ${lines.length - 1}: not valid JSON`));
      // An old header over tables of another version: refused once the store is rebuilt at that version.
      const other = [JSON.stringify({ ...header, schema_version: 6 }), ...lines.slice(1)];
      await refused(other, /^line 1: .*a store at schema version 6\b/);
      const newer = [JSON.stringify({ ...header, schema_version: LATEST + 1 }), ...lines.slice(1)];
      await refused(
        newer,
        new RegExp(`^line 1: the export is at schema version ${LATEST + 1} .*newer than this store at ${LATEST}$`),
        /or a later version/,
      );
      const ancient = [JSON.stringify({ ...header, schema_version: 0 }), ...lines.slice(1)];
      await refused(
        ancient,
        new RegExp(`older than the schema versions this pegas-memory can upgrade \\(1 to ${LATEST}\\)`),
        /pegas-memory migrate/,
      );

      // Outbox rows of the target would be lost by the rebuild: refused, and the row stays (a projection reads it).
      await target.db.sql`INSERT INTO pm_outbox_reader (name, entity_types) VALUES ('qdrant', '{atom}')`;
      await target.db.sql`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', '1', 'delete')`;
      await expect(importFile(target.db, file)).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/outbox holds 1 row/),
      });
      expect((await target.db.sql`SELECT count(*)::int AS n FROM pm_outbox`)[0].n).toBe(1);
      await target.db.sql`DELETE FROM pm_outbox`;
      await target.db.sql`DELETE FROM pm_outbox_reader`;
      await unchanged();

      const ok = await importFile(target.db, file);
      expect(ok.migrated).toEqual(range(2, LATEST));
      const counts = await rowCounts(target.db);
      expect(counts.pm_atom).toBe(5);
      // Into a store that now holds rows: refused before anything is dropped.
      await expect(importFile(target.db, file)).rejects.toMatchObject({
        message: expect.stringMatching(/^the target store is not empty: .*pm_atom holds 5 row/),
      });
      expect(await rowCounts(target.db)).toEqual(counts);
      expect(await schemaDigest(target.db)).toEqual(fresh);
    }, 120_000);
  });
}

suite("pglite", null);
suite("postgres", pgSkip);
