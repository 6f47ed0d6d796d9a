/**
 * docs/benchmarks.md is generated from bench/results/*.json and bench/notes.md (`npm run docs:bench`): the committed
 * page must be exactly what the script writes, so a new result without a regenerated page fails here.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { markdownSummary, type ResultFile, readResults, withPrevious } from "../../bench/lib/report.ts";
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

test("`npm run bench` prints each figure beside its previous value from the result file it replaces", () => {
  const machine = (commit: string) => ({ ...readResults()[0]!.machine, git_commit: commit });
  const prior: ResultFile = {
    benchmark: "startup",
    description: "",
    machine: machine("aaaaaaa0000"),
    duration_s: 1,
    params: {},
    results: {},
    summary: [
      { metric: "--version, median", value: 22.3, unit: "ms", target: "≤ 30 ms" },
      { metric: "dropped metric", value: 1 },
    ],
  };
  const next = withPrevious(
    {
      ...prior,
      machine: machine("bbbbbbb1111"),
      summary: [
        { metric: "--version, median", value: 20.1, unit: "ms", target: "≤ 30 ms" },
        { metric: "new metric", value: 5 },
      ],
    },
    prior,
  );
  expect(next.summary[0]!.previous).toEqual({ cell: "22.3 ms", git_commit: "aaaaaaa" });
  expect(next.summary[1]!.previous).toBeUndefined();
  const table = markdownSummary([next], { previous: true }).split("\n");
  expect(table[0]).toBe("| benchmark | metric | value | previous | target |");
  expect(table[2]).toBe("| startup | --version, median | 20.1 ms | 22.3 ms (aaaaaaa) | ≤ 30 ms |");
  expect(table[3]).toBe("| startup | new metric | 5 |  |  |");
  // The generated page keeps its four columns.
  expect(markdownSummary([next]).split("\n")[2]).toBe("| startup | --version, median | 20.1 ms | ≤ 30 ms |");
});
