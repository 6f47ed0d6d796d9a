/**
 * Large inputs for the linear-ingest benchmark, generated (never stored) and reproducible from a seed:
 * - natural text: paragraphs of three to eight sentences drawn at random from the two fixture books (English and
 *   Russian), so the words, sentence lengths and languages are those of real prose while the chunks are new;
 * - repetitive text: log lines over a vocabulary of a few dozen words and small numbers, as service logs are (the case
 *   where a few terms occur in nearly every chunk and nearly every atom looks like another);
 * - one line: natural text with every line break replaced by a space (a single line of the given size);
 * - many small files: a directory of short notes, each a few random sentences of the books.
 * `bun bench/gen-texts.ts <dir> [MB]` writes the first three as files.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TEXTS } from "./env.ts";
import { mulberry32 } from "../../tests/support/prng.ts";

/** A seeded PRNG (mulberry32) giving floats in [0, 1). */
export const prng = mulberry32;

let cached: string[] | null = null;

/** The sentences of both fixture books (line breaks inside a sentence folded to spaces), at least 20 chars each. */
export function bookSentences(): string[] {
  if (cached) return cached;
  const out: string[] = [];
  for (const path of [TEXTS.botchan, TEXTS.chekhov]) {
    const text = readFileSync(path, "utf8").replace(/\s+/g, " ");
    for (const s of text.split(/(?<=[.!?…])\s+/u)) if (s.length >= 20 && s.length <= 600) out.push(s.trim());
  }
  cached = out;
  return out;
}

/** Natural text of about `bytes` UTF-8 bytes: paragraphs of 3–8 random book sentences, separated by blank lines. */
export function naturalText(bytes: number, seed = 1): string {
  const sentences = bookSentences();
  const rand = prng(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const n = 3 + Math.floor(rand() * 6);
    const para: string[] = [];
    for (let i = 0; i < n; i++) para.push(sentences[Math.floor(rand() * sentences.length)]);
    const p = `${para.join(" ")}\n\n`;
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  return parts.join("");
}

const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const SERVICES = ["api", "worker", "scheduler", "cache", "db"];
const MESSAGES = [
  "request handled status ok",
  "request failed status error retry scheduled",
  "connection opened to upstream",
  "connection closed by peer",
  "cache miss for key user",
  "cache hit for key session",
  "job started queue default",
  "job finished queue default",
  "slow query detected on table events",
  "health check passed",
];

/** Log-like text of about `bytes` bytes: one line per event, a few dozen distinct words and numbers below 100. */
export function repetitiveText(bytes: number, seed = 2): string {
  const rand = prng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `${pick(LEVELS)} ${pick(SERVICES)} ${Math.floor(rand() * 8)}: ${pick(MESSAGES)} in ${Math.floor(rand() * 100)} ms.\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join("");
}

/** Natural text of about `bytes` bytes on a single line (no line break at all). */
export function oneLineText(bytes: number, seed = 3): string {
  return naturalText(bytes, seed).replace(/\s*\n\s*/g, " ");
}

/** Writes `count` small notes (`note-00001.txt` …, 2–6 random book sentences each) into `dir`; resolves to the bytes written. */
export function writeSmallFiles(dir: string, count: number, seed = 4): number {
  const sentences = bookSentences();
  const rand = prng(seed);
  let total = 0;
  const per = 1000;
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `d${String(Math.floor(i / per)).padStart(3, "0")}`);
    if (i % per === 0) mkdirSync(sub, { recursive: true });
    const n = 2 + Math.floor(rand() * 5);
    const lines: string[] = [`Note ${i + 1}`];
    for (let j = 0; j < n; j++) lines.push(sentences[Math.floor(rand() * sentences.length)]);
    const text = `${lines.join("\n")}\n`;
    writeFileSync(join(sub, `note-${String(i + 1).padStart(5, "0")}.txt`), text);
    total += Buffer.byteLength(text);
  }
  return total;
}
