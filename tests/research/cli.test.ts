/**
 * `pegas-memory gap-add`, `research` and `gaps` as commands (main.ts run by Bun from source, on a temporary
 * PostgreSQL database, or the embedded one when no server answers), against the loopback stand-ins of
 * tests/research/support.ts: the gap ends answered, progress is on stderr and the summary (JSON) on stdout.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createTempPgDatabase, type TempDb } from "../support/pg.ts";
import { type Stub, startPages, startSearchBackend } from "./support.ts";

const MAIN = resolve(import.meta.dir, "../../main.ts");
const FACT = "Lake Baikal holds about twenty percent of the world's unfrozen surface fresh water.";
const QUESTION = "How much of the world's unfrozen surface fresh water does Lake Baikal hold?";

let a: Stub;
let b: Stub;
let backend: Stub;
let db: TempDb | undefined;
const dir = mkdtempSync(join(tmpdir(), "pegas-research-cli-"));

beforeAll(async () => {
  a = startPages("127.0.0.2", { "/baikal": FACT });
  b = startPages("127.0.0.3", { "/lake": FACT });
  backend = startSearchBackend((q) =>
    q === QUESTION
      ? [
          { url: `${a.base}/baikal`, title: "Baikal A", content: "" },
          { url: `${b.base}/lake`, title: "Baikal B", content: "" },
        ]
      : [],
  );
  const t = await createTempPgDatabase("pegas_research_cli");
  if (typeof t !== "string") db = t;
});

afterAll(async () => {
  for (const s of [a, b, backend]) s?.stop();
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    PEGAS_SEARCH_URL: backend.base,
    PEGAS_ALLOW_PRIVATE_URLS: "true",
  };
  const where = db ? ["--database-url", db.url] : ["--data-dir", join(dir, "db")];
  const p = Bun.spawn([process.execPath, MAIN, ...where, ...args], {
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

test("gap-add, research and gaps: the gap is filled from the loopback search backend end to end", async () => {
  const added = await run(["gap-add", QUESTION, "--reason", "lake note", "--priority", "4", "--json"]);
  expect(added.code).toBe(0);
  const gapId = JSON.parse(added.out).gap.id;
  const r = await run(["research", "--max-urls", "4", "--budget-s", "60", "--json"]);
  expect(r.code).toBe(0);
  const summary = JSON.parse(r.out);
  expect(summary).toMatchObject({ answered: 1, urls_fetched: 2 });
  expect(summary.gaps[0]).toMatchObject({ gap_id: gapId, status: "answered" });
  expect(r.err).toContain("research: fetching");
  const listed = await run(["gaps", "--status", "answered"]);
  expect(listed.err).toBe("");
  expect(listed.code).toBe(0);
  expect(listed.out).toContain(`[gap ${gapId}, priority 4, answered]`);
  // A search that misses, run twice as separate commands: logged before each process closes, then suggested.
  for (let i = 0; i < 2; i++) {
    const miss = await run(["search", "stratospheric balloon altitude record"]);
    expect(miss.code).toBe(0);
    expect(miss.err).not.toContain("search miss not logged");
  }
  const suggested = JSON.parse((await run(["gaps", "--json"])).out).suggested;
  expect(suggested).toEqual([expect.objectContaining({ query: "stratospheric balloon altitude record", misses: 2 })]);
  const bad = await run(["gap-add", "Why?", "--priority", "9"]);
  expect(bad.code).toBe(65);
  expect(bad.err).toContain("priority");
}, 180_000);
