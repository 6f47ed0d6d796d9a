/**
 * inference: memory_infer to the fixpoint on 10k nodes / 50k edges, on PostgreSQL (PGlite when no server answers).
 * The graph is code-like: 10,000 atoms in 200 packages of 50; inside a package 250 random distinct pairs are linked
 * from the earlier node to the later one (a random DAG; 50,000 `leads_to` edges in all), so the transitive closure stays within the
 * packages (as imports mostly do) instead of covering 10k² pairs. One transitive rule
 * `{"if": ["leads_to", "leads_to"], "then": "leads_to"}` is applied: seconds to the fixpoint, derived edges, rounds,
 * edges/s (derived edges stored with justification, premise index and outbox rows per second); then the rerun
 * (fixpoint already reached) and one premise deleted with truth maintenance (over-delete and re-derive).
 */
import { retractUnsupported } from "../../src/adapters/sql/inference/tms.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { infer } from "../../src/core/inference/infer.ts";
import type { Services } from "../../src/core/services.ts";
import { loadavg } from "node:os";
import { setLogLevel } from "../../src/log.ts";
import { type BenchServices, pgliteServices, postgresServices } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";
import { mulberry32 } from "../../tests/support/prng.ts";

const NODES = 10_000;
const PACKAGE = 50;
const OUT_DEGREE = 5;

async function open(): Promise<{ s: BenchServices; backend: string; note?: string }> {
  const pg = await postgresServices();
  if (typeof pg !== "string") return { s: pg, backend: "postgres" };
  return { s: await pgliteServices(), backend: "pglite", note: pg };
}

const prng = mulberry32; // seeded, so every run builds the same graph

/** Loads the atoms and edges; returns the atom ids (index = node) and the edge count. */
async function load(s: Services): Promise<{ ids: number[]; edges: number; ruleId: number }> {
  const sql = (s.maintenance as SqlCanonicalStore).db.sql;
  const rows = await sql`
    INSERT INTO pm_atom (type, claim, content, content_hash, search_tsv)
    SELECT 'fact', 'bench node ' || g, 'bench node ' || g, 'bench-infer-' || g, ''::tsvector FROM generate_series(0, ${NODES - 1}) AS g
    RETURNING id, claim`;
  const ids = new Array<number>(NODES);
  for (const r of rows) ids[Number(String(r.claim).slice(11))] = Number(r.id);
  const rand = prng(20261130);
  const src: number[] = [];
  const dst: number[] = [];
  const perPackage = PACKAGE * OUT_DEGREE;
  for (let p = 0; p < NODES; p += PACKAGE) {
    const seen = new Set<number>();
    while (seen.size < perPackage) {
      const a = Math.floor(rand() * PACKAGE);
      const b = Math.floor(rand() * PACKAGE);
      if (a === b) continue;
      const [lo, hi] = a < b ? [a, b] : [b, a]; // edges go to later nodes: a DAG
      if (seen.has(lo * PACKAGE + hi)) continue;
      seen.add(lo * PACKAGE + hi);
      src.push(ids[p + lo]);
      dst.push(ids[p + hi]);
    }
  }
  for (let k = 0; k < src.length; k += 10_000) {
    await sql`INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind, confidence)
              SELECT * , 'leads_to', 0.9 FROM unnest(${src.slice(k, k + 10_000)}::bigint[], ${dst.slice(k, k + 10_000)}::bigint[])
              ON CONFLICT DO NOTHING`;
  }
  const [edges] = await sql`SELECT count(*)::int AS n FROM pm_atom_link WHERE kind = 'leads_to'`;
  const [rule] = await sql`
    INSERT INTO pm_atom (type, claim, content, content_hash, search_tsv)
    VALUES ('logical_rule', 'leads_to is transitive', '{"if": ["leads_to", "leads_to"], "then": "leads_to"}', 'bench-infer-rule', ''::tsvector)
    RETURNING id`;
  await sql`ANALYZE pm_atom_link`;
  return { ids, edges: Number(edges.n), ruleId: Number(rule.id) };
}

/** The inference benchmark (see module doc). */
export const inferenceBench: Benchmark = {
  name: "inference",
  description: "memory_infer to the fixpoint, transitive rule on 10k nodes / 50k edges (code-like DAG)",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const { s, backend, note } = await open();
    try {
      const sql = (s.services.maintenance as SqlCanonicalStore).db.sql;
      const g = await load(s.services);
      const limits = { maxIterations: 50, maxNewEdges: 5_000_000 };
      let t0 = performance.now();
      const first = await infer(s.services, { ruleIds: [g.ruleId], ...limits });
      const firstS = (performance.now() - t0) / 1000;
      t0 = performance.now();
      const rerun = await infer(s.services, { ruleIds: [g.ruleId], ...limits });
      const rerunS = (performance.now() - t0) / 1000;
      // Truth maintenance: the first edge of package 0's first node goes.
      const [victim] =
        await sql`SELECT id FROM pm_atom_link WHERE src_atom_id = ${g.ids[0]} AND NOT inferred ORDER BY id LIMIT 1`;
      t0 = performance.now();
      const tms = await sql.begin(async (tx) => {
        await tx`DELETE FROM pm_atom_link WHERE id = ${victim.id}`;
        return retractUnsupported(tx, [{ origin: "pm_atom_link", id: Number(victim.id) }]);
      });
      const tmsMs = performance.now() - t0;
      const summary: SummaryRow[] = [
        { metric: `memory_infer to fixpoint, 10k nodes / 50k edges (${backend})`, value: round(firstS, 2), unit: "s" },
        { metric: "derived edges stored per second", value: round(first.edgesAdded / firstS), unit: "edges/s" },
        { metric: "rerun at the fixpoint (nothing new)", value: round(rerunS, 2), unit: "s" },
        { metric: "one premise deleted: TMS over-delete + re-derive", value: round(tmsMs), unit: "ms" },
      ];
      return {
        params: {
          nodes: NODES,
          edges: g.edges,
          package_size: PACKAGE,
          out_degree: OUT_DEGREE,
          backend,
          rule: "leads_to ∘ leads_to → leads_to",
          limits,
        },
        results: {
          first: {
            seconds: round(firstS, 3),
            derived_edges: first.edgesAdded,
            iterations: first.iterations,
            edges_per_s: round(first.edgesAdded / firstS),
          },
          rerun: { seconds: round(rerunS, 3), derived_edges: rerun.edgesAdded, iterations: rerun.iterations },
          tms_one_premise: { ms: round(tmsMs), retracted: tms.retracted, rederived: tms.rederived },
        },
        summary,
        notes: [
          ...(note ? [`PostgreSQL not available (${note}); ran on PGlite`] : []),
          `load average ${loadavg()
            .map((x) => x.toFixed(1))
            .join(" / ")} (1/5/15 min) at the end, on a machine shared with other work`,
        ],
      };
    } finally {
      await s.dispose();
    }
  },
};
