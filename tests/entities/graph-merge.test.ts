/**
 * Entity merges in the graph (issue 22): after an entity is merged into another (directly and through a chain), the
 * embedded SQL graph, Memgraph fed by the outbox (the Bolt stand-in's model graph) and Memgraph rebuilt from the
 * database all show the absorbed entity's mentions on the root, one `mentions` edge per atom and root (never one per
 * occurrence or per merged name), the absorbed entity as no node, and a query naming it answered for the root;
 * undoing the merge restores both entities with their own mentions, everywhere alike. Retracting an atom and undoing
 * that brings its mentions back to Memgraph too. PGlite, memory_store, the real outbox worker.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import type { SqlEntityStore } from "../../src/adapters/sql/entities/store.ts";
import { SqlGraphStore } from "../../src/adapters/sql/graph/graph.ts";
import { forget } from "../../src/core/knowledge/link-forget.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import type { GraphEdge, Subgraph } from "../../src/core/services.ts";
import { drainOutbox, rebuildProjections } from "../../src/worker/projections.ts";
import { BoltStandin } from "../support/bolt-standin.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { ModelGraph } from "../memgraph/model-graph.ts";

const CLAIMS = {
  a1: "In Shikoku, Botchan taught mathematics at a middle school.",
  a2: "Letters to Master Darling went unanswered.",
  a3: "Ms. Kiyo wrote to Botchan every week; Botchan kept the letters she addressed to Master Darling.",
  a4: "After a month, Bocchan Darling returned to Tokyo.",
};

let standin: BoltStandin;
let t: TestServices;
let sql: SqlGraphStore;
let mg: MemgraphGraph;
const atom: Record<string, number> = {};
const entity: Record<string, number> = {};
const merges: number[] = [];

const ids = (g: Subgraph) => g.nodes.map((n) => n.id).sort();
const mentionEdges = (g: Subgraph): GraphEdge[] => g.edges.filter((e) => e.kind === "mentions");

/** Every atom and every root entity node, for comparing the two graphs node by node. */
async function nodesToCompare(): Promise<string[]> {
  const roots = (await t.services.entities.entitiesByIds(Object.values(entity))).filter((e) => e.mergedInto === null);
  return [...Object.values(atom).map((a) => `atom:${a}`), ...roots.map((e) => `entity:${e.id}`)];
}

/** A neighbourhood, or the code of the error it gave (a retracted atom is NOT_FOUND in both graphs). */
const answer = (p: Promise<Subgraph>) => p.catch((err: { code?: string }) => err.code ?? String(err));

/** Memgraph (as it holds the projection now) answers every neighbourhood and the counters as the SQL graph does. */
async function expectMemgraphEqualsSql(): Promise<void> {
  for (const node of await nodesToCompare())
    for (const depth of [1, 2])
      expect({ node, depth, g: await answer(mg.neighbours({ node, depth })) }).toEqual({
        node,
        depth,
        g: await answer(sql.neighbours({ node, depth })),
      });
  expect(await mg.counters()).toEqual(await sql.counters());
  const held = await mg.counts();
  const canonical = await t.services.outbox.canonicalCounts("none");
  expect({ entity: held.entity, edge: held.edge }).toEqual({ entity: canonical.entity, edge: canonical.edge });
}

/** The outbox applied, then a rebuild: both give the same Memgraph, equal to SQL. */
async function expectProjectionsFollow(): Promise<void> {
  await drainOutbox(t.services);
  expect(await t.services.outbox.backlog()).toMatchObject({ pending: 0, dead: 0 });
  await expectMemgraphEqualsSql();
  const incremental = await mg.counters();
  const r = await rebuildProjections(t.services, "graph");
  const p = r.projections.find((x) => x.name === "memgraph")!;
  expect(p.held).toEqual(p.canonical);
  expect(await mg.counters()).toEqual(incremental);
  await expectMemgraphEqualsSql();
}

