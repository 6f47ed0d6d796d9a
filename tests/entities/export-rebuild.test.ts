/**
 * Issue 22 acceptance: entities survive export → import and a rebuild of the projections, with equal counts and
 * mentions. A PGlite store gets atoms through memory_store (their mentions are written with them) and an entity
 * merge; its graph goes to Memgraph (the Bolt stand-in's model graph, tests/memgraph/model-graph.ts) through the
 * outbox and again through `rebuild graph`, and both answer as the embedded SQL graph does; the export, imported into
 * an empty store, holds the same entities, mentions and merges, and its rebuilt graph the same counts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqlEntityStore } from "../../src/adapters/sql/entities/store.ts";
import { SqlGraphStore } from "../../src/adapters/sql/graph/graph.ts";
import type { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import type { Services } from "../../src/core/services.ts";
import { drainOutbox, rebuildProjections } from "../../src/worker/projections.ts";
import { BoltStandin } from "../support/bolt-standin.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { exportToFile, importFile } from "../export/support.ts";
import { ModelGraph } from "../memgraph/model-graph.ts";

const FACTS = [
  "Андрей Ефимыч Рагин служит врачом в городской больнице.",
  "Михаил Аверьяныч, почтмейстер, навещает Андрея Ефимыча каждый вечер.",
  "Иван Дмитрич Громов лежит в палате № 6; Андрей Ефимыч подолгу беседует с Иваном Дмитричем.",
  "In Shikoku, Botchan taught mathematics at a middle school; Yamaarashi taught there too.",
  "Red Shirt, the head teacher, disliked Botchan. Botchan's friend Yamaarashi did not.",
];

const dirOf = (s: Services) => (s.entities as SqlEntityStore).db;
const dir = mkdtempSync(join(tmpdir(), "pegas-entities-export-"));
const standins: BoltStandin[] = [];
let source: TestServices;
let target: TestServices;
const atomIds: number[] = [];

async function withMemgraph(): Promise<TestServices> {
  const standin = await BoltStandin.start({ script: new ModelGraph().script() });
  standins.push(standin);
  const t = await openTestServices("pglite", { memgraph_url: standin.url });
  if (typeof t === "string") throw new Error(t);
  return t;
}

/** Every mention of the given atoms as comparable rows (ids differ across stores only through merges: none here). */
async function mentionRows(s: Services, ids: number[]) {
  const ms = await s.entities.mentionsOfAtoms(ids);
  const names = new Map(
    (await s.entities.entitiesByIds([...new Set(ms.map((m) => m.entityId))])).map((e) => [e.id, e]),
  );
  return ms.map((m) => [m.atomId, m.field, m.start, m.end, m.surface, names.get(m.entityId)?.key, m.rootId]);
}

beforeAll(async () => {
  source = await withMemgraph();
  for (const claim of FACTS) atomIds.push((await storeAtom(source.services, { type: "fact", claim })).atom_id);
  const [full] = await source.services.entities.entitiesByKeys(["андрей ефимыч рагин"]);
  const [short] = await source.services.entities.entitiesByKeys(["андрей ефимыч"]);
  await source.services.entities.mergeEntities({
    fromEntityId: short.id,
    intoEntityId: full.id,
    reason: "first name and patronymic of the full name",
    evidence: { atoms: atomIds.slice(0, 2) },
  });
  await drainOutbox(source.services);
}, 180_000);

