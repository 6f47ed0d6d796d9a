/**
 * The projection commands of the compiled executable on the embedded default: `sync --once` finds the outbox empty
 * when no external projection is configured (nothing is queued for nobody), `rebuild all` reports what it rebuilt, `graph` reads neighbours and
 * counters, and `stats` shows zero backlog afterwards.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, runBinary, seededDataDir } from "../support/binary.ts";

/** A short Russian and English text: enough for a few dozen atoms without a long ingest. */
const TEXT = [
  "Палата № 6 — повесть Антона Павловича Чехова, напечатанная в 1892 году в журнале «Русская мысль».",
  "Доктор Андрей Ефимыч Рагин заведует больницей в уездном городе и давно перестал бороться с её порядками.",
  "В палате номер шесть содержатся душевнобольные; сторож Никита бьёт их и отбирает у них вещи.",
  "Иван Дмитрич Громов, бывший судебный пристав, страдает манией преследования и живёт в этой палате.",
  "Ward No. 6 is a story by Anton Chekhov, published in 1892; its doctor ends up locked in the ward he neglected.",
].join("\n\n");

const run = runBinary;

test("sync --once, rebuild all, graph and stats through the executable", async () => {
  const { dir, bin } = await isolatedBinary();
  const env = isolatedEnv(dir);
  const data = ["--data-dir", await seededDataDir(join(dir, "data"))]; // created and migrated, as a first start leaves it
  expect((await run(bin, env, [...data, "ingest", "-", "--title", "Палата № 6"], TEXT)).code).toBe(0);
  const sync = await run(bin, env, [...data, "sync", "--once", "--json"]);
  expect(sync.code).toBe(0);
  expect(JSON.parse(sync.out)).toMatchObject({ failed: 0, dead: 0, sinks: [], backlog: { pending: 0, dead: 0 } });
  expect(JSON.parse(sync.out).applied).toBe(0); // no projection reads the outbox: the ingest queued nothing
  expect(sync.err).toContain("no external projection is configured");

  const rebuild = await run(bin, env, [...data, "rebuild", "all", "--json"]);
  expect(rebuild.code).toBe(0);
  const r = JSON.parse(rebuild.out);
  expect(r.projections.map((p: { name: string }) => p.name)).toEqual(["embedded"]);
  expect(r.notes.join(" ")).toContain("graph reads are answered by SQL");

  const counters = await run(bin, env, [...data, "graph", "--counters"]);
  expect(counters.code).toBe(0);
  expect(JSON.parse(counters.out).nodes.Atom).toBeGreaterThan(1);
  const hit = JSON.parse((await run(bin, env, [...data, "search", "палата", "--k", "1", "--json"])).out).hits[0];
  const around = await run(bin, env, [...data, "graph", `atom:${hit.atom_id}`, "--json"]);
  expect(around.code).toBe(0);
  expect(JSON.parse(around.out).nodes[0]).toMatchObject({ id: `atom:${hit.atom_id}`, label: "Atom", distance: 0 });

  const stats = JSON.parse((await run(bin, env, [...data, "stats", "--json"])).out);
  expect(stats.outbox).toMatchObject({ pending: 0, dead: 0 });
  expect(stats.projections.external).toEqual([]);
}, 180_000);
