/**
 * `pegas-memory reindex quantities` and a filtered search through the compiled executable: an ingest stores its
 * measurements as it writes the atoms, so a first run reads every atom and adds nothing; `--limit` stops early and
 * the next run resumes; `--restart` reads all again; `search "cold start < 1.5 s"` answers from the stored values.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, runBinary, seededDataDir } from "../support/binary.ts";

const TEXT = [
  "The cold start of the service takes 1.2 s.",
  "",
  "A warm start takes 300 ms, and the release archive is 512 MiB.",
  "",
  "Время холодного запуска составляет 2 секунды.",
].join("\n");

const run = runBinary;

test("reindex quantities: resumable and idempotent; search filters by measured value", async () => {
  const { dir, bin } = await isolatedBinary();
  const env = isolatedEnv(dir);
  const data = ["--data-dir", await seededDataDir(join(dir, "data"))];
  expect((await run(bin, env, [...data, "ingest", "-", "--title", "Service notes"], TEXT)).code).toBe(0);
  const part = JSON.parse((await run(bin, env, [...data, "reindex", "quantities", "--limit", "1", "--json"])).out);
  expect(part).toMatchObject({ atoms: 1, resumedAfter: 0, quantitiesAdded: 0, finished: false });
  const rest = await run(bin, env, [...data, "reindex", "quantities"]);
  expect(rest.code).toBe(0);
  expect(rest.out).toMatch(new RegExp(`read after atom ${part.lastAtomId}, 0 measurement\\(s\\) added; done`));
  const again = JSON.parse((await run(bin, env, [...data, "reindex", "quantities", "--restart", "--json"])).out);
  expect(again).toMatchObject({ resumedAfter: 0, quantitiesAdded: 0, finished: true });
  expect(again.atoms).toBeGreaterThan(2);
  const hits = JSON.parse((await run(bin, env, [...data, "search", "cold start < 1.5 s", "--json"])).out);
  expect(hits.hits.map((h: { claim: string }) => h.claim)).toEqual(["The cold start of the service takes 1.2 s."]);
  const ru = JSON.parse((await run(bin, env, [...data, "search", "время запуска больше 1500 мс", "--json"])).out);
  expect(ru.hits.map((h: { claim: string }) => h.claim)).toEqual(["Время холодного запуска составляет 2 секунды."]);
}, 240_000);
