/**
 * idle_rss: resident memory (VmRSS) of the compiled executable right after `initialize` (database not opened yet)
 * and after memory_stats opened the embedded database holding the Chekhov text, then 2 s idle.
 */
import { chekhovDataDir, isolatedBinary } from "../lib/env.ts";
import { McpProcess } from "../lib/mcp-proc.ts";
import type { Benchmark, BenchOutcome } from "../lib/report.ts";
import { median, round } from "../lib/stats.ts";

const RUNS = 3;
const IDLE_MS = 2000;
const MIB = 2 ** 20;

async function measure(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  dataDir: string,
): Promise<{ init: number; idle: number; atoms: number }> {
  const p = new McpProcess(bin, ["--data-dir", dataDir], { cwd, env });
  try {
    await p.initialize();
    const init = p.rssBytes();
    const stats = await p.callTool("memory_stats", {});
    await Bun.sleep(IDLE_MS);
    const idle = p.rssBytes();
    await p.closeStdin();
    return { init, idle, atoms: stats.atoms.total };
  } finally {
    p.kill();
  }
}

/** The idle-RSS benchmark (see module doc). */
export const idleRss: Benchmark = {
  name: "idle_rss",
  description:
    "RSS of the compiled executable after initialize, and idle after opening a database with the Chekhov text",
  async run(): Promise<BenchOutcome> {
    const { dir, bin, env } = await isolatedBinary();
    const dataDir = await chekhovDataDir(bin, env);
    const samples = [];
    for (let i = 0; i < RUNS; i++) samples.push(await measure(bin, dir, env, dataDir));
    const init = round(median(samples.map((s) => s.init)) / MIB);
    const idle = round(median(samples.map((s) => s.idle)) / MIB);
    return {
      params: {
        runs: RUNS,
        statistic: "median of runs",
        idle_ms: IDLE_MS,
        data: "ru_chekhov_palata_no6.txt ingested by the CLI",
        tool_call: "memory_stats",
      },
      results: {
        after_initialize_mib: init,
        after_open_idle_mib: idle,
        atoms_in_database: samples[0].atoms,
        samples_mib: samples.map((s) => ({
          after_initialize: round(s.init / MIB),
          after_open_idle: round(s.idle / MIB),
        })),
      },
      summary: [
        { metric: "RSS after initialize (database closed)", value: init, unit: "MiB" },
        { metric: `RSS idle after opening the database (${samples[0].atoms} atoms)`, value: idle, unit: "MiB" },
      ],
    };
  },
};
