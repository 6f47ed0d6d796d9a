/**
 * The CLI's `get` of an entity (issue 22, item 2) and of an atom's measurements, on an embedded store: `get
 * entity:<id>` and `get "<name>"` (in any case) print memory_get's cited profile, `--json` its structured answer; an
 * ambiguous name lists the candidates; an unknown entity is NOT_FOUND; `get <atom_id>` prints the measurements its
 * claim states.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Cli } from "../../src/cli/args.ts";
import { runGet } from "../../src/cli/recall-commands.ts";
import type { Config } from "../../src/config.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { createServices } from "../../src/wiring/services.ts";
import { capture } from "../support/capture.ts";
import { seededDataDir, testConfig } from "../support/services.ts";

const base = mkdtempSync(join(tmpdir(), "pegas-get-cli-"));
let config: Config;
const ids: Record<string, number> = {};

const cli = (positionals: string[], values: Cli["values"] = {}): Cli => ({
  command: "get",
  positionals,
  values,
  flags: {},
});

beforeAll(async () => {
  config = testConfig({ data_dir: await seededDataDir(join(base, "data")), log_level: "warn" });
  const s = await createServices(config);
  try {
    ids.doctor = (
      await storeAtom(s, { type: "fact", claim: "Доктор Андрей Ефимыч Рагин служит в городской больнице." })
    ).atom_id;
    ids.guard = (await storeAtom(s, { type: "fact", claim: "Сторож Никита бьёт больных в палате № 6." })).atom_id;
    ids.start = (await storeAtom(s, { type: "fact", claim: "Холодный старт занимает 1 200 мс." })).atom_id;
    const [ragin] = await s.entities.entitiesByKeys(["андрей ефимыч рагин"]);
    const [nikita] = await s.entities.entitiesByKeys(["никита"]);
    ids.ragin = ragin.id;
    ids.nikita = nikita.id;
    await s.entities.addAlias(ragin.id, "Никита", "никита"); // two entities now answer to «Никита»
  } finally {
    await s.close();
  }
}, 120_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("pegas-memory get of an entity", () => {
  test("by name in another case and by entity:<id>: memory_get's cited profile", async () => {
    const byName = await capture(() => runGet(config, cli(["Андрея Ефимыча Рагина"])));
    expect(byName.code).toBe(0);
    expect(byName.out).toStartWith(
      `entity:${ids.ragin} · person · Андрей Ефимыч Рагин (also Никита) — named in 1 atom(s)`,
    );
    expect(byName.out).toContain(
      `- atom ${ids.doctor} · fact: Доктор Андрей Ефимыч Рагин служит в городской больнице.`,
    );
    const byId = await capture(() => runGet(config, cli([`entity:${ids.ragin}`])));
    expect(byId.out).toBe(byName.out);
    const json = JSON.parse((await capture(() => runGet(config, cli([`entity:${ids.ragin}`], { json: true })))).out);
    expect(json.entity).toMatchObject({ entity_id: ids.ragin, kind: "person", name: "Андрей Ефимыч Рагин", atoms: 1 });
    expect(json.entity.statements[0]).toMatchObject({ atom_id: ids.doctor });
  }, 60_000);

  test("an ambiguous name lists its candidates; an unknown one is NOT_FOUND; --limit is an atom's", async () => {
    const two = await capture(() => runGet(config, cli(["Никита"])));
    expect(two.code).toBe(0);
    expect(two.out).toStartWith("2 entities answer to this name; call memory_get with entity:<id> for one:");
    expect(two.out).toContain(`entity:${ids.nikita} · person · Никита`);
    const json = JSON.parse((await capture(() => runGet(config, cli(["никита"], { json: true })))).out);
    expect(json.candidates.map((c: { entity_id: number }) => c.entity_id).sort()).toEqual(
      [ids.nikita, ids.ragin].sort(),
    );
    await expect(runGet(config, cli(["Воланд"]))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(runGet(config, cli(["entity:999999"]))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(runGet(config, cli(["Никита"], { limit: "3" }))).rejects.toMatchObject({ code: "INVALID_INPUT" });
  }, 60_000);

  test("an atom prints the measurements its claim states", async () => {
    const got = await capture(() => runGet(config, cli([String(ids.start)])));
    expect(got.out).toContain(
      "claim: Холодный старт занимает 1 200 мс.\nquantities: 1.2 s = «1 200 мс» (Холодный старт).",
    );
    const json = JSON.parse((await capture(() => runGet(config, cli([`atom:${ids.start}`], { json: true })))).out);
    expect(json.quantities).toMatchObject([{ low: 1.2, canonicalUnit: "s", unit: "ms", quote: "1 200 мс" }]);
    const plain = await capture(() => runGet(config, cli([String(ids.doctor)])));
    expect(plain.out).not.toContain("quantities");
  }, 60_000);
});
