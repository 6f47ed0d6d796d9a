/**
 * `pegas-memory ingest <file> --observed-at DATE` (src/cli/commands.ts) in-process through main() on an embedded
 * store: the atoms of the file record that observation, "yesterday" in the text is dated against it, and a value
 * that is not ISO 8601 is refused naming the format, with nothing stored.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { capture } from "../support/capture.ts";
import { migratedPgliteDir } from "../support/services.ts";

let dataDir: string;
const src = mkdtempSync(join(tmpdir(), "pegas-ingest-observed-"));
const note = join(src, "note.txt");
writeFileSync(note, "Вчера насосную станцию на реке закрыли на ремонт.\n");

beforeAll(async () => {
  dataDir = await migratedPgliteDir("pegas-ingest-observed-data-");
}, 120_000);
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(src, { recursive: true, force: true });
});

const run = (...argv: string[]) =>
  capture(() => main(["--config", "/dev/null", "--data-dir", dataDir, "--log-level", "error", ...argv], () => {}));

describe("ingest --observed-at", () => {
  test("a bad date is refused naming the format; nothing is stored", async () => {
    const r = await run("ingest", note, "--observed-at", "вчера");
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("ISO 8601");
  }, 120_000);

  // Had the refused run stored the file, this run would find it unchanged and stamp nothing.
  test("the atoms record the observation and the event it dates", async () => {
    const r = await run("ingest", note, "--observed-at", "2024-03-06T09:00:00+03:00");
    expect(r.code).toBe(0);
    const db = await openPglite({ dataDir });
    try {
      const rows = await db.sql`
        SELECT count(*)::int AS n,
               min(to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI')) AS observed,
               min(to_char(event_start AT TIME ZONE 'UTC', 'YYYY-MM-DD')) AS start
          FROM pm_atom`;
      expect(rows[0]).toEqual({ n: rows[0].n, observed: "2024-03-06T06:00", start: "2024-03-05" });
      expect(rows[0].n).toBeGreaterThan(0);
    } finally {
      await db.close(0);
    }
  }, 120_000);
});
