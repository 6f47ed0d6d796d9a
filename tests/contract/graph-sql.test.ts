/**
 * The GraphStore contract against the recursive-SQL adapter, on PostgreSQL (skipped, with the reason, when none
 * answers) and on PGlite; then a differential check of the same adapter against a breadth-first search in memory
 * over random graphs (cycles, parallel edges of several kinds, inferred edges, retracted atoms, code endpoints).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Database } from "../../src/adapters/sql/database.ts";
import { SqlGraphStore } from "../../src/adapters/sql/graph/graph.ts";
import type { Direction, GraphEdge } from "../../src/ports/projections/graph-store.ts";
import { openGraphTestDatabase } from "../support/graph-fixture.ts";
import { contractSuite, postgresSkipReason, type SkipReason } from "../support/contract.ts";
import { graphStoreContract } from "./graph-store.contract.ts";
import { mulberry32 } from "../support/prng.ts";

const open = async (db: Database) => ({ graph: new SqlGraphStore(db), async dispose() {} });
const pgSkip = await postgresSkipReason();

graphStoreContract("sql", "postgres", open, pgSkip);
graphStoreContract("sql", "pglite", open);

/** A reference edge: key, typed endpoints, kind, inferred, and whether both ends are live. */
interface RefEdge {
  key: string;
  src: string;
  dst: string;
  kind: string;
  inferred: boolean;
}

const prng = mulberry32; // seeded, so a failure replays

/** Code-point order (UTF-8 byte order), as the port specifies. */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

const KINDS = ["cause", "reference", "depends_on"];
const ATOMS = 40;
const SYMBOLS = 8;

/** Seeds a random graph by SQL and returns its live edges and live node ids (the in-memory model). */
async function seedRandom(db: Database, rnd: () => number): Promise<{ edges: RefEdge[]; nodes: string[] }> {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const retracted = new Set(Array.from({ length: 5 }, () => 1 + Math.floor(rnd() * ATOMS)));
  const edges: (RefEdge & { live: boolean })[] = [];
  await db.run((sql) =>
    sql.begin(async (tx) => {
      for (let id = 1; id <= ATOMS; id++) {
        await tx`INSERT INTO pm_atom (id, type, claim, content, content_hash, status, search_tsv)
        VALUES (${id}, 'fact', ${`c${id}`}, ${`c${id}`}, ${`r${id}`}, ${retracted.has(id) ? "retracted" : "verified"}, ''::tsvector)`;
      }
      for (let id = 1; id <= SYMBOLS; id++) {
        await tx`INSERT INTO pm_code_symbol (id, repo, path, language, name, qualified_name, kind, line_start, line_end)
        VALUES (${id}, 'r', 'p.py', 'python', ${`s${id}`}, ${`s${id}`}, 'function', ${id}, ${id})`;
      }
      const seen = new Set<string>();
      for (let id = 1; edges.length < 110; id++) {
        const [s, d, kind] = [1 + Math.floor(rnd() * ATOMS), 1 + Math.floor(rnd() * ATOMS), pick(KINDS)];
        if (s === d || seen.has(`${s}-${d}-${kind}`)) continue;
        seen.add(`${s}-${d}-${kind}`);
        const inferred = rnd() < 0.3;
        await tx`INSERT INTO pm_atom_link (id, src_atom_id, dst_atom_id, kind, inferred, justification)
        VALUES (${id}, ${s}, ${d}, ${kind}, ${inferred}, ${inferred ? tx.json({ rule: "r" }) : null})`;
        edges.push({
          key: `pm_atom_link:${id}`,
          src: `atom:${s}`,
          dst: `atom:${d}`,
          kind,
          inferred,
          live: !retracted.has(s) && !retracted.has(d),
        });
      }
      for (let id = 1; id <= 12; id++) {
        const [a, s, kind] = [1 + Math.floor(rnd() * ATOMS), 1 + Math.floor(rnd() * SYMBOLS), pick(KINDS)];
        if (seen.has(`a${a}-${s}-${kind}`)) continue;
        seen.add(`a${a}-${s}-${kind}`);
        await tx`INSERT INTO pm_atom_symbol_link (id, atom_id, symbol_id, kind) VALUES (${id}, ${a}, ${s}, ${kind})`;
        edges.push({
          key: `pm_atom_symbol_link:${id}`,
          src: `atom:${a}`,
          dst: `symbol:${s}`,
          kind,
          inferred: false,
          live: !retracted.has(a),
        });
      }
      for (let id = 1; id <= 20; id++) {
        const srcSym = rnd() < 0.7 ? 1 + Math.floor(rnd() * SYMBOLS) : null;
        const dstSym = rnd() < 0.6 ? 1 + Math.floor(rnd() * SYMBOLS) : null;
        const [mod, name, kind] = [pick(["m.a", "m.b", "м.в"]), pick(["x", "y", "ж", "𝔸"]), pick(KINDS)];
        await tx`INSERT INTO pm_code_dependency (id, repo, src_symbol_id, src_module, dst_symbol_id, dst_name, kind)
        VALUES (${id}, 'r', ${srcSym}, ${mod}, ${dstSym}, ${name}, ${kind})`;
        const src = srcSym ? `symbol:${srcSym}` : `module:${mod}`;
        edges.push({
          key: `pm_code_dependency:${id}`,
          src,
          dst: dstSym ? `symbol:${dstSym}` : `name:${name}`,
          kind,
          inferred: false,
          live: true,
        });
      }
    }),
  );
  const live = edges.filter((e) => e.live).map(({ live: _, ...e }) => e);
  const nodes = new Set<string>();
  for (let id = 1; id <= ATOMS; id++) if (!retracted.has(id)) nodes.add(`atom:${id}`);
  for (let id = 1; id <= SYMBOLS; id++) nodes.add(`symbol:${id}`);
  for (const e of live) for (const n of [e.src, e.dst]) nodes.add(n);
  return { edges: live, nodes: [...nodes] };
}

