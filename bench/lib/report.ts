/**
 * Benchmark results: the shape every benchmark returns, the JSON file written per benchmark under bench/results/
 * (with machine info and parameters), and the Markdown summary table printed by `npm run bench` and
 * `bun bench/summary.ts`. Targets are shown beside the numbers as text; nothing here decides pass or fail.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";
import { ROOT } from "./env.ts";

/** Directory of the committed result files. */
export const RESULTS_DIR = join(ROOT, "bench", "results");

/** One line of the summary table: a measured value and, when the issue sets one, the acceptance target (text). */
export interface SummaryRow {
  metric: string;
  value: number | string | null;
  unit?: string;
  target?: string;
  /**
   * The same metric's value in the result file this run replaced (as its table cell, e.g. "18.6 / 27.1 ms"), with
   * that run's commit; absent when there was none or the metric is new.
   */
  previous?: { cell: string; git_commit: string };
}

/** What a benchmark returns. */
export interface BenchOutcome {
  /** Parameters used (sizes, runs, code defaults), recorded so the numbers can be reproduced. */
  params: Record<string, unknown>;
  /** Every measurement, raw samples included where they are small. */
  results: Record<string, unknown>;
  summary: SummaryRow[];
  notes?: string[];
}

/** A benchmark: a name (the CLI selector and the result file name), a one-line description and the run. */
export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<BenchOutcome>;
}

/** Machine and build facts stored with every result. */
export interface MachineInfo {
  cpu_model: string;
  cores: number;
  ram_gb: number;
  os: string;
  bun_version: string;
  date: string;
  git_commit: string;
  git_dirty: boolean;
}

/** A result file's content. */
export interface ResultFile extends BenchOutcome {
  benchmark: string;
  description: string;
  machine: MachineInfo;
  duration_s: number;
}

function git(args: string[]): string {
  const p = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return p.success ? p.stdout.toString().trim() : "";
}

/** Reads the machine facts (CPU model, cores, RAM, OS, Bun version, date, git commit and whether the tree is dirty). */
export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpu_model: cpu[0]?.model?.trim() ?? "unknown",
    cores: cpu.length,
    ram_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${process.platform} ${release()}`,
    bun_version: Bun.version,
    date: new Date().toISOString(),
    git_commit: git(["rev-parse", "HEAD"]) || "unknown",
    // Result files rewritten by this very run do not make the measured code dirty.
    git_dirty: git(["status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/results"]) !== "",
  };
}

/** Writes bench/results/<name>.json (pretty-printed); returns its path. */
export function writeResult(file: ResultFile): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${file.benchmark}.json`);
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  return path;
}

/** Reads every result file of bench/results/, in the order of `order` (others after, by name). */
export function readResults(order: string[] = []): ResultFile[] {
  if (!existsSync(RESULTS_DIR)) return [];
  const files = readdirSync(RESULTS_DIR).filter((f) => f.endsWith(".json"));
  const rank = (f: string) => {
    const i = order.indexOf(f.replace(/\.json$/, ""));
    return i < 0 ? order.length : i;
  };
  files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return files.map((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), "utf8")) as ResultFile);
}

/**
 * Copies into each summary row of `next` the cell of the row with the same metric in `prior` (the result file the
 * run is about to replace), so the printed table shows a figure beside its previous value. Returns `next`.
 */
export function withPrevious(next: ResultFile, prior: ResultFile | null): ResultFile {
  if (!prior || !Array.isArray(prior.summary)) return next;
  const before = new Map(prior.summary.map((r) => [r.metric, r]));
  for (const row of next.summary) {
    const old = before.get(row.metric);
    if (old) row.previous = { cell: cell(old), git_commit: prior.machine.git_commit.slice(0, 7) };
  }
  return next;
}

/** The result file bench/results/<name>.json as committed or last written, or null when there is none. */
export function readResult(name: string): ResultFile | null {
  const path = join(RESULTS_DIR, `${name}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as ResultFile) : null;
}

function cell(row: SummaryRow): string {
  if (row.value === null) return "n/a";
  const v = typeof row.value === "number" ? String(row.value) : row.value;
  return row.unit ? `${v} ${row.unit}` : v;
}

/** The Markdown summary: one table row per summary row of every result, then the machines the numbers come from. */
export function markdownSummary(files: ResultFile[], opts: { previous?: boolean } = {}): string {
  const lines = opts.previous
    ? ["| benchmark | metric | value | previous | target |", "|---|---|---|---|---|"]
    : ["| benchmark | metric | value | target |", "|---|---|---|---|"];
  for (const f of files) {
    for (const row of f.summary) {
      const prev = opts.previous ? ` ${row.previous ? `${row.previous.cell} (${row.previous.git_commit})` : ""} |` : "";
      lines.push(`| ${f.benchmark} | ${row.metric} | ${cell(row)} |${prev} ${row.target ?? ""} |`);
    }
  }
  const machines = new Set(
    files.map((f) => {
      const m = f.machine;
      return `${m.cpu_model}, ${m.cores} cores, ${m.ram_gb} GB RAM, ${m.os}, Bun ${m.bun_version}, commit ${m.git_commit.slice(0, 7)}${m.git_dirty ? " (dirty)" : ""}`;
    }),
  );
  const dates = files.map((f) => f.machine.date.slice(0, 10)).sort();
  lines.push("");
  if (files.length)
    lines.push(
      `Measured ${dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} … ${dates.at(-1)}`} on ${[...machines].join("; ")}.`,
    );
  for (const f of files) for (const n of f.notes ?? []) lines.push(`- ${f.benchmark}: ${n}`);
  return lines.join("\n");
}
