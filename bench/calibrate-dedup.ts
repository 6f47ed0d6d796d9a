/**
 * `bun bench/calibrate-dedup.ts`: calibrates the near-duplicate candidate threshold of each embedder on the
 * labelled pair suite (tests/dedup/pairs.ts) and writes bench/results/dedup-calibration.json.
 *
 * Method (src/domain/meaning/dedup-calibration.ts): embed both texts of every pair through the embedder's port, take the
 * lowest cosine among the pairs that must be candidates (those expected to merge or contradict under that
 * embedder's policy), subtract a safety margin of 0.05 (half the gap to the highest unrelated pair when that gap
 * is narrower), round down to 0.01. Then every pair is decided at that threshold and compared with its label.
 * - the local lexical embedder is always calibrated (it needs nothing);
 * - an Ollama model is calibrated when OLLAMA_HOST (ollama_host) is configured; otherwise its entry says it was
 *   not calibrated and records the threshold the code uses.
 * Against the lexical threshold, unrelated statements are also sampled at scale: 20,000 random pairs of sentences
 * of one fixture text (Botchan, Палата № 6; a fixed seed), with the share that reaches the threshold.
 * The script does not edit the source: it prints which constant to set when the code disagrees with the result.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LexicalHashEmbedder } from "../src/adapters/embedded/lexical-embedder.ts";
import { OllamaEmbedder } from "../src/adapters/llm/ollama/embedder.ts";
import { loadConfig } from "../src/config.ts";
import {
  type CalibrationSample,
  calibrateThreshold,
  type CosineStats,
} from "../src/domain/meaning/dedup-calibration.ts";
import { decidePair } from "../src/domain/meaning/dedup.ts";
import { setLogLevel } from "../src/log.ts";
import type { Embedder } from "../src/ports/models/embedder.ts";
import { dot, pairCosines } from "../tests/dedup/cosines.ts";
import { fixtureText } from "../tests/dedup/fixture-text.ts";
import { CATEGORIES, PAIRS } from "../tests/dedup/pairs.ts";
import { machineInfo, RESULTS_DIR } from "./lib/report.ts";

/** The result for one embedder. */
export interface EmbedderCalibration {
  model: string;
  kind: "lexical" | "neural";
  dim: number | null;
  threshold: number;
  /** The threshold the code uses now (nearDupThreshold). */
  code_threshold: number;
  method: string;
  pairs: number;
  lowest_required?: number;
  highest_unrelated?: number | null;
  margin?: number;
  unrelated_above?: number;
  cosine_by_category?: Record<string, CosineStats>;
  /** Pairs decided at the calibrated threshold as labelled, and the ones that were not. */
  outcomes?: { correct: number; total: number; wrong: string[] };
  /** Random sentence pairs of one fixture text each: cosine quantiles and how many reach the threshold. */
  random_sentence_pairs?: RandomPairs[];
}

/** Cosines of random sentence pairs of one fixture. */
export interface RandomPairs {
  fixture: string;
  sentences: number;
  pairs: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  at_or_above_threshold: number;
}

const RANDOM_FIXTURES = ["text/en_gutenberg_8868_botchan.txt", "text/ru_chekhov_palata_no6.txt"];

/** Samples 20,000 random sentence pairs of each text fixture (fixed seed) and reads their cosines against `threshold`. */
async function randomPairs(embedder: Embedder, threshold: number): Promise<RandomPairs[]> {
  const out: RandomPairs[] = [];
  for (const fixture of RANDOM_FIXTURES) {
    const sentences = [
      ...new Set(
        (await fixtureText(fixture)).split(/(?<=[.!?…])\s+/u).filter((x) => x.length >= 15 && x.length <= 200),
      ),
    ];
    const vs = await embedder.embedDocuments(sentences);
    let seed = 42; // xorshift32: a fixed, portable sequence
    const next = () => (
      (seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) % sentences.length
    );
    const cs: number[] = [];
    while (cs.length < 20_000) {
      const [i, j] = [next(), next()];
      if (i !== j) cs.push(dot(vs[i], vs[j]));
    }
    cs.sort((x, y) => x - y);
    const q = (p: number) => Math.round(cs[Math.floor(p * (cs.length - 1))] * 1e4) / 1e4;
    const above = cs.filter((c) => c >= threshold).length;
    out.push({
      fixture,
      sentences: sentences.length,
      pairs: cs.length,
      p50: q(0.5),
      p99: q(0.99),
      p999: q(0.999),
      max: q(1),
      at_or_above_threshold: above,
    });
  }
  return out;
}

