/**
 * first_query: spawn → initialize → the first memory_search result of the compiled executable, on a fresh data
 * dir (the embedded migrated template unpacked, PGlite started) and on an existing data dir that already holds the
 * Chekhov text.
 */
import { join } from "node:path";
import { chekhovDataDir, isolatedBinary, removeDir, tempDir } from "../lib/env.ts";
import { McpProcess } from "../lib/mcp-proc.ts";
import type { Benchmark, BenchOutcome } from "../lib/report.ts";
import { round, summarize } from "../lib/stats.ts";

const RUNS = 5;
const QUERY = "больничная палата";

async function firstQuery(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  dataDir: string,
): Promise<{ ms: number; hits: number }> {
  const p = new McpProcess(bin, ["--data-dir", dataDir], { cwd, env });
  try {
    await p.initialize();
    const r = await p.callTool("memory_search", { query: QUERY, k: 10 });
    const ms = performance.now() - p.spawnedAt;
    await p.closeStdin();
    return { ms, hits: r.hits.length };
  } finally {
    p.kill();
  }
}

/** The first-query benchmark (see module doc). */
export const firstQueryBench: Benchmark = {
  name: "first_query",
  description: "spawn→initialize→first memory_search result, fresh and existing embedded data dir",
  async run(): Promise<BenchOutcome> {
    const { dir, bin, env } = await isolatedBinary();
    const fresh: number[] = [];
    let freshHits = 0;
    for (let i = 0; i < RUNS; i++) {
      const dataDir = join(tempDir("fresh"), "data");
      const r = await firstQuery(bin, dir, env, dataDir);
      fresh.push(r.ms);
      freshHits += r.hits;
      removeDir(join(dataDir, ".."));
    }
    const existingDir = await chekhovDataDir(bin, env);
    const existing: number[] = [];
    let existingHits = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await firstQuery(bin, dir, env, existingDir);
      existing.push(r.ms);
      existingHits = r.hits;
    }
    const f = summarize(fresh);
    const e = summarize(existing);
    return {
      params: { runs: RUNS, query: QUERY, k: 10, existing_data: "ru_chekhov_palata_no6.txt ingested by the CLI" },
      results: {
        fresh_data_dir_ms: { ...f, samples: fresh.map((x) => round(x)), hits_total: freshHits },
        existing_data_dir_ms: { ...e, samples: existing.map((x) => round(x)), hits_per_query: existingHits },
      },
      summary: [
        { metric: "first query, fresh data dir (template), median", value: f.median, unit: "ms", target: "≤ 1000 ms" },
        { metric: "first query, existing data dir (Chekhov), median", value: e.median, unit: "ms" },
      ],
    };
  },
};
