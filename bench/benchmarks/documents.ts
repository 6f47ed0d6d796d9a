/**
 * documents: parsing throughput of every fixture document (PDF pages/s, EPUB and HTML MB/s, text MB/s), median
 * of 5 warm parses each, the peak RSS of parsing each format in a fresh child process, and the whole ingest
 * (parse + embed + store on embedded PGlite) per fixture.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { selectParser } from "../../src/adapters/parsers/select.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";
import { ROOT, SHARED, pgliteServices } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { median, round } from "../lib/stats.ts";

/** Limits as the server's defaults. */
export const PARSE_LIMITS: ParseLimits = {
  maxBytes: 50 << 20,
  maxZipEntries: 10_000,
  maxZipTotalBytes: 512 << 20,
  maxZipEntryBytes: 128 << 20,
};
const RUNS = 5;
const FORMATS = ["pdf", "epub", "html", "text"] as const;

interface FileResult {
  file: string;
  bytes: number;
  sections: number;
  parse_ms: number;
  pages_per_s?: number;
  mb_per_s: number;
  ingest_ms: number;
  atoms: number;
}

async function parseMs(bytes: Uint8Array, name: string): Promise<{ ms: number; sections: number }> {
  const parser = selectParser({ bytes, name });
  let sections = 0;
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const t0 = performance.now();
    const doc = await parser.parse({ bytes, uri: `file:///${name}` }, PARSE_LIMITS);
    if (i > 0) times.push(performance.now() - t0); // the first parse warms up
    sections = doc.sections.length;
  }
  return { ms: median(times), sections };
}

async function peakRss(format: string): Promise<number> {
  const p = Bun.spawn([process.execPath, join(ROOT, "bench/benchmarks/documents-probe.ts"), format], {
    stdout: "pipe",
    stderr: "ignore",
  });
  const out = await new Response(p.stdout).text();
  await p.exited;
  return JSON.parse(out.trim().split("\n").pop() ?? "{}").max_rss_mib ?? null;
}

/** The documents benchmark (see module doc). */
export const documentsBench: Benchmark = {
  name: "documents",
  description: "parse throughput (PDF pages/s, EPUB/HTML MB/s), peak RSS per format, whole ingest per fixture",
  async run(): Promise<BenchOutcome> {
    const files: FileResult[] = [];
    const s = await pgliteServices();
    try {
      for (const format of FORMATS) {
        for (const name of readdirSync(join(SHARED, "fixtures", format)).sort()) {
          const path = join(SHARED, "fixtures", format, name);
          const bytes = new Uint8Array(readFileSync(path));
          const { ms, sections } = await parseMs(bytes, name);
          const t0 = performance.now();
          const r = await ingest(s.services, { path }, { trustedPath: true });
          const mb = statSync(path).size / (1 << 20);
          files.push({
            file: `${format}/${name}`,
            bytes: statSync(path).size,
            sections,
            parse_ms: round(ms),
            pages_per_s: format === "pdf" && sections ? round(sections / (ms / 1000)) : undefined,
            mb_per_s: round(mb / (ms / 1000), 2),
            ingest_ms: round(performance.now() - t0),
            atoms: r.atoms_created,
          });
        }
      }
    } finally {
      await s.dispose();
    }
    const rss: Record<string, number> = {};
    for (const f of FORMATS) rss[f] = await peakRss(f);
    return {
      params: { runs: RUNS, limits: PARSE_LIMITS },
      results: { files, peak_rss_mib: rss },
      summary: summarize(files, rss),
    };
  },
};

function summarize(files: FileResult[], rss: Record<string, number>): SummaryRow[] {
  const of = (prefix: string) => files.filter((f) => f.file.startsWith(prefix) && f.sections > 0);
  const pdf = of("pdf/");
  const pages = pdf.reduce((n, f) => n + f.sections, 0);
  const pdfMs = pdf.reduce((n, f) => n + f.parse_ms, 0);
  const rate = (list: FileResult[]) =>
    round(list.reduce((n, f) => n + f.bytes, 0) / (1 << 20) / (list.reduce((n, f) => n + f.parse_ms, 0) / 1000), 2);
  return [
    {
      metric: "PDF parse, 4 papers with text",
      value: `${round(pages / (pdfMs / 1000))} pages/s (${pages} pages in ${round(pdfMs)} ms)`,
    },
    { metric: "EPUB parse, 2 books", value: `${rate(of("epub/"))} MB/s` },
    { metric: "HTML parse, 4 pages", value: `${rate(of("html/"))} MB/s` },
    { metric: "text parse, 2 files", value: `${rate(of("text/"))} MB/s` },
    { metric: "peak RSS parsing all fixtures of a format", value: FORMATS.map((f) => `${f} ${rss[f]} MiB`).join(", ") },
    {
      metric: `whole ingest (parse + embed + store, PGlite), all ${files.length} fixtures`,
      value: `${round(files.reduce((n, f) => n + f.ingest_ms, 0) / 1000, 1)} s, ${files.reduce((n, f) => n + f.atoms, 0)} atoms`,
    },
  ];
}
