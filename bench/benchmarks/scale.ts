/**
 * scale (issue 23, item 3): the same measurements at 10k and 100k atoms (and 1M when asked) on the embedded default
 * (PGlite + in-process indexes) and on PostgreSQL: memory_search p50/p95/p99, memory_get_context p50, memory_store
 * p50, search p99 while an ingest runs, start to ready, RSS, disk size and the bulk-load rate.
 *
 * The atoms are generated English and Russian text (bench/lib/scale-corpus.ts), bulk-loaded through the store's
 * `commitIngest` in plans of 1,000 atoms (bench/lib/synthetic-atoms.ts `planOf`): the transaction, rows, outbox and
 * change feed of memory_ingest, without chunking, distilling and the dedup lookups (the probe's memory_store and
 * memory_ingest calls take the whole path). Each scale adds atoms to the previous one's store; the loader then runs
 * one catch-up, which leaves the embedded index snapshot, and a fresh child (scale-probe.ts) measures.
 * PostgreSQL runs in a temporary database (`pegas_bench_scale_…`, dropped at the end) of the server at PG_URL; it
 * is skipped, with a note, when no server answers.
 *
 * 1M atoms is opt-in (never in CI, nor in the default `npm run bench`): PEGAS_BENCH_SCALE_1M=1 adds it;
 * PEGAS_BENCH_SCALE_BUDGET_S (default 3600) bounds the time each backend spends bulk-loading (probes not counted),
 * and a load cut by the budget is measured at the count it reached (`budget_hit`). PEGAS_BENCH_SCALE_ATOMS=a,b,…
 * replaces 10k,100k (a quick check).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { setLogLevel } from "../../src/log.ts";
import { createServices } from "../../src/wiring/services.ts";
import { benchConfig, ROOT, tempDir, tempPgDatabase } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { atomCapacity, atomTexts, type SentencePools, sentencePools } from "../lib/scale-corpus.ts";
import { round } from "../lib/stats.ts";
import { PLAN_ATOMS, planOf } from "../lib/synthetic-atoms.ts";
import { type ScaleResults, scaleRows } from "../lib/scale-rows.ts";

const BUDGET_S = Number(process.env.PEGAS_BENCH_SCALE_BUDGET_S ?? 3600);

/**
 * The atom counts measured, increasing: PEGAS_BENCH_SCALE_ATOMS (comma-separated) or 10k and 100k; then 1M with
 * PEGAS_BENCH_SCALE_1M=1.
 */
export const SCALES = [
  ...(process.env.PEGAS_BENCH_SCALE_ATOMS?.split(",").map(Number) ?? [10_000, 100_000]),
  ...(process.env.PEGAS_BENCH_SCALE_1M === "1" ? [1_000_000] : []),
];

/** The two set-ups measured. */
export type Backend = "pglite" | "postgres";

/** Bytes of the files under `dir` (recursive): all, and those under a `pg_wal` or `.cache` (index snapshot) dir. */
function dirBytes(dir: string, out = { total: 0, wal: 0, cache: 0 }, part?: "wal" | "cache") {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const sub = e.name === "pg_wal" ? "wal" : e.name === ".cache" ? "cache" : part;
    if (e.isDirectory()) dirBytes(p, out, sub);
    else if (e.isFile()) {
      const n = statSync(p).size;
      out.total += n;
      if (part) out[part] += n;
    }
  }
  return out;
}

const mib = (n: number) => round(n / 2 ** 20);

async function pgBytes(url: string): Promise<Record<string, number>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [r] = await sql`SELECT pg_database_size(current_database())::bigint AS n`;
    return { total: Number(r.n) };
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Loads atoms `[from, to)` into the store at `location`, stopping at `deadline` (performance.now() ms); then one
 * catch-up of the in-process indexes (the embedded store saves its snapshot). Texts already stored (a memory_ingest
 * of an earlier probe may have made one) are counted, not created.
 */
