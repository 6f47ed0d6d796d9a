/**
 * `bun bench/summary.ts`: prints the Markdown summary table of the committed results (bench/results/*.json), in
 * the order `npm run bench` runs them; docs/benchmarks.md embeds it (scripts/gen-benchmarks.ts).
 */
import { markdownSummary, readResults } from "./lib/report.ts";

/** Benchmark names in table order (the same as bench/run.ts, without importing the benchmarks). */
export const ORDER = [
  "startup",
  "first_query",
  "ingest",
  "search_latency",
  "scale",
  "idle_rss",
  "cli_search",
  "retrieval",
  "locomo",
  "distill",
  "dedup_store",
  "dedup_pairs",
  "quantities",
  "calibration",
];

if (import.meta.main) {
  // Other result files (e.g. dedup-calibration.json, written by bench/calibrate-dedup.ts) have no summary rows.
  const files = readResults(ORDER).filter((f) => Array.isArray(f.summary));
  if (files.length === 0) {
    process.stderr.write("no results in bench/results/: run `npm run bench` first\n");
    process.exit(1);
  }
  process.stdout.write(`${markdownSummary(files)}\n`);
}
