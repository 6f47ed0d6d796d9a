/**
 * http_load: `serve --http` as its own process (the compiled executable copied alone, as users run it; or the
 * command in PEGAS_BENCH_HTTP_CMD, e.g. "bun main.ts") under 16 concurrent MCP-over-HTTP clients (SDK
 * Streamable HTTP, one session each) for 60 s: memory_search with English and Russian queries and memory_store with
 * distinct claims (bench/lib/http-load.ts). Afterwards the server is stopped with SIGTERM (exit code 0 required) and
 * started again on the same store, and every stored atom is read back by id (as is every atom a store was answered
 * with as existing or merged) and a sample is searched for: lost writes are what did not survive a clean restart.
 * Two variants: the embedded default (PGlite) and PostgreSQL (a temporary database). Acceptance: zero errors (failed
 * calls during the load and failed reads afterwards) and zero lost writes. The database is created (migrate) before the server starts, and one call opens it before the
 * clock starts, so neither initdb nor migrations are in the numbers. The clients run on the same machine as the
 * server and take a share of its CPU. PEGAS_BENCH_HTTP_CLIENTS / _SECONDS shorten a run.
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { type LoadResult, runHttpLoad, verifyStored, warmUp } from "../lib/http-load.ts";
import {
  type HttpServerProc,
  type ServerCommand,
  procStatusBytes,
  restartHttpServer,
  startHttpServer,
} from "../lib/http-server-proc.ts";
import { isolatedBinary, ROOT, tempDir, tempPgDatabase } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { percentile, round } from "../lib/stats.ts";

const CLIENTS = Number(process.env.PEGAS_BENCH_HTTP_CLIENTS ?? 16);
const SECONDS = Number(process.env.PEGAS_BENCH_HTTP_SECONDS ?? 60);
const STORE_SHARE = 0.4;
const SEARCH_SAMPLE = 200;
const MIB = 2 ** 20;

async function serverCommand(): Promise<{ cmd: ServerCommand; label: string }> {
  const custom = process.env.PEGAS_BENCH_HTTP_CMD;
  if (!custom) {
    const { dir, bin, env } = await isolatedBinary();
    return { cmd: { argv: [bin], env, cwd: dir }, label: "dist/pegas-memory (compiled, copied alone)" };
  }
  const dir = tempDir("http-home");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
  };
  return {
    cmd: { argv: custom.split(" ").map((a) => (a.startsWith("src/") ? join(ROOT, a) : a)), env, cwd: ROOT },
    label: custom,
  };
}

function migrate(cmd: ServerCommand, dbArgs: string[]): void {
  const p = Bun.spawnSync([...cmd.argv, ...dbArgs, "migrate"], {
    cwd: cmd.cwd,
    env: cmd.env,
    stdout: "ignore",
    stderr: "pipe",
  });
  if (p.exitCode !== 0) throw new Error(`migrate failed (${p.exitCode}): ${p.stderr.toString().slice(-1000)}`);
}

function latency(xs: number[] | undefined) {
  const s = xs ?? [];
  return { n: s.length, p50_ms: round(percentile(s, 50)), p99_ms: round(percentile(s, 99)) };
}

async function variant(cmd: ServerCommand, dbArgs: string[], tag: string) {
  migrate(cmd, dbArgs);
  let srv: HttpServerProc = await startHttpServer(cmd, dbArgs);
  let maxRss = 0;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, procStatusBytes(srv.pid, "VmRSS"))), 200);
  try {
    await warmUp(srv.url);
    const rssWarm = procStatusBytes(srv.pid, "VmRSS");
    const loadBefore = loadavg()[0];
    const load: LoadResult = await runHttpLoad({
      url: srv.url,
      clients: CLIENTS,
      durationMs: SECONDS * 1000,
      storeShare: STORE_SHARE,
      runTag: tag,
      seed: 1,
    });
    clearInterval(sampler);
    const peakRss = srv.peakRssBytes();
    const loadAfter = loadavg()[0];
    // Durability: the read-back goes to a new process on the same store after a clean stop (throws unless exit 0).
    srv = await restartHttpServer(srv, cmd, dbArgs);
    const verify = await verifyStored(srv.url, load, { clients: CLIENTS, searchSample: SEARCH_SAMPLE });
    const calls = Object.values(load.latencyMs).reduce((a, xs) => a + xs.length, 0);
    return {
      calls_ok: calls,
      throughput_calls_per_s: round(calls / load.durationS),
      duration_s: round(load.durationS),
      memory_search: latency(load.latencyMs.memory_search),
      memory_store: latency(load.latencyMs.memory_store),
      call_errors: load.errors.length,
      read_back_errors: verify.readErrors.length,
      errors: load.errors.length + verify.readErrors.length,
      error_samples: load.errors.slice(0, 10),
      read_back_error_samples: verify.readErrors.slice(0, 10),
      stored: load.stored.length,
      merged_or_existing: load.merged.length,
      merged_or_existing_atoms_checked: verify.mergedChecked,
      read_back_after: "SIGTERM (exit code 0) and a new server process on the same store",
      lost_writes: verify.lost.length,
      lost_samples: verify.lost.slice(0, 10),
      search_sample: { searched: verify.searchSampled, found_in_top10: verify.searchFound },
      rss_after_warm_up_mib: round(rssWarm / MIB),
      peak_rss_during_load_mib: round(maxRss / MIB),
      peak_rss_process_mib: round(peakRss / MIB),
      load_avg_1m: {
        before: round(loadBefore, 2),
        after: round(loadAfter, 2),
        note: "the host's run queue: other work on it slows every number",
      },
      server_exit_code: await srv.stop(),
    };
  } catch (err) {
    await srv.stop(2000);
    throw new Error(`${(err as Error).message}\nserver stderr: ${srv.stderrTail().slice(-2000)}`);
  } finally {
    clearInterval(sampler);
  }
}

type Variant = Awaited<ReturnType<typeof variant>>;

function rows(name: string, v: Variant): SummaryRow[] {
  const pre = `HTTP ${CLIENTS} clients × ${SECONDS} s, ${name}:`;
  return [
    { metric: `${pre} throughput (search 60 %, store 40 %)`, value: v.throughput_calls_per_s, unit: "calls/s" },
    {
      metric: `${pre} memory_search p50 / p99`,
      value: `${v.memory_search.p50_ms} / ${v.memory_search.p99_ms}`,
      unit: "ms",
    },
    {
      metric: `${pre} memory_store p50 / p99`,
      value: `${v.memory_store.p50_ms} / ${v.memory_store.p99_ms}`,
      unit: "ms",
    },
    {
      metric: `${pre} errors (${v.call_errors} calls + ${v.read_back_errors} read-backs)`,
      value: v.errors,
      target: "0",
    },
    {
      metric: `${pre} lost writes after a clean restart (of ${v.stored} stored + ${v.merged_or_existing_atoms_checked} merged/existing)`,
      value: v.lost_writes,
      target: "0",
    },
    { metric: `${pre} server peak RSS`, value: v.peak_rss_process_mib, unit: "MiB" },
  ];
}

/** The first failed calls, read-backs and lost writes of a variant, as printed notes (none when all went well). */
function failureNotes(name: string, v: Variant): string[] {
  const notes: string[] = [];
  if (v.call_errors)
    notes.push(
      `${name}: ${v.call_errors} failed calls, e.g. ${v.error_samples
        .slice(0, 3)
        .map((e) => `${e.tool}: ${e.message}`)
        .join("; ")}`,
    );
  if (v.read_back_errors)
    notes.push(
      `${name}: ${v.read_back_errors} failed read-backs, e.g. ${v.read_back_error_samples.slice(0, 3).join("; ")}`,
    );
  if (v.lost_writes)
    notes.push(
      `${name}: ${v.lost_writes} lost writes, e.g. ${v.lost_samples
        .slice(0, 3)
        .map((l) => `${l.atomId}: ${l.why}`)
        .join("; ")}`,
    );
  return notes;
}

