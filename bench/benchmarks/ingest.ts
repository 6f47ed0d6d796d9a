/**
 * ingest: throughput of `ingest(services, {path}, {trustedPath: true})` in process, for both fixture texts, on a
 * fresh embedded PGlite data dir per run and, when a server answers, on a fresh PostgreSQL database per run.
 * Only the ingest call is timed (opening the database and initdb are not). Then linear ingest
 * (bench/lib/large-ingest.ts): 20 MB of natural and of repetitive text, a 10 MB single line and a directory of
 * 10,000 small files (PEGAS_BENCH_SMALL_FILES), each once by the executable in a child process, with MB/s and the child's peak RSS.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import { ingest } from "../../src/core/documents/ingest.ts";
import { type BenchServices, pgliteServices, postgresServices, PG_URL, TEXTS } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { LARGE_MB, largeIngests, SMALL_FILES } from "../lib/large-ingest.ts";
import { median, round } from "../lib/stats.ts";

const RUNS = 3;

interface Sample {
  ms: number;
  bytes: number;
  chunks: number;
  atoms: number;
}

async function runs(open: () => Promise<BenchServices | string>, path: string): Promise<Sample[] | string> {
  const out: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = await open();
    if (typeof s === "string") return s;
    try {
      const t0 = performance.now();
      const r = await ingest(s.services, { path }, { trustedPath: true });
      out.push({ ms: performance.now() - t0, bytes: statSync(path).size, chunks: r.chunks, atoms: r.atoms_created });
    } finally {
      await s.dispose();
    }
  }
  return out;
}

function digest(samples: Sample[]) {
  const ms = median(samples.map((s) => s.ms));
  const { bytes, chunks, atoms } = samples[0];
  return {
    median_ms: round(ms),
    kb_per_s: round(bytes / 1024 / (ms / 1000)),
    atoms_per_s: round(atoms / (ms / 1000)),
    bytes,
    chunks,
    atoms,
    samples_ms: samples.map((s) => round(s.ms)),
  };
}

/** The ingest benchmark (see module doc). */
export const ingestBench: Benchmark = {
  name: "ingest",
  description:
    "ingest throughput (KB/s, atoms/s) of the two fixture texts, embedded PGlite and PostgreSQL; MB/s and peak RSS on 20 MB texts and 10,000 files",
  async run(): Promise<BenchOutcome> {
    const backends: Array<[string, () => Promise<BenchServices | string>]> = [
      ["pglite", () => pgliteServices()],
      ["postgres", () => postgresServices()],
    ];
    const results: Record<string, Record<string, unknown>> = {};
    const summary: SummaryRow[] = [];
    const notes: string[] = [];
    for (const [backend, open] of backends) {
      results[backend] = {};
      for (const path of [TEXTS.chekhov, TEXTS.botchan]) {
        const samples = await runs(open, path);
        const name = basename(path);
        if (typeof samples === "string") {
          results[backend][name] = { skipped: samples };
          notes.push(`${backend} skipped: ${samples}`);
          break;
        }
        const d = digest(samples);
        results[backend][name] = d;
        summary.push({
          metric: `${name}, ${backend}`,
          value: `${d.kb_per_s} KB/s, ${d.atoms_per_s} atoms/s (${d.atoms} atoms in ${d.median_ms} ms)`,
        });
      }
    }
    const large = await largeIngests();
    results.large = Object.fromEntries(large.map((l) => [l.input, l]));
    for (const l of large) {
      summary.push({
        metric: `${l.input} (${round(l.bytes / 1e6)} MB), executable`,
        value: `${l.files > 1 ? `${round(l.files / (l.took_ms / 1000))} files/s` : `${l.mb_per_s} MB/s`}, peak RSS ${l.peak_rss_mib} MiB (${round(l.took_ms / 1000)} s, ${l.documents} doc(s), ${l.atoms_created} atoms)`,
        target: l.files > 1 ? "one call" : "≥ 1 MB/s, ≤ 600 MiB",
      });
    }
    return {
      params: {
        large_mb: LARGE_MB,
        small_files: SMALL_FILES,
        large_timed:
          "took_ms of `pegas-memory ingest <path> --json`, one run each; peak RSS = the child's maximum resident set size by GNU time (%M)",
        runs: RUNS,
        statistic: "median of runs",
        embedder: "local default",
        postgres_url: PG_URL,
        timed: "the ingest call only (fresh database each run)",
      },
      results,
      summary,
      notes,
    };
  },
};