beforeAll(async () => {
  standin = await BoltStandin.start({ script: new ModelGraph().script() });
  const opened = await openTestServices("pglite", { memgraph_url: standin.url });
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
  sql = new SqlGraphStore((t.services.entities as SqlEntityStore).db);
  mg = t.services.sinks.find((k) => k.name === "memgraph") as MemgraphGraph;
  for (const [name, claim] of Object.entries(CLAIMS))
    atom[name] = (await storeAtom(t.services, { type: "fact", claim })).atom_id;
  for (const [name, key] of [
    ["botchan", "botchan"],
    ["darling", "darling"],
    ["bocchan", "bocchan darling"],
    ["kiyo", "kiyo"],
  ]) {
    const [e] = await t.services.entities.entitiesByKeys([key]);
    expect(e).toBeDefined();
    entity[name] = e.id;
  }
  await drainOutbox(t.services);
}, 180_000);

afterAll(async () => {
  await t?.dispose();
  await standin?.stop();
}, 60_000);

describe("entity merges in the graph", () => {
  test("before any merge: one mentions edge per atom and entity, however often the atom names it", async () => {
    const around = await sql.neighbours({ node: `atom:${atom.a3}` });
    expect(ids(around)).toEqual(
      [`atom:${atom.a3}`, `entity:${entity.botchan}`, `entity:${entity.darling}`, `entity:${entity.kiyo}`].sort(),
    );
    expect(
      mentionEdges(around)
        .map((e) => e.dst)
        .sort(),
    ).toEqual([`entity:${entity.botchan}`, `entity:${entity.darling}`, `entity:${entity.kiyo}`].sort());
    const keys = mentionEdges(around).map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    await expectProjectionsFollow();
  }, 120_000);

  test("a merge chain: the absorbed entities' mentions are the root's, once per atom, and no node of their own", async () => {
    // Bocchan Darling → Darling, then Darling → Botchan: Bocchan Darling reaches Botchan through a chain.
    for (const [from, into] of [
      ["bocchan", "darling"],
      ["darling", "botchan"],
    ])
      merges.push(
        (
          await t.services.entities.mergeEntities({
            fromEntityId: entity[from],
            intoEntityId: entity[into],
            reason: "Kiyo's name and a spelling of Botchan",
            actor: "agent",
          })
        ).id,
      );
    const root = await sql.neighbours({ node: `entity:${entity.botchan}` });
    expect(ids(root)).toEqual(
      [`entity:${entity.botchan}`, ...[atom.a1, atom.a2, atom.a3, atom.a4].map((a) => `atom:${a}`)].sort(),
    );
    const edges = mentionEdges(root);
    expect(edges).toHaveLength(4); // a3 names Botchan twice and (Master) Darling once: one edge
    expect(new Set(edges.map((e) => e.src)).size).toBe(4);
    expect(edges.every((e) => e.dst === `entity:${entity.botchan}`)).toBe(true);
    const a3 = await sql.neighbours({ node: `atom:${atom.a3}` });
    expect(ids(a3)).toEqual([`atom:${atom.a3}`, `entity:${entity.botchan}`, `entity:${entity.kiyo}`].sort());
    expect(mentionEdges(a3)).toHaveLength(2);
    await expect(sql.neighbours({ node: `entity:${entity.darling}` })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const counters = await sql.counters();
    const counts = await t.services.entities.entityCounts();
    expect(counters.nodes.Entity).toBe(counts.entities);
    // Mention rows: a1 2 (Shikoku, Botchan), a2 1, a3 4 (Kiyo, Botchan twice, Darling), a4 2 (Bocchan Darling,
    // Tokyo); edges: a1 2, a2 1, a3 2 (Kiyo, Botchan), a4 2.
    expect(counts.mentions).toBe(9);
    expect(counters.edges.mentions).toEqual({ extracted: 7, inferred: 0 });
    await expectProjectionsFollow();
    // A query naming an absorbed entity (memory_query_graph's graph: Memgraph here, now caught up) answers for the root.
    for (const absorbed of [entity.darling, entity.bocchan]) {
      const via = await t.services.graph.neighbours({ node: `entity:${absorbed}` });
      expect(via.root).toBe(`entity:${entity.botchan}`);
      expect(via).toEqual(root);
    }
    const path = await t.services.graph.shortestPath({
      from: `atom:${atom.a2}`,
      to: `entity:${entity.bocchan}`,
      direction: "both",
    });
    expect(path?.nodes.map((n) => n.id)).toEqual([`atom:${atom.a2}`, `entity:${entity.botchan}`]);
  }, 120_000);

  test("undoing a merge restores both entities with their own mentions, in SQL, by the outbox and by a rebuild", async () => {
    await t.services.entities.undoEntityMerge(merges[1]); // Darling (with Bocchan Darling under it) is its own again
    const darling = await sql.neighbours({ node: `entity:${entity.darling}` });
    expect(ids(darling)).toEqual(
      [`entity:${entity.darling}`, ...[atom.a2, atom.a3, atom.a4].map((a) => `atom:${a}`)].sort(),
    );
    const botchan = await sql.neighbours({ node: `entity:${entity.botchan}` });
    expect(ids(botchan)).toEqual([`entity:${entity.botchan}`, `atom:${atom.a1}`, `atom:${atom.a3}`].sort());
    expect(mentionEdges(await sql.neighbours({ node: `atom:${atom.a3}` }))).toHaveLength(3);
    await expectProjectionsFollow();
    expect((await t.services.graph.neighbours({ node: `entity:${entity.bocchan}` })).root).toBe(
      `entity:${entity.darling}`,
    );
    await t.services.entities.undoEntityMerge(merges[0]);
    expect(ids(await sql.neighbours({ node: `entity:${entity.bocchan}` }))).toEqual(
      [`entity:${entity.bocchan}`, `atom:${atom.a4}`].sort(),
    );
    await expectProjectionsFollow();
  }, 180_000);

  test("an atom forgotten and restored gets its mentions edges back in Memgraph", async () => {
    await forget(t.services, { atom_id: atom.a3, reason: "test" });
    await drainOutbox(t.services);
    await expectMemgraphEqualsSql();
    await forget(t.services, { atom_id: atom.a3, reason: "test", undo: true });
    await drainOutbox(t.services);
    expect(mentionEdges(await mg.neighbours({ node: `atom:${atom.a3}` }))).toHaveLength(3);
    await expectMemgraphEqualsSql();
  }, 120_000);

  test("a rebuild reads the same mention edges whatever its page size, across windows of mention rows", async () => {
    for (let i = 0; i < 30; i++)
      await storeAtom(t.services, {
        type: "fact",
        claim: `Letter ${i + 1}: Ms. Kiyo wrote to Botchan; Botchan read it twice and Master Darling smiled ${i + 1} times.`,
      });
    const merge = await t.services.entities.mergeEntities({
      fromEntityId: entity.darling,
      intoEntityId: entity.botchan,
      reason: "Kiyo's name for Botchan",
    });
    const pages = async (limit: number) => {
      const out: string[] = [];
      let cursor: string | null = null;
      do {
        const p = await t.services.outbox.snapshot("edge", cursor, limit, "none");
        out.push(...p.changes.map((c) => JSON.stringify(c)));
        cursor = p.next;
      } while (cursor);
      return out;
    };
    const whole = await pages(10_000);
    const mentions = whole.filter((c) => c.includes('"pm_entity_mention:'));
    expect((await t.services.entities.entityCounts()).mentions).toBeGreaterThan(100); // two windows of 100 rows
    expect(mentions).toHaveLength((await sql.counters()).edges.mentions.extracted);
    for (const limit of [1, 7, 64]) expect(await pages(limit)).toEqual(whole);
    await expectProjectionsFollow();
    await t.services.entities.undoEntityMerge(merge.id);
    await expectProjectionsFollow();
  }, 180_000);
});
