/**
 * distill: chunks/s and atoms/s through the heuristic distiller (`distillText`) over every real fixture
 * (../shared/fixtures, read in place), parsed by the project's parsers (`selectParser`) and chunked as ingest
 * chunks them (`chunkSections` at the configured `chunk_chars`); each chunk is distilled with the language ingest
 * gives it (`detectLang` of the chunk, inside the timed step as in core/documents/distill.ts). Baseline in the same run:
 * chunking alone over the same parsed documents, so the distiller's own cost shows as a ratio. Parsing is done
 * once and not timed. Statistic: median of passes after a warm-up pass. `PEGAS_BENCH_QUICK=1` runs fewer passes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { distillText } from "../../src/adapters/distiller/heuristic/index.ts";
import { selectParser } from "../../src/adapters/parsers/select.ts";
import { chunkSections } from "../../src/core/documents/plan.ts";
import { detectLang } from "../../src/domain/text.ts";
import type { ChunkInput } from "../../src/ports/store/ingest.ts";
import type { ParsedDocument, ParseLimits } from "../../src/ports/models/parser.ts";
import { benchConfig, SHARED } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { median, round } from "../lib/stats.ts";

const QUICK = process.env.PEGAS_BENCH_QUICK === "1";
/** Timed passes (each: chunk every document, then distill every chunk). */
const PASSES = QUICK ? 3 : 9;
/** Untimed passes first (JIT warm-up). */
const WARMUP = 1;
const DIRS = ["pdf", "epub", "html", "text"];

interface Doc {
  file: string;
  parsed: ParsedDocument;
  parseMs: number;
}

/** One pass's timings in ms: chunking (baseline), distilling (total, per language, per file). */
interface Pass {
  chunkMs: number;
  distillMs: number;
  byLang: Record<string, number>;
  byFile: Record<string, number>;
}

/** What distillation yields (the same every pass: the distiller is deterministic). */
interface Yield {
  chunks: number;
  chunkChars: number;
  atoms: number;
  warnings: number;
  byType: Record<string, number>;
  byLang: Record<string, { chunks: number; atoms: number; chars: number }>;
  byFile: Record<string, { chunks: number; atoms: number; parse_ms: number; sections: number }>;
}

async function parseFixtures(limits: ParseLimits): Promise<Doc[]> {
  const docs: Doc[] = [];
  for (const dir of DIRS) {
    for (const name of readdirSync(join(SHARED, "fixtures", dir)).sort()) {
      const path = join(SHARED, "fixtures", dir, name);
      const bytes = new Uint8Array(readFileSync(path));
      const t0 = performance.now();
      const parsed = await selectParser({ bytes, name }).parse({ bytes, uri: `file://${path}` }, limits);
      docs.push({ file: `${dir}/${name}`, parsed, parseMs: performance.now() - t0 });
    }
  }
  return docs;
}

function bump(rec: Record<string, number>, key: string, by: number): void {
  rec[key] = (rec[key] ?? 0) + by;
}

/** Chunks every document (timed as the baseline), then distills every chunk, timing each chunk's step. */
function pass(docs: Doc[], chunkChars: number, y?: Yield): Pass {
  const t0 = performance.now();
  const chunked: ChunkInput[][] = docs.map((d) => chunkSections(d.parsed, chunkChars));
  const chunkMs = performance.now() - t0;
  const out: Pass = { chunkMs, distillMs: 0, byLang: {}, byFile: {} };
  const t1 = performance.now();
  docs.forEach((d, i) => {
    let fileMs = 0;
    for (const chunk of chunked[i]) {
      const c0 = performance.now();
      const lang = detectLang(chunk.text);
      const r = distillText({ text: chunk.text, lang });
      const ms = performance.now() - c0;
      fileMs += ms;
      bump(out.byLang, lang, ms);
      if (y)
        tally(
          y,
          d,
          chunk,
          lang,
          r.atoms.map((a) => a.type),
          r.warnings.length,
        );
    }
    out.byFile[d.file] = fileMs;
  });
  out.distillMs = performance.now() - t1;
  return out;
}

function tally(y: Yield, d: Doc, chunk: ChunkInput, lang: string, types: string[], warnings: number): void {
  y.chunks++;
  y.chunkChars += chunk.text.length;
  y.atoms += types.length;
  y.warnings += warnings;
  for (const t of types) bump(y.byType, t, 1);
  const l = (y.byLang[lang] ??= { chunks: 0, atoms: 0, chars: 0 });
  l.chunks++;
  l.atoms += types.length;
  l.chars += chunk.text.length;
  const f = (y.byFile[d.file] ??= {
    chunks: 0,
    atoms: 0,
    parse_ms: round(d.parseMs),
    sections: d.parsed.sections.length,
  });
  f.chunks++;
  f.atoms += types.length;
}

function perSecond(count: number, ms: number): number {
  return round(count / (ms / 1000));
}

/** Median per-pass ms of one key of a per-pass record. */
function medianOf(passes: Pass[], pick: (p: Pass) => number): number {
  return median(passes.map(pick));
}