const NOT_CALIBRATED = "not calibrated: no Ollama on the build machine; DESIGN.md's 0.90";

/** Calibrates one embedder against the labels of its policy (`lexical` or `semantic`). */
export async function calibrateEmbedder(
  embedder: Embedder,
  labels: "lexical" | "semantic",
): Promise<EmbedderCalibration> {
  await embedder.ready();
  const cosines = await pairCosines(embedder, PAIRS);
  const samples: CalibrationSample[] = PAIRS.map((p, i) => ({
    category: p.category,
    cosine: cosines[i],
    role: p.expected[labels] !== "keep" ? "required" : p.category === "unrelated" ? "unrelated" : "other",
  }));
  const cal = calibrateThreshold(samples);
  const policy = { threshold: cal.threshold, paraphrase: embedder.kind === "neural" };
  const wrong = PAIRS.flatMap((p, i) => {
    const d = decidePair(p.a, p.b, cosines[i], policy);
    return d.outcome === p.expected[labels]
      ? []
      : [`${p.lang} ${p.category} cos=${cosines[i].toFixed(3)} ${d.outcome}: ${p.a.slice(0, 60)}`];
  });
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, cal.byCategory[c]]));
  return {
    model: embedder.model,
    kind: embedder.kind,
    dim: embedder.dim,
    threshold: cal.threshold,
    code_threshold: embedder.nearDupThreshold,
    method: cal.method,
    pairs: PAIRS.length,
    lowest_required: cal.lowestRequired,
    highest_unrelated: cal.highestUnrelated,
    margin: cal.margin,
    unrelated_above: cal.unrelatedAbove,
    cosine_by_category: byCategory,
    outcomes: { correct: PAIRS.length - wrong.length, total: PAIRS.length, wrong },
  };
}

async function neuralEntry(): Promise<EmbedderCalibration> {
  const config = loadConfig();
  const embedder = new OllamaEmbedder({
    host: config.ollama_host ?? "http://127.0.0.1:11434",
    model: config.embed_model,
    expectedDim: config.embed_dim,
    keepAlive: config.ollama_keep_alive,
    concurrency: config.ollama_concurrency,
    batchSize: config.ollama_batch_size,
    timeoutMs: config.ollama_timeout_ms,
  });
  if (config.ollama_host) return calibrateEmbedder(embedder, "semantic");
  return {
    model: embedder.model,
    kind: "neural",
    dim: null,
    threshold: embedder.nearDupThreshold,
    code_threshold: embedder.nearDupThreshold,
    method: NOT_CALIBRATED,
    pairs: 0,
  };
}

async function main(): Promise<number> {
  setLogLevel("warn");
  const lexical = new LexicalHashEmbedder();
  const lexicalEntry = await calibrateEmbedder(lexical, "lexical");
  lexicalEntry.random_sentence_pairs = await randomPairs(lexical, lexicalEntry.threshold);
  const entries = [lexicalEntry, await neuralEntry()];
  const byLang = { ru: PAIRS.filter((p) => p.lang === "ru").length, en: PAIRS.filter((p) => p.lang === "en").length };
  const file = {
    benchmark: "dedup-calibration",
    date: new Date().toISOString(),
    machine: machineInfo(),
    pairs: { total: PAIRS.length, ...byLang },
    embedders: entries,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, "dedup-calibration.json");
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  for (const e of entries) {
    const ok = e.outcomes ? `, ${e.outcomes.correct}/${e.outcomes.total} pairs as labelled` : "";
    console.log(`${e.model}: threshold ${e.threshold} (${e.method})${ok}`);
    if (e.threshold !== e.code_threshold)
      console.log(`  the code uses ${e.code_threshold}: set nearDupThreshold = ${e.threshold} for ${e.model}`);
    for (const r of e.random_sentence_pairs ?? []) {
      console.log(
        `  ${r.fixture}: ${r.at_or_above_threshold} of ${r.pairs} random sentence pairs at or above ${e.threshold} (p99 ${r.p99}, max ${r.max})`,
      );
    }
  }
  console.log(`wrote ${path}`);
  return entries.some((e) => e.outcomes?.wrong.length) ? 1 : 0;
}

if (import.meta.main) process.exit(await main());