interface Filter {
  kinds: string[];
  includeInferred: boolean;
}

const allowed = (e: RefEdge, f: Filter) =>
  (f.kinds.length === 0 || f.kinds.includes(e.kind)) && (f.includeInferred || !e.inferred);

/** Breadth-first distances from `root` within `depth` (Infinity: unbounded). */
function bfs(edges: RefEdge[], root: string, direction: Direction, depth: number, f: Filter): Map<string, number> {
  const dist = new Map([[root, 0]]);
  let frontier = [root];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const e of edges) {
      if (!allowed(e, f)) continue;
      const steps: [string, string][] = [];
      if (direction !== "in") steps.push([e.src, e.dst]);
      if (direction !== "out") steps.push([e.dst, e.src]);
      for (const [a, b] of steps) {
        if (frontier.includes(a) && !dist.has(b)) {
          dist.set(b, d);
          next.push(b);
        }
      }
    }
    frontier = next;
  }
  return dist;
}

/** The expected neighbourhood: ids and distances in order, truncation, induced edge keys. */
function expectedNeighbours(
  edges: RefEdge[],
  root: string,
  direction: Direction,
  depth: number,
  limit: number,
  f: Filter,
) {
  const all = [...bfs(edges, root, direction, depth, f)].sort((a, b) => a[1] - b[1] || byCodePoint(a[0], b[0]));
  const kept = all.slice(0, limit);
  const ids = new Set(kept.map(([id]) => id));
  const keys = edges
    .filter((e) => allowed(e, f) && ids.has(e.src) && ids.has(e.dst))
    .map((e) => e.key)
    .sort(byCodePoint);
  return { nodes: kept, truncated: all.length > limit, keys };
}

/** Checks that `edges` walk from `from` to `to` through `nodes`, each step an allowed edge in `direction`. */
function checkPath(model: RefEdge[], nodes: string[], edges: GraphEdge[], direction: Direction, f: Filter): void {
  expect(edges.length).toBe(nodes.length - 1);
  edges.forEach((e, i) => {
    const ref = model.find((m) => m.key === e.key);
    expect(ref && allowed(ref, f)).toBe(true);
    const fwd = e.src === nodes[i] && e.dst === nodes[i + 1];
    const bwd = e.dst === nodes[i] && e.src === nodes[i + 1];
    expect(direction === "out" ? fwd : direction === "in" ? bwd : fwd || bwd).toBe(true);
  });
}

/** Runs random neighbour and path queries against the adapter and the in-memory model. */
function differential(backend: "postgres" | "pglite", skip: SkipReason = null): void {
  contractSuite(`SqlGraphStore against an in-memory BFS on random graphs: ${backend}`, skip, () => {
    let dispose = async () => {};
    let graph: SqlGraphStore;
    let model: { edges: RefEdge[]; nodes: string[] };
    const rnd = prng(20_240_611);
    beforeAll(async () => {
      const t = await openGraphTestDatabase(backend);
      dispose = t.dispose;
      model = await seedRandom(t.db, rnd);
      graph = new SqlGraphStore(t.db);
    }, 120_000);
    afterAll(() => dispose(), 60_000);
    const query = () => {
      const kinds = rnd() < 0.3 ? [KINDS[Math.floor(rnd() * 3)]] : [];
      return {
        direction: (["out", "in", "both"] as const)[Math.floor(rnd() * 3)],
        kinds,
        includeInferred: rnd() < 0.6,
      };
    };

    test("neighbours: same nodes, distances, order, truncation and induced edges", async () => {
      for (let i = 0; i < 120; i++) {
        const [node, q, depth, limit] = [
          model.nodes[Math.floor(rnd() * model.nodes.length)],
          query(),
          1 + Math.floor(rnd() * 5),
          rnd() < 0.3 ? 1 + Math.floor(rnd() * 12) : 100,
        ];
        const got = await graph.neighbours({ node, ...q, depth, limit });
        const want = expectedNeighbours(model.edges, node, q.direction, depth, limit, q);
        expect({
          nodes: got.nodes.map((n) => [n.id, n.distance]),
          truncated: got.truncated,
          keys: got.edges.map((e) => e.key),
        }).toEqual(want);
      }
    }, 120_000);

    test("shortest paths: the fewest edges, a real walk, null exactly when none within maxDepth", async () => {
      for (let i = 0; i < 150; i++) {
        const [from, to, q, maxDepth] = [
          model.nodes[Math.floor(rnd() * model.nodes.length)],
          model.nodes[Math.floor(rnd() * model.nodes.length)],
          query(),
          1 + Math.floor(rnd() * 10),
        ];
        const path = await graph.shortestPath({ from, to, ...q, maxDepth });
        const want = bfs(model.edges, from, q.direction, maxDepth, q).get(to);
        expect(path === null ? undefined : path.edges.length).toBe(want);
        if (path) {
          expect([path.nodes[0].id, path.nodes.at(-1)?.id]).toEqual([from, to]);
          checkPath(
            model.edges,
            path.nodes.map((n) => n.id),
            path.edges,
            q.direction,
            q,
          );
        }
      }
    }, 120_000);
  });
}

differential("postgres", pgSkip);
differential("pglite");
