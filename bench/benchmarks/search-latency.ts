/**
 * search_latency: `search(services, {query, k: 10})` p50/p95 at 10k and 100k atoms on the embedded default, per
 * mode (hybrid, lexical leg alone, vector leg alone), memory_get_context with its defaults, plus the first
 * catch-up of the in-process indexes and the RSS after it. The atoms are real SciFact sentences and sentence pairs bulk-loaded through `commitIngest`
 * (bench/lib/synthetic-atoms.ts); each scale is measured by a fresh child process (search-probe.ts).
 */
import { join } from "node:path";
import { setLogLevel } from "../../src/log.ts";
import { pgliteServices, ROOT, tempDir } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";
import { buildAtomTexts, loadAtoms, PLAN_ATOMS } from "../lib/synthetic-atoms.ts";
import { K, WARMUP } from "./search-probe.ts";

const SCALES = [10_000, 100_000];

async function probe(dataDir: string): Promise<any> {
  const p = Bun.spawn([process.execPath, join(ROOT, "bench/benchmarks/search-probe.ts"), dataDir], {
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
    { metric: `RSS after first catch-up, ${n}`, value: r.rss_mb.after_first_sync, unit: "MiB" },
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
      const r = await probe(dataDir);
      results[`atoms_${scale}`] = { load_ms: round(load.ms), atoms_loaded_now: load.created, ...r };
      summary.push(...rows(scale, r));
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
      },
      results,
      summary,
    };
  },
};
