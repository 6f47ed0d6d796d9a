/**
 * code: tree-sitter extraction throughput (files/s, MB/s of source) over Python's standard library folder (without
 * site-packages) and over a large node_modules package (zod: its .js, .cjs, .ts and .d.ts): on one thread in-process
 * and on the worker pool memory_store_code uses, beside the ceiling measured in the same run (the bare WebAssembly
 * parse on one thread, no queries, no JavaScript); the whole `storeCode` of the standard library on PostgreSQL
 * (PGlite when no server answers) and its unchanged rerun; and the memory of a 10,000-file walk (main-thread heap
 * after 2,000 and after 10,000 files, peak RSS). Published reference: tree-sitter in WebAssembly runs at ≈ 65% of
 * native speed, ≈ 9.7 MB/s per core.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { compileLanguage } from "../../src/adapters/tree-sitter/compiled.ts";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { LANGUAGE_SPECS } from "../../src/adapters/tree-sitter/languages/index.ts";
import { defaultWorkerCount, ExtractorPool } from "../../src/adapters/tree-sitter/pool.ts";
import { storeCode } from "../../src/core/code/ingest.ts";
import { setLogLevel } from "../../src/log.ts";
import type { SymbolExtractor } from "../../src/ports/models/symbol-extractor.ts";
import { ROOT, pgliteServices, postgresServices, tempDir } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";

const MAX_BYTES = 1 << 20;
const WALK_FILES = 10_000;

function stdlibDir(): string {
  return execFileSync("python3", ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], {
    encoding: "utf8",
  }).trim();
}

interface Corpus {
  root: string;
  files: string[];
  texts: string[];
  bytes: number;
}

/** Source files under `dir` that the extractor has a grammar for, ≤ 1 MiB, skipping `skip` directory names. */
function corpus(root: string, skip: Set<string>): Corpus {
  const files: string[] = [];
  const extractor = treeSitterExtractor();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(p);
      } else if (e.isFile() && extractor.languageOf(p) && statSync(p).size <= MAX_BYTES) files.push(p);
    }
  };
  walk(root);
  files.sort();
  const texts = files.map((f) => readFileSync(f, "utf8"));
  return { root, files, texts, bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0) };
}

function rates<T extends Record<string, number>>(c: Corpus, seconds: number, extra: T = {} as T) {
  return {
    files: c.files.length,
    mb: round(c.bytes / 1e6, 2),
    seconds: round(seconds, 2),
    files_per_s: round(c.files.length / seconds),
    mb_per_s: round(c.bytes / 1e6 / seconds, 2),
    ...extra,
  };
}

/** The ceiling: tree-sitter's WebAssembly parse alone on this thread (each language compiled before the clock). */
async function parseOnly(c: Corpus) {
  const extractor = treeSitterExtractor();
  const langs = await Promise.all(c.files.map((f) => compileLanguage(LANGUAGE_SPECS[extractor.languageOf(f)!]!)));
  const t0 = performance.now();
  for (let i = 0; i < c.files.length; i++) langs[i].parser.parse(c.texts[i])?.delete();
  return rates(c, (performance.now() - t0) / 1000);
}

/**
 * Extracts every file with `extractor`, `parallel` at a time (after one warm-up file per parallel slot when
 * `warmUp`); the process's peak RSS (workers included) sampled every 50 files.
 */
async function extractAll(c: Corpus, extractor: SymbolExtractor, parallel: number, warmUp: boolean) {
  const lang = (i: number) => extractor.languageOf(c.files[i])!;
  if (warmUp)
    await Promise.all(
      Array.from({ length: parallel }, () => extractor.extract(relative(c.root, c.files[0]), c.texts[0], lang(0))),
    );
  let symbols = 0;
  let peak = process.memoryUsage().rss;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < c.files.length; i = next++) {
        const r = await extractor.extract(relative(c.root, c.files[i]), c.texts[i], lang(i));
        symbols += r.symbols.length; // after the await: `symbols += await …` would add to a stale read
        if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
    }),
  );
  return rates(c, (performance.now() - t0) / 1000, { symbols, peak_rss_mb: round(peak / 2 ** 20) });
}

