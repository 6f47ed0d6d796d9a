/**
 * idle_rss: resident memory (VmRSS) of the compiled executable right after `initialize` (database not opened yet),
 * after memory_stats opened the embedded database holding the two fixture books (Chekhov and Botchan) then 2 s idle
 * (issue 23's figure), and after one memory_search (which loads the in-process indexes) then 2 s idle.
 */
import { isolatedBinary, TEXTS, textsDataDir } from "../lib/env.ts";
import { McpProcess } from "../lib/mcp-proc.ts";
import type { Benchmark, BenchOutcome } from "../lib/report.ts";
import { median, round } from "../lib/stats.ts";

const RUNS = 3;
const IDLE_MS = 2000;
const MIB = 2 ** 20;
const QUERY = "Who is the head of the school? Кто такой Андрей Ефимыч?";

interface Sample {
  init: number;
  idle: number;
  searched: number;
  atoms: number;
}

async function measure(bin: string, cwd: string, env: Record<string, string>, dataDir: string): Promise<Sample> {
  const p = new McpProcess(bin, ["--data-dir", dataDir], { cwd, env });
  try {
    await p.initialize();
    const init = p.rssBytes();
    const stats = await p.callTool("memory_stats", {});
    await Bun.sleep(IDLE_MS);
    const idle = p.rssBytes();
    await p.callTool("memory_search", { query: QUERY, k: 10 });
    await Bun.sleep(IDLE_MS);
    const searched = p.rssBytes();
    await p.closeStdin();
    return { init, idle, searched, atoms: stats.atoms.total };
  } finally {
    p.kill();
  }
}

/** The idle-RSS benchmark (see module doc). */
export const idleRss: Benchmark = {
  name: "idle_rss",
  description: "RSS of the compiled executable after initialize, and idle with a database holding the two books open",
  async run(): Promise<BenchOutcome> {
    const { dir, bin, env } = await isolatedBinary();
    const dataDir = await textsDataDir(bin, env, [TEXTS.chekhov, TEXTS.botchan], "books");
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await measure(bin, dir, env, dataDir));
    const mib = (pick: (s: Sample) => number) => round(median(samples.map(pick)) / MIB);
    const init = mib((s) => s.init);
    const idle = mib((s) => s.idle);
    const searched = mib((s) => s.searched);
    const atoms = samples[0]!.atoms;
    return {
      params: {
        runs: RUNS,
        statistic: "median of runs",
        idle_ms: IDLE_MS,
        data: "ru_chekhov_palata_no6.txt and en_gutenberg_8868_botchan.txt ingested by one CLI call",
        tool_calls: ["memory_stats (opens the database)", `memory_search ${JSON.stringify(QUERY)} k 10`],
      },
      results: {
        after_initialize_mib: init,
        after_open_idle_mib: idle,
        after_search_idle_mib: searched,
        atoms_in_database: atoms,
        samples_mib: samples.map((s) => ({
          after_initialize: round(s.init / MIB),
          after_open_idle: round(s.idle / MIB),
          after_search_idle: round(s.searched / MIB),
        })),
      },
      summary: [
        { metric: "RSS after initialize (database closed)", value: init, unit: "MiB" },
        {
          metric: `RSS idle with the database open, the two books (${atoms} atoms)`,
          value: idle,
          unit: "MiB",
          target: "≤ 200 MiB",
        },
        { metric: "RSS idle after the first search, the two books", value: searched, unit: "MiB" },
      ],
    };
  },
};
