/**
 * search_latency: `search(services, {query, k: 10})` p50/p95 at 10k and 100k atoms on the embedded default, per
 * mode (hybrid, lexical leg alone, vector leg alone), memory_get_context with its defaults, plus the first
 * catch-up of the in-process indexes and the RSS after it. The atoms are real SciFact sentences and sentence pairs bulk-loaded through `commitIngest`
 * (bench/lib/synthetic-atoms.ts); each scale is measured by a fresh child process (search-probe.ts).
 * Restart-to-ready (open + first catch-up) is timed in fresh processes, alternately without the index snapshot
 * (deleted first: the catch-up reads the whole change feed and saves a snapshot) and with it, RESTARTS times each.
 */
import { existsSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { setLogLevel } from "../../src/log.ts";
import { pgliteServices, ROOT, tempDir } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";
import { buildAtomTexts, loadAtoms, PLAN_ATOMS } from "../lib/synthetic-atoms.ts";
import { K, WARMUP } from "./search-probe.ts";
import { snapshotPath } from "../../src/wiring/services.ts";
import { median } from "../lib/stats.ts";

const SCALES = [10_000, 100_000];

const RESTARTS = 3;

async function probe(dataDir: string, mode?: "restart"): Promise<any> {
  const args = [process.execPath, join(ROOT, "bench/benchmarks/search-probe.ts"), dataDir, ...(mode ? [mode] : [])];
  const p = Bun.spawn(args, {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`search probe failed (${code}): ${err.slice(-2000)}`);
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

function rows(scale: number, r: any): SummaryRow[] {
  const n = `${scale / 1000}k atoms`;
  const l = r.latency_ms;
  return [
    {
      metric: `search p50 / p95, hybrid, ${n}`,
      value: `${l.hybrid.median} / ${l.hybrid.p95}`,
      unit: "ms",
      target: scale === 100_000 ? "p50 ≤ 30 ms" : undefined,
    },
    { metric: `search p50 / p95, lexical leg, ${n}`, value: `${l.lexical.median} / ${l.lexical.p95}`, unit: "ms" },
    { metric: `search p50 / p95, vector leg, ${n}`, value: `${l.vector.median} / ${l.vector.p95}`, unit: "ms" },
    {
      metric: `memory_get_context p50 / p95 (k 8, 1 hop, 2000 tokens), ${n}`,
      value: `${l.get_context.median} / ${l.get_context.p95}`,
      unit: "ms",
    },
    { metric: `catch-up alone (no changes) p50, part of every search, ${n}`, value: l.sync_only.median, unit: "ms" },
    { metric: `first catch-up (sync), ${n}`, value: r.first_sync.ms, unit: "ms" },
    { metric: `RSS after first catch-up, ${n}`, value: r.rss_mb.after_first_sync, unit: "MiB", target: "≤ 400 MiB" },
  ];
}

/** Restarts alternately without and with the snapshot (`snap` = the data dir's snapshot file); medians of each. */
async function restarts(dataDir: string, snap: string) {
  const cold: any[] = [];
  const warm: any[] = [];
  for (let i = 0; i < RESTARTS; i++) {
    rmSync(snap, { force: true });
    cold.push(await probe(dataDir, "restart"));
    if (!existsSync(snap)) throw new Error(`no index snapshot was written at ${snap}`);
    warm.push(await probe(dataDir, "restart"));
  }
  const med = (rs: any[], k: string) => round(median(rs.map((r) => r[k])));
  const sum = (rs: any[]) => ({
    ready_ms: med(rs, "ready_ms"),
    open_ms: med(rs, "open_ms"),
    ready_cpu_s: round(median(rs.map((r) => r.ready_cpu_s)), 2),
    first_search_ms: med(rs, "first_search_ms"),
    rss_ready_mb: med(rs, "rss_ready_mb"),
    rows_applied: rs[0].rows_applied,
    runs: rs,
  });
  const c = sum(cold);
  const w = sum(warm);
  return {
    without_snapshot: c,
    with_snapshot: w,
    snapshot_bytes: statSync(snap).size,
    ratio_ready: round(w.ready_ms / c.ready_ms, 3),
    ratio_cpu: round(w.ready_cpu_s / c.ready_cpu_s, 3),
  };
}

function restartRows(scale: number, r: any): SummaryRow[] {
  const n = `${scale / 1000}k atoms`;
  const w = r.with_snapshot;
  const c = r.without_snapshot;
  return [
    {
      metric: `restart to ready (open + catch-up), index snapshot / none, ${n}`,
      value: `${w.ready_ms} / ${c.ready_ms} (×${r.ratio_ready})`,
      unit: "ms",
      target: scale === 100_000 ? "≤ 1000 ms with snapshot" : undefined,
    },
    { metric: `restart CPU, index snapshot / none, ${n}`, value: `${w.ready_cpu_s} / ${c.ready_cpu_s}`, unit: "s" },
    {
      metric: `RSS after restart, index snapshot / none, ${n}`,
      value: `${w.rss_ready_mb} / ${c.rss_ready_mb}`,
      unit: "MiB",
    },
    { metric: `index snapshot size, ${n}`, value: round(r.snapshot_bytes / 2 ** 20), unit: "MiB" },
  ];
}

/** The search-latency benchmark (see module doc). */
export const searchLatency: Benchmark = {
  name: "search_latency",
  description: "search p50/p95 at 10k and 100k atoms (embedded default), first catch-up and RSS",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const t0 = performance.now();
    const { texts, kinds } = buildAtomTexts(SCALES.at(-1)!);
    const buildMs = performance.now() - t0;
    const dataDir = tempDir("latency");
    const results: Record<string, unknown> = {};
    const summary: SummaryRow[] = [];
    let loaded = 0;
    for (const scale of SCALES) {
      const s = await pgliteServices(dataDir);
      let load: Awaited<ReturnType<typeof loadAtoms>>;
      try {
        load = await loadAtoms(s.services, texts, loaded, scale);
      } finally {
        await s.dispose();
      }
      loaded = scale;
      const snap = snapshotPath(realpathSync(dataDir), s.services.embedder.model, s.services.embedder.dim);
      rmSync(snap, { force: true }); // the first catch-up below reads the whole feed, as before the snapshot
      const r = await probe(dataDir);
      const restart = await restarts(dataDir, snap);
      results[`atoms_${scale}`] = { load_ms: round(load.ms), atoms_loaded_now: load.created, ...r, restart };
      summary.push(...rows(scale, r), ...restartRows(scale, restart));
    }
    return {
      params: {
        scales: SCALES,
        k: K,
        warmup_queries: WARMUP,
        queries: "SciFact test queries (300), each in modes hybrid, lexical, vector",
        atoms: {
          source: "../shared/bench/scifact/corpus.jsonl, Intl.Segmenter sentences (title = a sentence, ≥ 10 chars)",
          ...kinds,
          shuffled_seed: 42,
          plan_atoms: PLAN_ATOMS,
          build_ms: round(buildMs),
        },
        timing: "wall time of search() in a fresh child process per scale; the 10k atoms are a subset of the 100k",
        restart: `fresh child processes, ${RESTARTS} × alternately without the index snapshot (deleted) and with it; medians`,
      },
      results,
      summary,
    };
  },
};