afterAll(async () => {
  await source?.dispose();
  await target?.dispose();
  for (const s of standins) await s.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("entities through projections, export and import", () => {
  test("memory_store writes the mentions of every new atom, in Russian and English", async () => {
    const rows = await mentionRows(source.services, atomIds);
    const keys = new Set(rows.map((r) => r[5]));
    for (const k of [
      "андрей ефимыч рагин",
      "андрей ефимыч",
      "михаил аверьяныч",
      "иван дмитрич громов",
      "botchan",
      "yamaarashi",
    ])
      expect(keys).toContain(k);
    for (const r of rows)
      expect(FACTS[atomIds.indexOf(Number(r[0]))].slice(Number(r[2]), Number(r[3]))).toBe(String(r[4]));
    // An atom stored again adds nothing.
    const before = await source.services.entities.entityCounts();
    await storeAtom(source.services, { type: "fact", claim: FACTS[0] });
    expect(await source.services.entities.entityCounts()).toEqual(before);
    // A write that gives a short name beside its long form merges them, audited as the resolver's.
    const one = await storeAtom(source.services, {
      type: "fact",
      claim: "Евгений Федорыч Хоботов сменил Андрея Ефимыча; Евгений Федорыч давно хотел его места.",
    });
    atomIds.push(one.atom_id);
    const [short] = await source.services.entities.entitiesByKeys(["евгений федорыч"]);
    expect(short.key).toBe("евгений федорыч хоботов");
    const [m] = (await source.services.entities.entityMerges(short.id)).filter((x) => x.undoneAt === null);
    expect(m).toMatchObject({ actor: "resolver", intoEntityId: short.id });
    expect(m.evidence).toMatchObject({ alias: "евгений федорыч", into: "евгений федорыч хоботов" });
    await drainOutbox(source.services);
  });

  test("the embedded graph has entity nodes and mentions edges, and Memgraph the same, by the outbox and by a rebuild", async () => {
    const sql = new SqlGraphStore(dirOf(source.services));
    const counters = await sql.counters();
    const counts = await source.services.entities.entityCounts();
    // Merged entities are no nodes; an atom naming one root under several names has one `mentions` edge to it.
    expect(counters.nodes.Entity).toBe(counts.entities);
    const pairs = new Set(
      (await source.services.entities.mentionsOfAtoms(atomIds)).map((m) => `${m.atomId}:${m.rootId}`),
    );
    expect(pairs.size).toBeLessThan(counts.mentions);
    expect(counters.edges.mentions).toEqual({ extracted: pairs.size, inferred: 0 });
    const [botchan] = await source.services.entities.entitiesByKeys(["botchan"]);
    const around = await sql.neighbours({ node: `entity:${botchan.id}`, depth: 1 });
    expect(around.nodes[0]).toMatchObject({ id: `entity:${botchan.id}`, label: "Entity", props: { name: "Botchan" } });
    expect(around.nodes.map((n) => n.id).sort()).toEqual(
      [`entity:${botchan.id}`, `atom:${atomIds[3]}`, `atom:${atomIds[4]}`].sort(),
    );
    const mg = source.services.sinks.find((k) => k.name === "memgraph") as MemgraphGraph;
    const held = await mg.counts();
    const canonical = await source.services.outbox.canonicalCounts("none");
    expect({ entity: held.entity, edge: held.edge }).toEqual({ entity: canonical.entity, edge: canonical.edge });
    for (const id of atomIds.map((a) => `atom:${a}`).concat(`entity:${botchan.id}`))
      expect(await mg.neighbours({ node: id, depth: 2 })).toEqual(await sql.neighbours({ node: id, depth: 2 }));
    const r = await rebuildProjections(source.services, "graph");
    const p = r.projections.find((x) => x.name === "memgraph")!;
    expect(p.held).toEqual(p.canonical);
    expect(p.held.entity).toBeGreaterThan(5);
    expect(await mg.counters()).toEqual(counters);
  }, 120_000);

  test("export → import into an empty store: equal entities, mentions and merges; its rebuilt graph the same counts", async () => {
    const file = join(dir, "entities.jsonl");
    const exported = await exportToFile(dirOf(source.services), file, false);
    for (const t of ["pm_entity", "pm_entity_mention", "pm_entity_merge"])
      expect(exported.tables.find((x) => x.table === t)?.rows).toBeGreaterThan(0);
    target = await withMemgraph();
    await importFile(dirOf(target.services), file);
    const s = source.services.entities;
    const t = target.services.entities;
    expect(await t.entityCounts()).toEqual(await s.entityCounts());
    expect(await mentionRows(target.services, atomIds)).toEqual(await mentionRows(source.services, atomIds));
    expect(await t.entityMerges()).toEqual(await s.entityMerges());
    const [short] = await t.entitiesByKeys(["андрей ефимыч"]);
    expect((await t.entitiesByIds([short.id]))[0].key).toBe("андрей ефимыч рагин");
    const r = await rebuildProjections(target.services, "graph");
    const p = r.projections.find((x) => x.name === "memgraph")!;
    expect(p.held).toEqual(p.canonical);
    const before = await rebuildProjections(source.services, "graph");
    expect(p.held).toEqual(before.projections.find((x) => x.name === "memgraph")!.held);
    // The imported merge is undone like the source's.
    const m = (await t.entityMerges()).find((x) => x.reason === "first name and patronymic of the full name")!;
    await t.undoEntityMerge(m.id);
    expect((await t.entitiesByKeys(["андрей ефимыч"]))[0].key).toBe("андрей ефимыч");
  }, 180_000);
});
