/**
 * The Memgraph adapter (through the driver, Bolt and the stand-in's model graph) against the SQL adapter on the
 * contract's seeded graph, exhaustively: the shortest path between any two nodes out with inferred edges, in without,
 * and both ways (ties included, e.g. atom:1 → atom:4 by B or by C), and every neighbourhood by direction, depth,
 * inferred filter and a cutting limit. Equal answers mean the adapter's own logic matches the SQL one's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { SqlGraphStore } from "../../src/adapters/sql/graph/graph.ts";
import type { Direction } from "../../src/ports/projections/graph-store.ts";
import { BoltStandin } from "../support/bolt-standin.ts";
import { openGraphTestDatabase, seedGraph } from "../support/graph-fixture.ts";
import { ModelGraph } from "./model-graph.ts";

let sql: SqlGraphStore;
let mg: MemgraphGraph;
let ids: string[];
let done: () => Promise<void>;

beforeAll(async () => {
  const t = await openGraphTestDatabase("pglite");
  const seeded = await seedGraph(t.db);
  const standin = await BoltStandin.start({ script: new ModelGraph().script() });
  sql = new SqlGraphStore(t.db);
  mg = new MemgraphGraph({ url: standin.url, timeoutMs: 5_000 });
  await mg.reset();
  await mg.apply(seeded.changes);
  const all = new Set<string>();
  for (const c of seeded.changes) {
    if (c.entity === "edge" && c.state) for (const id of [c.state.src, c.state.dst]) all.add(id);
    else if (c.entity !== "edge") all.add(`${c.entity === "document" ? "doc" : c.entity}:${c.id}`);
  }
  ids = [...all].sort();
  done = async () => {
    await mg.close();
    await standin.stop();
    await t.dispose();
  };
}, 120_000);

afterAll(async () => {
  await done();
}, 60_000);

const DIRECTIONS: Direction[] = ["out", "in", "both"];

test("shortest paths: the same answer as SQL for every pair, in each direction, with and without inferred edges", async () => {
  let compared = 0;
  let long = 0;
  const modes: Array<[Direction, boolean]> = [
    ["out", true],
    ["in", false],
    ["both", true],
  ];
  for (const [direction, includeInferred] of modes) {
    for (const from of ids) {
      for (const to of ids) {
        const q = { from, to, direction, includeInferred };
        const [a, b] = [await sql.shortestPath(q), await mg.shortestPath(q)];
        expect({ q, path: b }).toEqual({ q, path: a });
        compared++;
        if (a && a.edges.length > 1) long++;
      }
    }
  }
  expect(compared).toBe(ids.length * ids.length * modes.length);
  expect(long).toBeGreaterThan(100);
  const tie = await mg.shortestPath({ from: "atom:1", to: "atom:4" });
  expect(tie?.nodes.map((n) => n.id)).toEqual(["atom:1", "atom:2", "atom:4"]);
}, 600_000);

test("neighbourhoods: the same answer as SQL by direction, depth, inferred filter and a cutting limit", async () => {
  for (const node of ids) {
    for (const direction of DIRECTIONS) {
      for (const depth of [1, 2, 3, 5]) {
        for (const [includeInferred, limit] of [
          [true, 100],
          [false, 100],
          [true, 4],
        ] as const) {
          const q = { node, direction, depth, includeInferred, limit };
          expect({ q, got: await mg.neighbours(q) }).toEqual({ q, got: await sql.neighbours(q) });
        }
      }
    }
  }
  expect(await mg.counters()).toEqual(await sql.counters());
}, 600_000);