/**
 * One corpus: on one thread in-process (first pass, then a second pass with the JIT warm), the bare parse on one
 * warm thread (the ceiling), then on a fresh pool of `workers` threads with two files in flight per worker: its
 * first pass (threads start cold: each compiles the grammars' WebAssembly on its own) and its third (warm).
 */
async function extraction(c: Corpus, workers: number) {
  const inProcess = treeSitterExtractor();
  const oneCold = await extractAll(c, inProcess, 1, true);
  const oneWarm = await extractAll(c, inProcess, 1, false);
  const ceiling = await parseOnly(c);
  const pool = new ExtractorPool(workers);
  try {
    const poolCold = await extractAll(c, pool, 2 * workers, false);
    await extractAll(c, pool, 2 * workers, false);
    const poolWarm = await extractAll(c, pool, 2 * workers, false);
    return {
      one_thread: { first_pass: oneCold, warm: oneWarm },
      parse_only_one_thread: ceiling,
      pool: { workers, first_pass: poolCold, warm: poolWarm },
    };
  } finally {
    await pool.close();
  }
}

async function services() {
  const pg = await postgresServices();
  return typeof pg === "string" ? { backend: "pglite", ...(await pgliteServices()) } : { backend: "postgres", ...pg };
}

/** storeCode of `dir` twice (first run, unchanged rerun) on a fresh store; MB/s over the source bytes. */
async function wholeStore(dir: string, sourceBytes: number) {
  const { backend, services: s0, dispose } = await services();
  try {
    const s = s0;
    let t0 = performance.now();
    const first = await storeCode(s, { path: dir, repo: "python-stdlib" }, { trustedPath: true });
    const firstS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const second = await storeCode(s, { path: dir, repo: "python-stdlib" }, { trustedPath: true });
    const secondS = (performance.now() - t0) / 1000;
    return {
      backend,
      workers: s0.config.code_workers,
      first_s: round(firstS),
      mb_per_s: round(sourceBytes / 1e6 / firstS, 2),
      files: first.files,
      symbols: first.symbols,
      dependencies: first.dependencies.stored,
      second_s: round(secondS, 2),
      second_parsed: second.files.parsed,
    };
  } finally {
    await dispose();
  }
}

