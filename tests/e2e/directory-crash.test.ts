/**
 * A directory ingest killed with SIGKILL halfway (the executable, on an embedded data dir): every batch of files it
 * stored is whole (each stored document has its chunks and citations, and whole batches of 200 files are stored,
 * never a part of one), and a re-run skips the stored files and stores the rest, each once.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BATCH_FILES } from "../../src/core/documents/directory.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { createServices } from "../../src/wiring/services.ts";
import { isolatedBinary, isolatedEnv, seededDataDir } from "../support/binary.ts";
import { testConfig } from "../support/services.ts";

const FILES = 3 * BATCH_FILES;
const cleanup: string[] = [];
afterAll(() => {
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

const WORDS = "river stone garden lamp window harbor forest letter candle bridge meadow engine".split(" ");

/** Distinct small notes, English and Russian, a few sentences each. */
function writeNotes(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const w = (k: number) => WORDS[(i * 7 + k * 5) % WORDS.length];
    const text =
      `Note ${i}: the ${w(1)} near the ${w(2)} was repaired in ${1900 + i}.\n` +
      `Заметка ${i}: мост у реки построили за ${i + 3} дней.\n` +
      `The ${w(3)} holds ${i * 3 + 1} ${w(4)}s, and the ${w(5)} is ${i % 40} metres long.\n`;
    writeFileSync(join(dir, `note-${String(i).padStart(4, "0")}.txt`), text);
  }
}

async function storedDocuments(bin: string, dir: string, dataDir: string): Promise<number> {
  const p = Bun.spawn([bin, "--data-dir", dataDir, "stats", "--json"], {
    cwd: dir,
    env: isolatedEnv(dir),
    stdout: "pipe",
    stderr: "ignore",
  });
  const out = await new Response(p.stdout).text();
  await p.exited;
  try {
    return Number(JSON.parse(out).documents?.total ?? 0);
  } catch {
    return 0;
  }
}

test("a directory ingest killed halfway keeps whole batches; a re-run stores the rest once", async () => {
  const { dir, bin } = await isolatedBinary();
  cleanup.push(dir);
  const notes = join(dir, "notes");
  mkdirSync(notes);
  writeNotes(notes);
  const dataDir = await seededDataDir(join(dir, "data-dir"));
  const run = Bun.spawn([bin, "--data-dir", dataDir, "ingest", notes, "--json"], {
    cwd: dir,
    env: isolatedEnv(dir),
    stdout: "ignore",
    stderr: "ignore",
  });
  let seen = 0;
  const deadline = Date.now() + 240_000;
  while (seen < BATCH_FILES && Date.now() < deadline && run.exitCode === null) {
    await Bun.sleep(300);
    seen = await storedDocuments(bin, dir, dataDir);
  }
  expect(run.exitCode).toBeNull(); // still running: the kill lands halfway
  run.kill("SIGKILL");
  await run.exited;

  const services = await createServices(testConfig({ data_dir: dataDir, log_level: "warn" }));
  try {
    const db = (services.ingestWrites as unknown as { db: { run(fn: (sql: any) => Promise<any[]>): Promise<any[]> } })
      .db;
    const [row] = await db.run(
      (sql) => sql`
        SELECT count(*)::int AS docs,
               count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM pm_chunk c WHERE c.doc_id = d.id))::int AS no_chunks,
               count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM pm_citation c WHERE c.doc_id = d.id))::int AS no_citations
          FROM pm_document d`,
    );
    expect(row.no_chunks).toBe(0);
    expect(row.no_citations).toBe(0);
    expect(row.docs).toBeGreaterThanOrEqual(BATCH_FILES);
    expect(row.docs).toBeLessThan(FILES);
    expect(row.docs % BATCH_FILES).toBe(0); // whole batches only
    const again = await ingest(services, { path: notes }, { trustedPath: true });
    expect(again.errors).toEqual([]);
    expect(again.documents_total).toBe(FILES);
    const [after] = await db.run(
      (sql) => sql`SELECT count(*)::int AS docs, count(DISTINCT uri)::int AS uris FROM pm_document`,
    );
    expect(after).toEqual({ docs: FILES, uris: FILES });
  } finally {
    await services.close(0);
  }
}, 600_000);
