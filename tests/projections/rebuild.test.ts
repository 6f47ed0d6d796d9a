/**
 * Acceptance: ingest, then `rebuild all`, then the same searches and graph queries return the same results as
 * before; memory_stats shows zero drift and zero backlog. On the embedded default (PGlite, no external projection),
 * and on PostgreSQL with a vector projection in the Qdrant REST stand-in (a test server, not Qdrant).
 */
import { describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { drainOutbox, rebuildProjections } from "../../src/worker/projections.ts";
import { search } from "../../src/core/search/search.ts";
import type { Services } from "../../src/core/services.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { pgSkipReason } from "../support/pg.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";
import { fixture, suiteServices } from "../support/services.ts";

const QUERIES = [
  "больничная палата",
  "доктор Андрей Ефимыч Рагин",
  "Иван Дмитрич Громов",
  "почтмейстер Михаил Аверьяныч",
];

/** Stores three agent facts about the story, linked into a chain and to a passage, so that the graph has edges. */
async function seedLinks(s: Services): Promise<number> {
  const [passage] = (await search(s, { query: "Андрей Ефимыч", k: 1 })).hits;
  const a = await storeAtom(s, {
    type: "fact",
    claim: "Андрей Ефимыч Рагин — врач городской больницы.",
    links: [{ atom_id: passage.atom_id, kind: "reference" }],
  });
  const b = await storeAtom(s, {
    type: "fact",
    claim: "Рагин подолгу беседует с Громовым в палате № 6.",
    links: [{ atom_id: a.atom_id, kind: "depends_on" }],
  });
  const c = await storeAtom(s, {
    type: "fact",
    claim: "Рагина самого запирают в палату № 6.",
    links: [{ atom_id: b.atom_id, kind: "cause", confidence: 0.8 }],
  });
  return c.atom_id;
}

/** Everything a reader sees: hits (ids, ranks, scores) per query and mode, a neighbourhood, a path, counters. */
async function observe(s: Services, root: number) {
  const searches = [];
  for (const query of QUERIES) {
    for (const mode of ["hybrid", "lexical", "vector"] as const) {
      const r = await search(s, { query, k: 10, mode });
      searches.push({
        query,
        mode,
        hits: r.hits.map((h) => [h.atom_id, h.score, h.ranks]),
        degraded: r.degraded ?? null,
      });
    }
  }
  const neighbours = await s.graph.neighbours({ node: `atom:${root}`, depth: 3 });
  const far = neighbours.nodes.at(-1)!.id;
  const path = await s.graph.shortestPath({ from: `atom:${root}`, to: far, direction: "both" });
  return { searches, neighbours, path, counters: await s.graph.counters() };
}

function rebuildAcceptance(suite: { readonly services: Services }, external: string[]) {
  test("rebuild all changes no answer; zero drift, zero backlog", async () => {
    const s = suite.services;
    const r = await ingest(s, { path: fixture("text/ru_chekhov_palata_no6.txt") }, { trustedPath: true });
    expect(r.errors).toEqual([]);
    const root = await seedLinks(s);
    await drainOutbox(s); // what `serve` does in the background: the external projection catches up
    const before = await observe(s, root);
    // The chain of links (three hops), and since issue 22 the entities its atoms mention with their other mentions.
    const chain = await s.graph.neighbours({
      node: `atom:${root}`,
      depth: 3,
      kinds: ["reference", "depends_on", "cause"],
    });
    expect(chain.nodes.length).toBe(4);
    expect(before.neighbours.nodes.some((n) => n.label === "Entity")).toBe(true);
    expect(before.searches.every((x) => x.hits.length > 0)).toBe(true);

    const rebuilt = await rebuildProjections(s, "all");
    expect(rebuilt.projections.map((p) => p.name)).toEqual(["embedded", ...external]);
    for (const p of rebuilt.projections.slice(1)) expect(p.held).toEqual(p.canonical);

    const after = await observe(s, root);
    expect(after).toEqual(before);
    const st = await stats(s);
    expect(st.outbox).toMatchObject({ pending: 0, dead: 0 });
    expect(st.projections.lexical.lag_atoms).toBe(0);
    expect(st.projections.vector.lag_vectors).toBe(0);
    expect(st.projections.external.map((e) => [e.name, e.drift, e.lag_s])).toEqual(
      external.map((n) => [n, { atom: 0 }, 0]),
    );
  }, 180_000);
}

describe("embedded default (PGlite, no external projection)", () => {
  rebuildAcceptance(suiteServices("pglite", {}, { outboxReader: false }), []); // the real default: nobody reads the outbox
});

const pgSkip = await pgSkipReason();
if (pgSkip) console.error(`skipped rebuild on PostgreSQL: ${pgSkip}`);
const standin = await QdrantRestStandin.start();
describe.skipIf(Boolean(pgSkip))("PostgreSQL with the Qdrant REST stand-in as vector projection", () => {
  rebuildAcceptance(
    suiteServices("postgres", { qdrant_url: standin.url }, { skip: pgSkip, after: () => standin.stop() }),
    ["qdrant"],
  );
});
