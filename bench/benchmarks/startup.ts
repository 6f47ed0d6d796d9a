/**
 * startup: spawn → `initialize` response of the compiled executable (copied alone into an empty dir, a fresh
 * process per run, a raw JSON-RPC line on stdin, timed until the response line arrives on stdout) beside the
 * reference MCP memory server (`@modelcontextprotocol/server-memory`, started with `node` on its installed path),
 * the two alternating run by run so that both see the same load; the figure is the ratio of their medians. Also
 * `pegas-memory --version` (spawn → exit), and the time from closing stdin to the process's exit after a tool call
 * (memory_stats) opened the embedded database.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, tempDir } from "../lib/env.ts";
import { McpProcess } from "../lib/mcp-proc.ts";
import { REFERENCE, referenceEntry } from "../lib/reference.ts";
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

/** spawn → `initialize` answered of the reference server (ms); its memory file lives in `dir`. */
async function referenceRun(entry: string, dir: string): Promise<number> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, MEMORY_FILE_PATH: join(dir, "memory.jsonl") };
  const p = new McpProcess("node", [entry], { cwd: dir, env });
  try {
    await p.initialize();
    const ms = performance.now() - p.spawnedAt;
    await p.closeStdin();
    return ms;
  } finally {
    p.kill();
  }
}

/** spawn → exit of `pegas-memory --version` (ms). @throws Error when it fails or prints no version. */
async function versionRun(bin: string, dir: string, env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([bin, "--version"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  const [text, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  const ms = performance.now() - t0;
  if (code !== 0 || !text.startsWith("pegas-memory ")) throw new Error(`--version failed (${code}): ${text}`);
  return ms;
}

/** The startup benchmark (see module doc). */
export const startup: Benchmark = {
  name: "startup",
  description:
    "spawn→initialize of the compiled executable beside the reference server, --version, stdin close→exit, its size",
  async run(): Promise<BenchOutcome> {
    const { dir, bin, env } = await isolatedBinary();
    const ref = referenceEntry();
    const refDir = tempDir("startup-ref");
    // One untimed run of each: ours creates the embedded database, so every timed run opens an existing one.
    await oneRun(bin, dir, env);
    await referenceRun(ref.path, refDir);
    await versionRun(bin, dir, env);
    const init: number[] = [];
    const exit: number[] = [];
    const refInit: number[] = [];
    const version: number[] = [];
    const codes = new Set<number | null>();
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first, so that neither always follows the other's exit.
      const ours = async () => {
        const r = await oneRun(bin, dir, env);
        init.push(r.initMs);
        exit.push(r.exitMs);
        codes.add(r.exitCode);
      };
      const theirs = async () => refInit.push(await referenceRun(ref.path, refDir));
      if (i % 2) await theirs().then(ours);
      else await ours().then(theirs);
      version.push(await versionRun(bin, dir, env));
    }
    const i = summarize(init);
    const r = summarize(refInit);
    const v = summarize(version);
    const e = summarize(exit);
    const ratio = round(i.median / r.median, 2);
    const bytes = statSync(bin).size;
    return {
      params: {
        runs: RUNS,
        warmup_runs: 1,
        order: "alternating (ours first on even runs, the reference first on odd runs)",
        tool_call_before_close: "memory_stats",
        data_dir: "embedded default (XDG_DATA_HOME inside the temp dir)",
        reference: `${REFERENCE}@${ref.version} (node ${Bun.spawnSync(["node", "--version"]).stdout.toString().trim()}, stdio)`,
      },
      results: {
        spawn_to_initialize_ms: { ...i, samples: init.map((x) => round(x)) },
        reference_spawn_to_initialize_ms: { ...r, samples: refInit.map((x) => round(x)) },
        initialize_ratio_to_reference: ratio,
        version_ms: { ...v, samples: version.map((x) => round(x)) },
        stdin_close_to_exit_ms: { ...e, samples: exit.map((x) => round(x)) },
        exit_codes: [...codes],
        executable_bytes: bytes,
      },
      summary: [
        { metric: "spawn→initialize, median", value: i.median, unit: "ms" },
        { metric: `spawn→initialize of ${REFERENCE} (node), median`, value: r.median, unit: "ms" },
        { metric: "spawn→initialize, ours / reference (medians)", value: ratio, target: "≤ 0.5" },
        { metric: "spawn→initialize, p95 / min", value: `${i.p95} / ${i.min}`, unit: "ms" },
        { metric: "--version, spawn→exit, median", value: v.median, unit: "ms", target: "≤ 30 ms" },
        { metric: "stdin close→exit (db open), median", value: e.median, unit: "ms", target: "≤ 1000 ms" },
        {
          metric: "executable size (every grammar and asset inside)",
          value: round(bytes / 1e6, 1),
          unit: "MB",
          target: "≤ 130 MB",
        },
      ],
    };
  },
};
