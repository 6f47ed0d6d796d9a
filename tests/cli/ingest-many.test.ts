/**
 * `pegas-memory ingest A B …` (src/cli/commands.ts runIngest) run in-process through main() on an embedded store:
 * every source is ingested and reported, a failing source does not stop the others, and the exit status is 1 when
 * any failed; stray usage is refused before the store opens.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "../../src/cli/main.ts";
import { capture } from "../support/capture.ts";
import { migratedPgliteDir } from "../support/services.ts";

let dataDir: string;
const src = mkdtempSync(join(tmpdir(), "pegas-ingest-many-"));
const en = join(src, "pump.txt");
const ru = join(src, "насос.txt");
const missing = join(src, "missing.txt");
writeFileSync(en, "The pump station on the river was rebuilt in 1931 after the flood destroyed the old one.\n");
writeFileSync(ru, "Насосную станцию на реке перестроили в 1931 году, после того как паводок разрушил старую.\n");

beforeAll(async () => {
  dataDir = await migratedPgliteDir("pegas-ingest-many-data-");
}, 120_000);
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(src, { recursive: true, force: true });
});

const run = (...argv: string[]) =>
  capture(() => main(["--config", "/dev/null", "--data-dir", dataDir, "--log-level", "error", ...argv], () => {}));

describe("ingest with several sources", () => {
  test("each is ingested and reported; one that fails is named and makes the exit status 1", async () => {
    const r = await run("ingest", en, missing, ru);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toStartWith(`ingested file://${en}`);
    expect(lines[1]).toStartWith(`ingested ${pathToFileURL(ru).href}`);
    expect(r.err).toContain(`error: ${missing}: `);
  }, 120_000);

  test("all sound: exit 0, and --json gives one result per source", async () => {
    const r = await run("ingest", en, ru, "--json");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as Array<{ source: string; documents: Array<{ unchanged: boolean }> }>;
    expect(json.map((j) => j.source)).toEqual([en, ru]);
    expect(json.every((j) => j.documents[0]!.unchanged)).toBe(true);
  }, 120_000);

  test("--title with several sources, and stray options, are usage errors (exit 64)", async () => {
    const titled = await run("ingest", en, ru, "--title", "Pumps");
    expect(titled.code).toBe(64);
    expect(titled.err).toContain("--title names one source");
    const stray = await run("ingest", en, "--k", "3");
    expect(stray.code).toBe(64);
    expect(stray.err).toContain("ingest does not take --k");
  });
});
