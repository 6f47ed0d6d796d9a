/**
 * startup: spawn → `initialize` response of the compiled executable (copied alone into an empty dir, a fresh
 * process per run, a raw JSON-RPC line on stdin, timed until the response line arrives on stdout), and the time
 * from closing stdin to the process's exit after a tool call (memory_stats) opened the embedded database.
 */
import { isolatedBinary } from "../lib/env.ts";
import { McpProcess } from "../lib/mcp-proc.ts";
import type { Benchmark, BenchOutcome } from "../lib/report.ts";
import { round, summarize } from "../lib/stats.ts";

const RUNS = 30;

async function oneRun(
  bin: string,
  dir: string,
  env: Record<string, string>,
): Promise<{ initMs: number; exitMs: number; exitCode: number | null }> {
  const p = new McpProcess(bin, [], { cwd: dir, env });
  try {
    await p.initialize();
    const initMs = performance.now() - p.spawnedAt;
    await p.callTool("memory_stats", {});
    const exit = await p.closeStdin();
    return { initMs, exitMs: exit.ms, exitCode: exit.code };
  } finally {
    p.kill();
  }
}

/** The startup benchmark (see module doc). */
export const startup: Benchmark = {
  name: "startup",
  description: "spawn→initialize of the compiled executable, and stdin close→exit after the database was opened",
  async run(): Promise<BenchOutcome> {
    const { dir, bin, env } = await isolatedBinary();
    // One untimed run creates the embedded database (initdb), so every timed run opens an existing one.
    await oneRun(bin, dir, env);
    const init: number[] = [];
    const exit: number[] = [];
    const codes = new Set<number | null>();
    for (let i = 0; i < RUNS; i++) {
      const r = await oneRun(bin, dir, env);
      init.push(r.initMs);
      exit.push(r.exitMs);
      codes.add(r.exitCode);
    }
    const i = summarize(init);
    const e = summarize(exit);
    return {
      params: {
        runs: RUNS,
        warmup_runs: 1,
        tool_call_before_close: "memory_stats",
        data_dir: "embedded default (XDG_DATA_HOME inside the temp dir)",
      },
      results: {
        spawn_to_initialize_ms: { ...i, samples: init.map((x) => round(x)) },
        stdin_close_to_exit_ms: { ...e, samples: exit.map((x) => round(x)) },
        exit_codes: [...codes],
      },
      summary: [
        { metric: "spawn→initialize, median", value: i.median, unit: "ms", target: "≤ 150 ms" },
        { metric: "spawn→initialize, p95 / min", value: `${i.p95} / ${i.min}`, unit: "ms" },
        { metric: "stdin close→exit (db open), median", value: e.median, unit: "ms", target: "≤ 1000 ms" },
      ],
    };
  },
};