/** Writes `n` small Python modules (documented functions and a class each, imports and calls between them). */
function writeModules(dir: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const pkg = join(dir, `pkg${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(pkg, { recursive: true });
    const j = (i + 1) % 100;
    writeFileSync(
      join(pkg, `mod${i % 100}.py`),
      [
        `"""Module ${i}."""`,
        `from .mod${j} import helper_${j}`,
        "",
        `def helper_${i % 100}(value):`,
        `    """Return value plus ${i}."""`,
        `    return helper_${j}(value) + ${i}`,
        "",
        `class Thing${i}:`,
        `    """A thing numbered ${i}."""`,
        "",
        "    def run(self, x):",
        '        """Run the thing."""',
        "        return self.step(x)",
        "",
        "    def step(self, x):",
        "        return x * 2",
        "",
      ].join("\n"),
    );
  }
}

/**
 * Memory over a {@link WALK_FILES}-file walk: the main thread's heap (after a full GC) sampled every 1,000 files
 * through the progress notifications, and the peak RSS of the process (extraction workers included).
 */
async function flatMemory() {
  const dir = tempDir("code-10k");
  writeModules(dir, WALK_FILES);
  const { backend, services: s0, dispose } = await services();
  try {
    const heap: Array<[number, number]> = [];
    let next = 0;
    let peak = 0;
    Bun.gc(true);
    const t0 = performance.now();
    const r = await storeCode(
      s0,
      { path: dir },
      {
        trustedPath: true,
        onProgress: (seen) => {
          peak = Math.max(peak, process.memoryUsage().rss);
          if (seen < next) return;
          next = seen + 1000;
          Bun.gc(true);
          heap.push([seen, process.memoryUsage().heapUsed]);
        },
      },
    );
    Bun.gc(true);
    heap.push([r.files.seen, process.memoryUsage().heapUsed]); // after the last file (progress is throttled)
    const mib = (b: number) => round(b / 2 ** 20);
    const at2k = heap.find(([n]) => n >= 2000)?.[1] ?? Number.NaN;
    const last = heap.at(-1)?.[1] ?? Number.NaN;
    return {
      backend,
      files: r.files.parsed,
      seconds: round((performance.now() - t0) / 1000),
      heap_mb_by_files: Object.fromEntries(heap.map(([n, b]) => [n, mib(b)])),
      heap_2k_mb: mib(at2k),
      heap_last_mb: mib(last),
      growth_mb: mib(last - at2k),
      peak_rss_mb: mib(peak),
    };
  } finally {
    await dispose();
  }
}

/** The code benchmark (see module doc). */
export const codeBench: Benchmark = {
  name: "code",
  description:
    "tree-sitter extraction MB/s (one thread, worker pool, parse-only ceiling) over Python's stdlib and node_modules/zod; storeCode of the stdlib; memory of a 10,000-file walk",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const workers = defaultWorkerCount();
    const stdlib = stdlibDir();
    const pyCorpus = corpus(stdlib, new Set(["site-packages", "__pycache__"]));
    const py = await extraction(pyCorpus, workers);
    const tsRoot = join(ROOT, "node_modules/zod");
    const ts = await extraction(corpus(tsRoot, new Set()), workers);
    const store = await wholeStore(stdlib, pyCorpus.bytes);
    const walk = await flatMemory();
    const summary: SummaryRow[] = [];
    for (const [name, r] of [
      ["Python stdlib", py],
      ["node_modules/zod", ts],
    ] as const) {
      summary.push(
        {
          metric: `extraction, ${name}: ${workers} worker threads, warm / first pass`,
          value: `${r.pool.warm.mb_per_s} / ${r.pool.first_pass.mb_per_s} MB/s (${r.pool.warm.files_per_s} / ${r.pool.first_pass.files_per_s} files/s; ${r.pool.warm.files} files, ${r.pool.warm.mb} MB)`,
          target: name === "Python stdlib" ? "≥ 5 MB/s; published WASM ≈ 9.7 MB/s/core" : undefined,
        },
        {
          metric: `extraction, ${name}: one thread, warm / first pass; bare parse on one warm thread (ceiling)`,
          value: `${r.one_thread.warm.mb_per_s} / ${r.one_thread.first_pass.mb_per_s} MB/s; ${r.parse_only_one_thread.mb_per_s} MB/s`,
        },
      );
    }
    summary.push(
      {
        metric: "peak RSS during extraction, stdlib: one thread / worker pool",
        value: `${py.one_thread.first_pass.peak_rss_mb} / ${py.pool.first_pass.peak_rss_mb}`,
        unit: "MiB",
      },
      {
        metric: `storeCode of the stdlib (${store.backend}, ${store.workers} workers): first run / unchanged rerun`,
        value: `${store.first_s} s (${store.mb_per_s} MB/s) / ${store.second_s} s (${store.second_parsed} parsed)`,
      },
      {
        metric: `${WALK_FILES}-file walk (${walk.backend}): main heap after 2,000 / after all files; peak RSS`,
        value: `${walk.heap_2k_mb} / ${walk.heap_last_mb} MiB (growth ${walk.growth_mb} MiB); ${walk.peak_rss_mb} MiB`,
        target: "flat: growth < 64 MiB",
      },
    );
    return {
      params: { stdlib, max_file_bytes: MAX_BYTES, node_modules_package: tsRoot, workers, walk_files: WALK_FILES },
      results: { python_stdlib: py, zod: ts, store, flat_memory: walk },
      summary,
    };
  },
};
