/**
 * Child process of the search_latency benchmark, so that its RSS holds one search process and nothing of the
 * loader: opens an embedded data dir, times the first catch-up of the in-process indexes (`projection.sync()`),
 * reads the RSS, then times `search` over the SciFact test queries in each mode after warm-up queries, and the
 * no-op catch-up (`sync()` when nothing changed) that every search begins with, and memory_get_context with its
 * defaults over the same queries.
 * Usage: bun bench/benchmarks/search-probe.ts <data-dir> [restart]; prints one JSON object on stdout. With
 * `restart` it only times a restart: opening the data dir and the first catch-up (from the index snapshot when one is
 * there), in wall and CPU time, and the RSS then.
 */
import { readFileSync } from "node:fs";
import { getContext } from "../../src/core/context/context.ts";
import { search, type SearchMode } from "../../src/core/search/search.ts";
import { setLogLevel } from "../../src/log.ts";
import { loadBeir } from "../lib/beir.ts";
import { pgliteServices } from "../lib/env.ts";
import { mean, round, summarize } from "../lib/stats.ts";

/** Warm-up queries (SciFact queries without test judgments) run before timing. */
export const WARMUP = 20;
/** Hits asked per query. */
export const K = 10;
const MODES: SearchMode[] = ["hybrid", "lexical", "vector"];
const SYNC_RUNS = 100;

function rssBytes(): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

/** A restart: open, first catch-up (snapshot or feed), one search; wall ms, CPU seconds, RSS. */
async function restart(dataDir: string): Promise<void> {
  setLogLevel("warn");
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { services, dispose } = await pgliteServices(dataDir);
  const openMs = performance.now() - t0;
  const applied = await services.projection.sync();
  const readyMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const rssReady = rssBytes();
  const t1 = performance.now();
  await search(services, { query: "vitamin D deficiency and bone density", k: K });
  const firstSearchMs = performance.now() - t1;
  const out = {
    atoms_indexed: services.projection.state.atoms,
    rows_applied: applied,
    open_ms: round(openMs),
    ready_ms: round(readyMs),
    ready_cpu_s: round((cpu.user + cpu.system) / 1e6, 2),
    first_search_ms: round(firstSearchMs),
    rss_ready_mb: round(rssReady / 2 ** 20),
  };
  await dispose();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

async function main(dataDir: string): Promise<void> {
  setLogLevel("warn");
  const set = loadBeir("scifact");
  const rssBeforeOpen = rssBytes();
  const { services, dispose } = await pgliteServices(dataDir);
  const rssOpen = rssBytes();
  const t0 = performance.now();
  const applied = await services.projection.sync();
  const firstSyncMs = performance.now() - t0;
  const rssSync = rssBytes();
  Bun.gc(true);
  const rssSyncGc = rssBytes();
  for (const q of set.otherQueries.slice(0, WARMUP))
    for (const mode of MODES) await search(services, { query: q.text, k: K, mode });
  const latency: Record<string, unknown> = {};
  for (const mode of MODES) {
    const ms: number[] = [];
    let hits = 0;
    for (const q of set.queries) {
      const t = performance.now();
      const r = await search(services, { query: q.text, k: K, mode });
      ms.push(performance.now() - t);
      hits += r.hits.length;
    }
    latency[mode] = { ...summarize(ms), mean: round(mean(ms)), avg_hits: round(hits / set.queries.length, 2) };
  }
  // memory_get_context with its defaults (k 8, 1 hop, 2000 tokens): search, graph expansion, token packing.
  {
    const ms: number[] = [];
    let items = 0;
    let tokens = 0;
    for (const q of set.otherQueries.slice(0, 5)) await getContext(services, { question: q.text });
    for (const q of set.queries) {
      const t = performance.now();
      const r = await getContext(services, { question: q.text });
      ms.push(performance.now() - t);
      items += r.items.length;
      tokens += r.used_tokens;
    }
    latency.get_context = {
      ...summarize(ms),
      mean: round(mean(ms)),
      avg_items: round(items / set.queries.length, 2),
      avg_tokens: round(tokens / set.queries.length),
    };
  }
  // The catch-up every search starts with, alone, when nothing changed: the part of a search that is not ranking.
  const syncMs: number[] = [];
  for (let i = 0; i < SYNC_RUNS; i++) {
    const t = performance.now();
    await services.projection.sync();
    syncMs.push(performance.now() - t);
  }
  latency.sync_only = { ...summarize(syncMs), mean: round(mean(syncMs)) };
  const out = {
    atoms_indexed: services.projection.state.atoms,
    vectors_indexed: await services.vectorIndex.count(),
    first_sync: { ms: round(firstSyncMs), rows_applied: applied },
    rss_mb: {
      before_open: round(rssBeforeOpen / 2 ** 20),
      after_open: round(rssOpen / 2 ** 20),
      after_first_sync: round(rssSync / 2 ** 20),
      after_first_sync_gc: round(rssSyncGc / 2 ** 20),
      after_queries: round(rssBytes() / 2 ** 20),
    },
    queries: set.queries.length,
    latency_ms: latency,
  };
  await dispose();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: bun bench/benchmarks/search-probe.ts <data-dir> [restart]");
  if (process.argv[3] === "restart") await restart(dir);
  else await main(dir);
}
