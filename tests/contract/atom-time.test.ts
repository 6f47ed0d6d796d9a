/**
 * The time columns of an atom (migrations/0016_atom_time.sql) on both SQL backends: memory_store's `observed_at` and
 * the event time its text states (relative ones resolved against observed_at) are stored; a bad date is refused
 * with INVALID_INPUT naming the format and writes nothing; an atom stored again keeps its earliest observation; the
 * constraint refuses a half-given event time; the columns survive export → import. PGlite always, PostgreSQL when
 * it answers.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import type { Services } from "../../src/core/services.ts";
import { exportToFile, importFile } from "../export/support.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const pgSkip = await pgSkipReason();
const dir = mkdtempSync(join(tmpdir(), "pegas-atom-time-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dbOf = (s: Services) => (s.maintenance as SqlCanonicalStore).db;

async function timeOf(s: Services, id: number) {
  const [r] = await dbOf(s).sql`
    SELECT to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS observed,
           to_char(event_start AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS start,
           to_char(event_end AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "end", event_granularity AS granularity
      FROM pm_atom WHERE id = ${id}`;
  return { ...r };
}

function suite(backend: "pglite" | "postgres", skip: string | null): void {
  describe.skipIf(skip !== null)(`${backend}: atom time`, () => {
    const t = suiteServices(backend, {}, { skip });
    const other = suiteServices(backend, {}, { skip });

    test("memory_store keeps observed_at and the event time its text states", async () => {
      const a = await storeAtom(t.services, {
        type: "fact",
        claim: "Alice moved to Berlin last year.",
        observed_at: "2024-01-15T10:30:00+02:00",
      });
      expect(await timeOf(t.services, a.atom_id)).toEqual({
        observed: "2024-01-15T08:30",
        start: "2023-01-01",
        end: "2024-01-01",
        granularity: "year",
      });
      const ru = await storeAtom(t.services, {
        type: "fact",
        claim: "Андрей Ефимыч уехал в Москву позавчера.",
        observed_at: "2024-03-03",
      });
      expect(await timeOf(t.services, ru.atom_id)).toEqual({
        observed: "2024-03-03T00:00",
        start: "2024-03-01",
        end: "2024-03-02",
        granularity: "day",
      });
    });

    test("an absolute date needs no observed_at; an undated atom has no time", async () => {
      const a = await storeAtom(t.services, { type: "fact", claim: "The hospital was built in 1998." });
      expect(await timeOf(t.services, a.atom_id)).toEqual({
        observed: null,
        start: "1998-01-01",
        end: "1999-01-01",
        granularity: "year",
      });
      const b = await storeAtom(t.services, { type: "fact", claim: "The hospital has a small annex." });
      expect(await timeOf(t.services, b.atom_id)).toEqual({
        observed: null,
        start: null,
        end: null,
        granularity: null,
      });
    });

    test("a bad observed_at is INVALID_INPUT naming the format, and stores nothing", async () => {
      const [before] = await dbOf(t.services).sql`SELECT count(*)::int AS n FROM pm_atom`;
      for (const bad of ["yesterday", "2024-02-30", "03/03/2024", "2024-13", "2999-01-01"]) {
        const err = await rejectsWith(
          storeAtom(t.services, { type: "fact", claim: `Bob likes tea (${bad}).`, observed_at: bad }),
          "INVALID_INPUT",
        );
        expect(err.userMessage).toMatch(bad === "2999-01-01" ? /future/ : /ISO 8601: YYYY-MM-DD/);
      }
      const [after] = await dbOf(t.services).sql`SELECT count(*)::int AS n FROM pm_atom`;
      expect(after.n).toBe(before.n);
    });

    test("the same atom stored again keeps its earliest observation", async () => {
      const claim = "Carol works at Acme.";
      const a = await storeAtom(t.services, { type: "fact", claim, observed_at: "2024-05-01" });
      await storeAtom(t.services, { type: "fact", claim, observed_at: "2024-07-01" });
      expect((await timeOf(t.services, a.atom_id)).observed).toBe("2024-05-01T00:00");
      await storeAtom(t.services, { type: "fact", claim, observed_at: "2023-02" });
      expect((await timeOf(t.services, a.atom_id)).observed).toBe("2023-02-01T00:00");
    });

    test("the schema refuses an event time without its end or granularity", async () => {
      const err = await dbOf(t.services)
        .sql`UPDATE pm_atom SET event_start = now() WHERE id = (SELECT min(id) FROM pm_atom WHERE event_start IS NULL)`.catch(
        (e) => e,
      );
      expect(String(err)).toMatch(/pm_atom_event_time_check/);
    });

    test("the time columns travel through export and import", async () => {
      const file = join(dir, `${backend}.jsonl`);
      await exportToFile(dbOf(t.services), file, false);
      await importFile(dbOf(other.services), file);
      const q = `SELECT id, observed_at, event_start, event_end, event_granularity FROM pm_atom ORDER BY id`;
      const rows = await dbOf(t.services).sql.unsafe(q);
      expect(rows.filter((r) => r.event_start !== null).length).toBeGreaterThanOrEqual(3);
      expect(await dbOf(other.services).sql.unsafe(q)).toEqual(rows);
    });
  });
}

suite("pglite", null);
suite("postgres", pgSkip);
