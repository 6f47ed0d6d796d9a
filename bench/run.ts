/**
 * `npm run bench [-- name…]`: runs every benchmark (or the ones named), writes bench/results/<name>.json for each
 * (machine info, parameters, measurements) and prints the Markdown summary table: each figure beside its previous
 * value (from the result file it replaced, with that run's commit) and its acceptance target. Benchmarks measure
 * only. Temporary data dirs are removed at the end.
 */
import { setLogLevel } from "../src/log.ts";
import { agentReadsBench } from "./benchmarks/agent-reads.ts";
import { distillBench } from "./benchmarks/distill.ts";
import { dedupPairsBench } from "./benchmarks/dedup-pairs.ts";
import { datesBench } from "./benchmarks/dates.ts";
import { dedupStoreBench } from "./benchmarks/dedup-store.ts";
import { entitiesBench } from "./benchmarks/entities.ts";
import { supersessionBench } from "./benchmarks/supersession.ts";
import { documentsBench } from "./benchmarks/documents.ts";
import { firstQueryBench } from "./benchmarks/first-query.ts";
import { fuzzBench } from "./benchmarks/fuzz.ts";
import { idleRss } from "./benchmarks/idle-rss.ts";
import { inferenceBench } from "./benchmarks/inference.ts";
import { ingestBench } from "./benchmarks/ingest.ts";
import { retrieval } from "./benchmarks/retrieval.ts";
import { locomoBench } from "./benchmarks/locomo.ts";
import { cliSearchBench } from "./benchmarks/cli-search.ts";
import { codeBench } from "./benchmarks/code.ts";
import { projectionsBench } from "./benchmarks/projections.ts";
import { quantitiesBench } from "./benchmarks/quantities.ts";
import { calibrationBench } from "./benchmarks/calibration.ts";
import { searchLatency } from "./benchmarks/search-latency.ts";
import { scaleBench } from "./benchmarks/scale.ts";
import { startup } from "./benchmarks/startup.ts";
import { httpLoadBench } from "./benchmarks/http-load.ts";
import { uiBench } from "./benchmarks/ui.ts";
import { whoIsBench } from "./benchmarks/who-is.ts";
import { removeTempDirs } from "./lib/env.ts";
import {
  type Benchmark,
  machineInfo,
  markdownSummary,
  type ResultFile,
  readResult,
  withPrevious,
  writeResult,
} from "./lib/report.ts";

/** Every benchmark, in run (and table) order. */
export const BENCHMARKS: Benchmark[] = [
  startup,
  firstQueryBench,
  ingestBench,
  documentsBench,
  searchLatency,
  scaleBench,
  idleRss,
  cliSearchBench,
  retrieval,
  locomoBench,
  distillBench,
  dedupStoreBench,
  dedupPairsBench,
  entitiesBench,
  quantitiesBench,
  calibrationBench,
  supersessionBench,
  datesBench,
  projectionsBench,
  codeBench,
  inferenceBench,
  httpLoadBench,
  uiBench,
  agentReadsBench,
  whoIsBench,
  fuzzBench,
];

function select(names: string[]): Benchmark[] {
  if (names.length === 0) return BENCHMARKS;
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length) {
    throw new Error(
      `unknown benchmark(s) ${unknown.join(", ")}; choose from ${BENCHMARKS.map((b) => b.name).join(", ")}`,
    );
  }
  return BENCHMARKS.filter((b) => names.includes(b.name));
}

async function main(argv: string[]): Promise<number> {
  setLogLevel("warn");
  const chosen = select(argv.filter((a) => !a.startsWith("-")));
  const started = performance.now();
  const done: ResultFile[] = [];
  let failed = 0;
  const cleanup = () => removeTempDirs();
  process.on("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  for (const b of chosen) {
    process.stderr.write(`bench: ${b.name} — ${b.description}\n`);
    const t0 = performance.now();
    try {
      const outcome = await b.run();
      const file: ResultFile = withPrevious(
        {
          benchmark: b.name,
          description: b.description,
          machine: machineInfo(),
          duration_s: Math.round((performance.now() - t0) / 100) / 10,
          ...outcome,
        },
        readResult(b.name),
      );
      const path = writeResult(file);
      done.push(file);
      process.stderr.write(`bench: ${b.name} done in ${file.duration_s} s → ${path}\n`);
    } catch (err) {
      failed++;
      process.stderr.write(`bench: ${b.name} FAILED: ${(err as Error).stack ?? err}\n`);
    } finally {
      cleanup();
    }
  }
  process.stdout.write(`${markdownSummary(done, { previous: true })}\n`);
  process.stderr.write(
    `bench: ${done.length} benchmark(s) written, ${failed} failed, total ${Math.round((performance.now() - started) / 1000)} s\n`,
  );
  return failed ? 1 : 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