function digest(passes: Pass[], y: Yield) {
  const chunkMs = medianOf(passes, (p) => p.chunkMs);
  const distillMs = medianOf(passes, (p) => p.distillMs);
  const byLang = Object.fromEntries(
    Object.entries(y.byLang).map(([lang, l]) => {
      const ms = medianOf(passes, (p) => p.byLang[lang] ?? 0);
      return [
        lang,
        {
          ...l,
          median_ms: round(ms),
          chunks_per_s: perSecond(l.chunks, ms),
          atoms_per_s: perSecond(l.atoms, ms),
          kb_per_s: perSecond(l.chars / 1024, ms),
        },
      ];
    }),
  );
  const byFile = Object.fromEntries(
    Object.entries(y.byFile).map(([file, f]) => {
      const ms = medianOf(passes, (p) => p.byFile[file] ?? 0);
      return [file, { ...f, distill_median_ms: round(ms, 2), chunks_per_s: f.chunks ? perSecond(f.chunks, ms) : null }];
    }),
  );
  return {
    chunks: y.chunks,
    chunk_chars: y.chunkChars,
    atoms: y.atoms,
    distiller_warnings: y.warnings,
    atoms_by_type: Object.fromEntries(Object.entries(y.byType).sort((a, b) => b[1] - a[1])),
    distill: {
      median_ms: round(distillMs),
      chunks_per_s: perSecond(y.chunks, distillMs),
      atoms_per_s: perSecond(y.atoms, distillMs),
      kb_per_s: perSecond(y.chunkChars / 1024, distillMs),
    },
    baseline_chunking: {
      median_ms: round(chunkMs, 2),
      chunks_per_s: perSecond(y.chunks, chunkMs),
      kb_per_s: perSecond(y.chunkChars / 1024, chunkMs),
    },
    ratio_distill_to_chunking: round(distillMs / chunkMs, 1),
    by_lang: byLang,
    by_file: byFile,
    samples_ms: { distill: passes.map((p) => round(p.distillMs)), chunking: passes.map((p) => round(p.chunkMs, 2)) },
  };
}

function rows(d: ReturnType<typeof digest>): SummaryRow[] {
  const types = Object.entries(d.atoms_by_type)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
  const out: SummaryRow[] = [
    {
      metric: `heuristic distiller, all fixtures (${d.chunks} chunks)`,
      value: `${d.distill.chunks_per_s} chunks/s, ${d.distill.atoms_per_s} atoms/s`,
    },
    { metric: "chunking alone (baseline), same documents", value: d.baseline_chunking.chunks_per_s, unit: "chunks/s" },
    { metric: "distilling ÷ chunking time", value: `${d.ratio_distill_to_chunking}×` },
  ];
  for (const [lang, l] of Object.entries(d.by_lang)) {
    out.push({
      metric: `heuristic distiller, ${lang} chunks (${l.chunks})`,
      value: `${l.chunks_per_s} chunks/s, ${l.atoms_per_s} atoms/s`,
    });
  }
  out.push({ metric: `atoms by type (${d.atoms})`, value: types });
  return out;
}

/** The distill benchmark (see module doc). */
export const distillBench: Benchmark = {
  name: "distill",
  description:
    "heuristic distiller throughput (chunks/s, atoms/s) over the real fixtures, with chunking alone as baseline",
  async run(): Promise<BenchOutcome> {
    const config = benchConfig({});
    const limits: ParseLimits = {
      maxBytes: config.max_input_bytes,
      maxZipEntries: config.zip_max_entries,
      maxZipTotalBytes: config.zip_max_total_bytes,
      maxZipEntryBytes: config.zip_max_entry_bytes,
    };
    const docs = await parseFixtures(limits);
    const loadAtStart = loadavg().map((x) => round(x, 2)); // other work on the machine shows in the numbers
    const y: Yield = { chunks: 0, chunkChars: 0, atoms: 0, warnings: 0, byType: {}, byLang: {}, byFile: {} };
    for (let i = 0; i < WARMUP; i++) pass(docs, config.chunk_chars, i === 0 ? y : undefined);
    const passes: Pass[] = [];
    for (let i = 0; i < PASSES; i++) {
      Bun.gc(true); // collect between passes, not inside a timed one
      passes.push(pass(docs, config.chunk_chars));
    }
    const d = digest(passes, y);
    return {
      params: {
        quick: QUICK,
        loadavg_at_start: loadAtStart,
        passes: PASSES,
        warmup_passes: WARMUP,
        statistic: "median of passes",
        chunk_chars: config.chunk_chars,
        fixtures: `../shared/fixtures/{${DIRS.join(",")}}/* (${docs.length} files), parsed once (not timed)`,
        timed:
          "baseline: chunkSections over every parsed document; distiller: detectLang + distillText per chunk (as core/documents/distill.ts)",
        language: "detectLang of each chunk",
      },
      results: d,
      summary: rows(d),
    };
  },
};
