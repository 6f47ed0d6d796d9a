/**
 * docs/benchmarks.md is generated from bench/results/*.json and bench/notes.md (`npm run docs:bench`): the committed
 * page must be exactly what the script writes, so a new result without a regenerated page fails here.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { readResults } from "../../bench/lib/report.ts";
import { BENCHMARKS_DOC, renderBenchmarksDoc } from "../../scripts/gen-benchmarks.ts";

test("docs/benchmarks.md is what `npm run docs:bench` generates from bench/results", () => {
  expect(readFileSync(BENCHMARKS_DOC, "utf8")).toBe(renderBenchmarksDoc());
});

test("the page holds every summary row of every result file, and the machine they ran on", () => {
  const page = renderBenchmarksDoc();
  const files = readResults().filter((f) => Array.isArray(f.summary));
  const metrics = files.flatMap((f) => f.summary.map((row) => `| ${f.benchmark} | ${row.metric} |`));
  expect(metrics.length).toBeGreaterThan(0);
  expect(metrics.filter((m) => !page.includes(m))).toEqual([]);
  // Results may come from several runs (another kernel, another commit): each one's machine is named.
  for (const { machine: m } of files)
    expect(page).toContain(`${m.cpu_model}, ${m.cores} cores, ${m.ram_gb} GB RAM, ${m.os}, Bun ${m.bun_version}`);
});
