/**
 * `pegas-memory reindex entities` through the compiled executable: after an ingest (whose atoms got their mentions
 * as they were stored) a first run reads every atom and adds nothing; `--limit` stops early and says so, the next run
 * resumes; `--restart` reads all again; a wrong target is refused (INVALID_INPUT, exit 65).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, runBinary, seededDataDir } from "../support/binary.ts";

const TEXT = [
  "Доктор Андрей Ефимыч Рагин заведует больницей в уездном городе.",
  "Иван Дмитрич Громов, бывший судебный пристав, живёт в палате № 6.",
  "Ward No. 6 is a story by Anton Chekhov; Dr. Ragin ends up locked in the ward.",
].join("\n\n");

const run = runBinary;

test("reindex entities: resumable, idempotent, and refused for anything else", async () => {
  const { dir, bin } = await isolatedBinary();
  const env = isolatedEnv(dir);
  const data = ["--data-dir", await seededDataDir(join(dir, "data"))];
  expect((await run(bin, env, [...data, "ingest", "-", "--title", "Палата № 6"], TEXT)).code).toBe(0);
  const part = await run(bin, env, [...data, "reindex", "entities", "--limit", "1", "--json"]);
  expect(part.code).toBe(0);
  const p = JSON.parse(part.out);
  expect(p).toMatchObject({ atoms: 1, resumedAfter: 0, mentionsAdded: 0, finished: false });
  const rest = await run(bin, env, [...data, "reindex", "entities"]);
  expect(rest.code).toBe(0);
  expect(rest.out).toMatch(
    new RegExp(`read after atom ${p.lastAtomId}, 0 mention\\(s\\) and 0 entities added, \\d+ alias merge\\(s\\); done`),
  );
  const again = JSON.parse((await run(bin, env, [...data, "reindex", "entities", "--restart", "--json"])).out);
  expect(again).toMatchObject({ resumedAfter: 0, mentionsAdded: 0, entitiesCreated: 0, merged: 0, finished: true });
  expect(again.atoms).toBeGreaterThan(1);
  const graph = JSON.parse((await run(bin, env, [...data, "graph", "--counters", "--json"])).out);
  expect(graph.nodes.Entity).toBeGreaterThan(2);
  expect(graph.edges.mentions.extracted).toBeGreaterThan(2);
  const bad = await run(bin, env, [...data, "reindex", "atoms"]);
  expect(bad.code).toBe(65); // INVALID_INPUT, as `rebuild` with an unknown target
  expect(bad.err).toContain("reindex needs 'entities'");
}, 240_000);
