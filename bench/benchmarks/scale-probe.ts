/**
 * Child process of the `scale` benchmark, so that its RSS is one server process's and nothing of the loader's. It
 * opens a loaded store (an embedded data dir, or a PostgreSQL URL) and measures, through the MCP tools of an
 * in-memory client (bench/lib/mcp-inproc.ts: the tools' argument checks and rendering, no transport):
 * - start to ready: opening the services and the first catch-up of the in-process indexes (embedded: from the index
 *   snapshot the loader left; PostgreSQL keeps none, so the whole change feed), wall ms and RSS then;
 * - memory_search (k 10, hybrid) over generated English and Russian queries after warm-up: p50 / p95 / p99, and the
 *   same queries through core `search()` (the ranking without the tool's rendering);
 * - memory_get_context with its defaults: p50 / p95; memory_store of one new text atom each: p50 / p95;
 * - memory_search back to back while memory_ingest runs in the same process (generated natural text of the fixture
 *   books, the heuristic distiller; new texts until INGEST_MS has passed and UNDER_INGEST searches were timed, at
 *   most INGEST_MAX_MS): p50 / p99 and the ingest's MB/s;
 * - peak RSS (VmHWM) at the end.
 * Usage: bun bench/benchmarks/scale-probe.ts <pglite|postgres> <data-dir|database-url> <atoms>; one JSON line out.
 */
import { readFileSync } from "node:fs";
import { search } from "../../src/core/search/search.ts";
import { setLogLevel } from "../../src/log.ts";
import { createServices } from "../../src/wiring/services.ts";
import { benchConfig } from "../lib/env.ts";
import { naturalText } from "../lib/large-texts.ts";
import { inProcessClient, type InProcessClient } from "../lib/mcp-inproc.ts";
import { scaleQueries, sentencePools, storeAtoms } from "../lib/scale-corpus.ts";
import { percentile, round, summarize } from "../lib/stats.ts";

/** Timed memory_search queries (half English, half Russian). */
export const SEARCHES = 200;
/** Warm-up queries before timing (another seed). */
export const WARMUP = 20;
/** Timed memory_get_context calls. */
export const CONTEXTS = 60;
/** Timed memory_store calls. */
export const STORES = 30;
/** Bytes of each text ingested while searches run (one memory_ingest call: one transaction). */
export const INGEST_BYTES = 20_000;
/**
 * Ingests follow each other until INGEST_MS have passed and UNDER_INGEST searches were timed, or until
 * INGEST_MAX_MS (the one running then finishes).
 */
export const INGEST_MS = 8_000;
/** Searches wanted while ingests run (so that p99 is not the maximum of a handful). */
export const UNDER_INGEST = 100;
/** Ingests stop after this many ms even with fewer searches timed. */
export const INGEST_MAX_MS = 60_000;

function procStatus(field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
}

/** Latency summary with p99 (ms). */
function latency(ms: number[]) {
  return { ...summarize(ms), p99: round(percentile(ms, 99)) };
}

async function timed(calls: (() => Promise<unknown>)[]): Promise<number[]> {
  const ms: number[] = [];
  for (const call of calls) {
    const t = performance.now();
    await call();
    ms.push(performance.now() - t);
  }
  return ms;
}

/** Searches back to back while ingests run one after another for INGEST_MS; the samples and the ingest's figures. */
async function underIngest(client: InProcessClient, queries: string[], seed: number) {
  const ms: number[] = [];
  const start = performance.now();
  const more = () => {
    const t = performance.now() - start;
    return t < INGEST_MAX_MS && (t < INGEST_MS || ms.length < UNDER_INGEST);
  };
  let running = true;
  let bytes = 0;
  let atoms = 0;
  const t0 = performance.now();
  const ingests = (async () => {
    try {
      for (let n = 0; n === 0 || more(); n++) {
        const text = naturalText(INGEST_BYTES, seed + n);
        const r = await client.call("memory_ingest", { text, title: `scale ingest ${seed + n}` });
        bytes += Buffer.byteLength(text);
        atoms += Number((r.structured as { atoms_created?: number } | undefined)?.atoms_created ?? 0);
      }
    } finally {
      running = false;
    }
  })();
  for (let i = 0; running; i++) {
    const t = performance.now();
    await client.call("memory_search", { query: queries[i % queries.length], k: 10 });
    ms.push(performance.now() - t);
  }
  await ingests;
  const s = (performance.now() - t0) / 1000;
  return {
    search: latency(ms),
    ingest: { bytes, atoms_created: atoms, s: round(s, 2), mb_per_s: round(bytes / 1e6 / s, 3) },
  };
}

async function main(backend: string, location: string, atoms: number): Promise<void> {
  setLogLevel("warn");
  const pools = sentencePools();
  const queries = scaleQueries(pools, SEARCHES).map((q) => q.text);
  const warm = scaleQueries(pools, WARMUP, 99).map((q) => q.text);
  const rssBefore = procStatus("VmRSS");
  const t0 = performance.now();
  const services = await createServices(
    benchConfig(backend === "postgres" ? { database_url: location } : { data_dir: location }),
  );
  const openMs = performance.now() - t0;
  const applied = await services.projection.sync();
  const readyMs = performance.now() - t0;
  const rssReady = procStatus("VmRSS");
  const client = await inProcessClient(services);
  try {
    for (const q of warm) await client.call("memory_search", { query: q, k: 10 });
    const tool = await timed(queries.map((q) => () => client.call("memory_search", { query: q, k: 10 })));
    const byLang = (lang: number) => latency(tool.filter((_, i) => i % 2 === lang));
    // The same queries through core search() alone: the ranking without the tool's rendering and token packing.
    const core = await timed(queries.map((q) => () => search(services, { query: q, k: 10 })));
    const context = await timed(
      queries.slice(0, CONTEXTS).map((q) => () => client.call("memory_get_context", { question: q })),
    );
    let created = 0;
    const store = await timed(
      storeAtoms(pools, STORES, atoms).map((a) => async () => {
        const r = await client.call("memory_store", { type: "text", ...a });
        if ((r.structured as { created?: boolean } | undefined)?.created) created++;
      }),
    );
    const concurrent = await underIngest(client, queries, atoms);
    const out = {
      backend,
      atoms_indexed: services.projection.state.atoms,
      ready: { open_ms: round(openMs), ready_ms: round(readyMs), rows_applied: applied },
      rss_mb: {
        before_open: round(rssBefore),
        ready: round(rssReady),
        end: round(procStatus("VmRSS")),
        peak: round(procStatus("VmHWM")),
      },
      search: { ...latency(tool), en: byLang(0), ru: byLang(1) },
      search_core: latency(core),
      get_context: latency(context),
      store: { ...latency(store), created },
      under_ingest: concurrent,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await client.close();
    await services.close(0);
  }
}

if (import.meta.main) {
  const [backend, location, atoms] = process.argv.slice(2);
  if (!backend || !location || !atoms || !["pglite", "postgres"].includes(backend))
    throw new Error("usage: bun bench/benchmarks/scale-probe.ts <pglite|postgres> <data-dir|database-url> <atoms>");
  await main(backend, location, Number(atoms));
}