async function load(
  backend: Backend,
  location: string,
  pools: SentencePools,
  from: number,
  to: number,
  deadline: number,
) {
  const services = await createServices(
    benchConfig(backend === "postgres" ? { database_url: location } : { data_dir: location }),
  );
  const t0 = performance.now();
  let created = 0;
  let reached = from;
  try {
    for (let i = from; i < to && performance.now() < deadline; i += PLAN_ATOMS) {
      const end = Math.min(i + PLAN_ATOMS, to);
      const plan = await planOf(services, atomTexts(pools, i, end), i / PLAN_ATOMS, {
        uri: "bench:scale-atoms",
        title: "Generated atoms",
      });
      created += (await services.ingestWrites.commitIngest(plan)).atomsCreated;
      reached = end;
    }
    const loadMs = performance.now() - t0;
    const t1 = performance.now();
    if (backend === "pglite") await services.projection.sync();
    return {
      reached,
      created,
      load_ms: round(loadMs),
      atoms_per_s: round(((reached - from) * 1000) / loadMs),
      catch_up_ms: round(performance.now() - t1),
    };
  } finally {
    await services.close(0);
  }
}

async function probe(backend: Backend, location: string, atoms: number): Promise<any> {
  const args = [process.execPath, join(ROOT, "bench/benchmarks/scale-probe.ts"), backend, location, String(atoms)];
  const p = Bun.spawn(args, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`scale probe failed (${code}): ${err.slice(-2000)}`);
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/** Every scale on one backend's store at `location`; results keyed `atoms_<n>`. */
async function runBackend(
  backend: Backend,
  location: string,
  pools: SentencePools,
  bytes: () => Promise<Record<string, number>>,
) {
  const results: Record<string, unknown> = {};
  let loaded = 0;
  let loadMs = 0; // the budget counts loading only, not the probes
  for (const scale of SCALES) {
    process.stderr.write(`bench: scale ${backend}: loading to ${scale} atoms\n`);
    const l = await load(backend, location, pools, loaded, scale, performance.now() + BUDGET_S * 1000 - loadMs);
    loadMs += l.load_ms;
    if (l.reached === loaded) {
      process.stderr.write(`bench: scale ${backend}: load budget spent at ${loaded} atoms\n`);
      break; // nothing new to measure
    }
    loaded = l.reached;
    const p = await probe(backend, location, loaded);
    results[`atoms_${scale}`] = {
      atoms: loaded,
      budget_hit: loaded < scale,
      load: l,
      ...p,
      disk_mb: mib((await bytes()).total),
      disk_parts_mb: Object.fromEntries(Object.entries(await bytes()).map(([k, v]) => [k, mib(v)])),
    };
    if (loaded < scale) break;
  }
  return results;
}

/** The scale benchmark (see module doc). */
export const scaleBench: Benchmark = {
  name: "scale",
  description:
    "search, context, store, ingest-time search, start, RSS and disk at 10k/100k atoms on PGlite and PostgreSQL",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const pools = sentencePools();
    const results: Record<string, unknown> = {};
    const notes: string[] = [];
    const dir = tempDir("scale");
    results.pglite = await runBackend("pglite", dir, pools, async () => dirBytes(dir));
    const pg = await tempPgDatabase("pegas_bench_scale");
    if (typeof pg === "string") notes.push(`PostgreSQL skipped: ${pg}`);
    else {
      try {
        results.postgres = await runBackend("postgres", pg.url, pools, () => pgBytes(pg.url));
      } finally {
        await pg.drop();
      }
    }
    const summary: SummaryRow[] = scaleRows(results as ScaleResults);
    return {
      params: {
        scales: SCALES,
        budget_s: BUDGET_S,
        atoms: `generated (bench/lib/scale-corpus.ts): pairs and triples of fixture-book sentences, en ${pools.en.length} / ru ${pools.ru.length} sentences, half each language, capacity ${atomCapacity(pools)}`,
        load: `commitIngest plans of ${PLAN_ATOMS} atoms (no distill, no dedup lookup), each scale on top of the previous`,
        probe:
          "fresh child process per backend and scale (bench/benchmarks/scale-probe.ts), tools through an in-memory MCP client",
        ready:
          "pglite: open + catch-up from the index snapshot the loader left; postgres: open + catch-up of the whole feed (no snapshot)",
        rss: "the probe process (PostgreSQL's own server processes not counted)",
        disk: "pglite: the data dir's files (parts: pg_wal, .cache = index snapshot); postgres: pg_database_size",
      },
      results,
      summary,
      notes,
    };
  },
};