/** The HTTP load benchmark (see module doc). */
export const httpLoadBench: Benchmark = {
  name: "http_load",
  description: `${CLIENTS} concurrent MCP-over-HTTP clients for ${SECONDS} s (search + store) on PGlite and PostgreSQL: throughput, latency, errors, lost writes, server RSS`,
  async run(): Promise<BenchOutcome> {
    const { cmd, label } = await serverCommand();
    const results: Record<string, unknown> = {};
    const summary: SummaryRow[] = [];
    const notes: string[] = [];
    const pglite = await variant(cmd, ["--data-dir", tempDir("http-load")], "pglite");
    results.pglite = pglite;
    summary.push(...rows("PGlite", pglite));
    notes.push(...failureNotes("PGlite", pglite));
    const pg = await tempPgDatabase("pegas_bench_http");
    if (typeof pg === "string") notes.push(`PostgreSQL variant skipped: ${pg}`);
    else {
      try {
        results.postgres = await variant(cmd, ["--database-url", pg.url], "postgres");
        summary.push(...rows("PostgreSQL", results.postgres as Variant));
        notes.push(...failureNotes("PostgreSQL", results.postgres as Variant));
      } finally {
        await pg.drop();
      }
    }
    return {
      params: {
        clients: CLIENTS,
        seconds: SECONDS,
        store_share: STORE_SHARE,
        search_k: 5,
        search_sample_after: SEARCH_SAMPLE,
        read_back: "after SIGTERM (exit 0) and a restart on the same store",
        server: label,
        claims: "distinct sentences of the Botchan and Chekhov fixture texts, each tagged [run-n]",
        queries: "4 consecutive words of a fixture sentence, English and Russian alternating",
      },
      results,
      summary,
      notes,
    };
  },
};
