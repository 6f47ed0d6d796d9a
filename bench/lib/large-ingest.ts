/**
 * The linear-ingest part of the ingest benchmark: generated texts (bench/lib/large-texts.ts) and a directory of many
 * small files, each ingested ONCE by the compiled executable (`pegas-memory --data-dir <fresh> ingest <path> --json`)
 * in a child process, so that the peak RSS is the child's own (measured by GNU time `%M`) and includes
 * everything a user's process holds. Time is the `took_ms` the command reports (the ingest call; opening and creating
 * the database are not counted); MB/s are 10⁶ bytes per second. The data dir is created by an earlier `stats` call:
 * PGlite's initdb alone peaks near 1 GiB of RSS, which would hide the ingest's own peak.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, tempDir } from "./env.ts";
import { naturalText, oneLineText, repetitiveText, writeSmallFiles } from "./large-texts.ts";
import { round } from "./stats.ts";

/** One measured ingest by the executable. */
export interface LargeSample {
  input: string;
  bytes: number;
  files: number;
  took_ms: number;
  mb_per_s: number;
  peak_rss_mib: number;
  cpu_s: number;
  chunks: number;
  atoms_created: number;
  documents: number;
  errors: number;
  exit_code: number;
}

/** Runs `pegas-memory ingest <path> --json` on a fresh data dir; resolves to the measurement. @throws Error on no JSON. */
export async function ingestByExecutable(input: string, path: string, files = 1): Promise<LargeSample> {
  const { bin, env } = await isolatedBinary();
  const dataDir = tempDir("large");
  const init = Bun.spawn([bin, "--data-dir", dataDir, "stats"], { env, stdout: "ignore", stderr: "pipe" });
  if ((await init.exited) !== 0)
    throw new Error(`stats on a fresh data dir failed: ${await new Response(init.stderr).text()}`);
  // The peak RSS comes from GNU time: Linux carries a parent's RSS at fork over exec into the child's maxRSS, so
  // the child of a benchmark process holding 1.4 GiB reported 1.4 GiB whatever it did; `time` is small when it forks.
  const rssFile = join(tempDir("rss"), "maxrss");
  const cmd = [bin, "--data-dir", dataDir, "ingest", path, "--json"];
  const timed = existsSync(TIME) ? [TIME, "-f", "%M", "-o", rssFile, ...cmd] : cmd;
  const p = Bun.spawn(timed, { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  const peakKb = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) : Number.NaN;
  const usage = p.resourceUsage();
  let r: Record<string, number>;
  try {
    r = JSON.parse(stdout);
  } catch {
    throw new Error(`ingest of ${input} printed no JSON (exit ${code}): ${stderr.slice(-2000)}`);
  }
  const bytes = files === 1 ? statSync(path).size : Number(r.bytes ?? 0);
  return {
    input,
    bytes,
    files,
    took_ms: r.took_ms,
    mb_per_s: round(bytes / 1e6 / (r.took_ms / 1000)),
    peak_rss_mib: round(Number.isFinite(peakKb) ? peakKb / 1024 : (usage?.maxRSS ?? 0) / 1048576),
    cpu_s: round(Number(usage?.cpuTime.total ?? 0n) / 1e6),
    chunks: r.chunks,
    atoms_created: r.atoms_created,
    documents: r.documents_total,
    errors: (r.errors as unknown as unknown[] | undefined)?.length ?? 0,
    exit_code: code,
  };
}

/** GNU time, which measures the peak RSS of the command it runs (see {@link ingestByExecutable}). */
const TIME = "/usr/bin/time";

/** Size of the generated texts in MB (10⁶ bytes): PEGAS_BENCH_LARGE_MB, default 20. */
export const LARGE_MB = Number(process.env.PEGAS_BENCH_LARGE_MB ?? 20);
/** Small files of the directory case: PEGAS_BENCH_SMALL_FILES, default 10,000 (0 skips it; 50,000 is the set). */
export const SMALL_FILES = Number(process.env.PEGAS_BENCH_SMALL_FILES ?? 10_000);

/** Generates and ingests the natural, repetitive and one-line texts, then the directory of small files. */
export async function largeIngests(): Promise<LargeSample[]> {
  const dir = tempDir("texts");
  const bytes = Math.round(LARGE_MB * 1e6);
  const out: LargeSample[] = [];
  for (const [name, make] of [
    ["natural", naturalText],
    ["repetitive", repetitiveText],
    ["one-line", oneLineText],
  ] as const) {
    const path = join(dir, `${name}.txt`);
    writeFileSync(path, make(name === "one-line" ? Math.round(bytes / 2) : bytes));
    out.push(await ingestByExecutable(`${name} text`, path));
  }
  if (SMALL_FILES > 0) {
    const many = tempDir("many");
    const total = writeSmallFiles(many, SMALL_FILES);
    const s = await ingestByExecutable(`${SMALL_FILES} small files`, many, SMALL_FILES);
    s.bytes = total;
    s.mb_per_s = round(total / 1e6 / (s.took_ms / 1000));
    out.push(s);
  }
  return out;
}
