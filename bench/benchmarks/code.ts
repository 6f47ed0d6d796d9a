/**
 * code: tree-sitter extraction throughput (files/s, MB/s of source, one thread) over Python's standard library folder
 * (without site-packages) and over a large node_modules package (zod: its .js, .cjs, .ts and .d.ts), with the process's peak RSS; and
 * the whole `storeCode` of the standard library on PostgreSQL (PGlite when no server answers): walk, extract, store
 * symbols, dependencies and code atoms, resolve; then the unchanged second run. Published reference: tree-sitter in
 * WebAssembly runs at ≈ 65% of native speed, ≈ 9.7 MB/s per core.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { storeCode } from "../../src/core/code-ingest.ts";
import { codeServices } from "../../src/core/code-services.ts";
import { setLogLevel } from "../../src/log.ts";
import { ROOT, pgliteServices, postgresServices } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";

const MAX_BYTES = 1 << 20;

function stdlibDir(): string {
  return execFileSync("python3", ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: "utf8" }).trim();
}

/** Source files under `dir` that the extractor has a grammar for, ≤ 1 MiB, skipping `skip` directory names. */
function sources(dir: string, skip: Set<string>): string[] {
  const out: string[] = [];
  const extractor = treeSitterExtractor();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(p);
      } else if (e.isFile() && extractor.languageOf(p) && statSync(p).size <= MAX_BYTES) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Extracts every file once (after one warm-up file per language); files/s, MB/s, peak RSS sampled per 50 files. */
async function extractAll(root: string, files: string[]) {
  const extractor = treeSitterExtractor();
  let bytes = 0;
  let symbols = 0;
  let peak = process.memoryUsage().rss;
  const texts = files.map((f) => readFileSync(f, "utf8"));
  await extractor.extract(relative(root, files[0]), texts[0], extractor.languageOf(files[0])!);
  const t0 = performance.now();
  for (let i = 0; i < files.length; i++) {
    const r = await extractor.extract(relative(root, files[i]), texts[i], extractor.languageOf(files[i])!);
    bytes += Buffer.byteLength(texts[i]);
    symbols += r.symbols.length;
    if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  const s = (performance.now() - t0) / 1000;
  return { files: files.length, mb: round(bytes / 1e6, 2), symbols, seconds: round(s, 2), files_per_s: round(files.length / s), mb_per_s: round(bytes / 1e6 / s, 2), peak_rss_mb: round(peak / 2 ** 20) };
}

async function wholeStore(dir: string) {
  const pg = await postgresServices();
  const { services, dispose } = typeof pg === "string" ? await pgliteServices() : pg;
  try {
    const s = codeServices(services);
    let t0 = performance.now();
    const first = await storeCode(s, { path: dir, repo: "python-stdlib" }, { trustedPath: true });
    const firstS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const second = await storeCode(s, { path: dir, repo: "python-stdlib" }, { trustedPath: true });
    const secondS = (performance.now() - t0) / 1000;
    return { backend: typeof pg === "string" ? "pglite" : "postgres", first_s: round(firstS), files: first.files, symbols: first.symbols, second_s: round(secondS, 2), second_parsed: second.files.parsed };
  } finally {
    await dispose();
  }
}

/** The code benchmark (see module doc). */
export const codeBench: Benchmark = {
  name: "code",
  description: "tree-sitter extraction MB/s over Python's stdlib and node_modules/zod; storeCode of the stdlib",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const stdlib = stdlibDir();
    const py = await extractAll(stdlib, sources(stdlib, new Set(["site-packages", "__pycache__"])));
    const tsRoot = join(ROOT, "node_modules/zod");
    const ts = await extractAll(tsRoot, sources(tsRoot, new Set()));
    const store = await wholeStore(stdlib);
    const summary: SummaryRow[] = [
      { metric: "extraction, Python stdlib (one thread)", value: `${py.mb_per_s} MB/s, ${py.files_per_s} files/s (${py.files} files, ${py.mb} MB)`, target: "≥ 5 MB/s; published WASM ≈ 9.7 MB/s/core" },
      { metric: "extraction, node_modules/zod (one thread)", value: `${ts.mb_per_s} MB/s, ${ts.files_per_s} files/s (${ts.files} files, ${ts.mb} MB)` },
      { metric: "peak RSS during extraction (stdlib / zod)", value: `${py.peak_rss_mb} / ${ts.peak_rss_mb}`, unit: "MiB" },
      { metric: `storeCode of the stdlib (${store.backend}): first run / unchanged rerun`, value: `${store.first_s} s / ${store.second_s} s (${store.second_parsed} parsed)` },
    ];
    return { params: { stdlib, max_file_bytes: MAX_BYTES, node_modules_package: tsRoot }, results: { python_stdlib: py, zod: ts, store }, summary };
  },
};
