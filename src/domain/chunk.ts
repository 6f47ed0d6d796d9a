/**
 * Chunking: splits a document's text into evidence segments on paragraph and sentence boundaries, never inside
 * a code point or a grapheme cluster, each with its locator (code-point range and 1-based line range).
 */
import { sentenceSegmenter } from "./text.ts";

/** One chunk: `text` is `source.slice` of the range, trimmed; offsets count code points of the source text. */
export interface TextChunk {
  ord: number;
  text: string;
  charStart: number;
  charEnd: number;
  lineStart: number;
  lineEnd: number;
}

/** Chunking parameters: `target` is the preferred chunk length in UTF-16 code units. */
export interface ChunkOptions {
  target: number;
  lang?: string;
}

const PARAGRAPH = 3;
const LINE = 2;
const SENTENCE = 1;
const SOFT_LINE = 0.5;

/**
 * Break candidates: strength × 2 (0: none) at each UTF-16 index where a new segment may start, one byte per index:
 * a Map of the ≈ 800,000 breaks of 20 MB of log lines, with the strings and match arrays of `split`/`matchAll`, took
 * ≈ 150 MiB more at its peak than this (bench/notes.md, ingest).
 */
function breakCandidates(text: string, lang: string): Uint8Array {
  const out = new Uint8Array(text.length + 1);
  const set = (at: number, strength: number) => {
    out[at] = 2 * strength;
  };
  // Line lengths without the lines themselves (as `text.split("\n")`), empty lines left out.
  const lengths: number[] = [];
  let from = 0;
  for (let nl = text.indexOf("\n"); ; nl = text.indexOf("\n", from)) {
    const end = nl < 0 ? text.length : nl;
    if (end > from) lengths.push(end - from);
    if (nl < 0) break;
    from = nl + 1;
  }
  lengths.sort((a, b) => a - b);
  const median = lengths.length ? lengths[lengths.length >> 1] : 0;
  // Short lines mean hard-wrapped prose (a Gutenberg text): a single newline is then a soft break.
  const hardWrapped = median > 0 && median < 100;
  // In hard-wrapped text a single newline is soft: hide it from the sentence segmenter (same length, same offsets).
  const view = hardWrapped ? text.replace(/([^\n])\n(?=[^\n])/g, "$1 ") : text;
  for (const seg of sentenceSegmenter(lang).segment(view)) {
    if (seg.index > 0) set(seg.index, SENTENCE);
  }
  const paragraph = /\n[ \t]*\n\s*/g;
  for (let m = paragraph.exec(text); m; m = paragraph.exec(text)) set(m.index + m[0].length, PARAGRAPH);
  const lineStrength = hardWrapped ? SOFT_LINE : LINE;
  // Each newline not followed by blanks and another newline (/\n(?![ \t]*\n)/g).
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", nl + 1)) {
    let k = nl + 1;
    while (k < text.length && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
    if (k < text.length && text.charCodeAt(k) === 10) continue;
    if (out[nl + 1] < 2 * lineStrength) set(nl + 1, lineStrength);
  }
  return out;
}

/** The nearest grapheme-cluster boundary at or before `pos` (so emoji and combining marks stay whole). */
function graphemeBoundary(text: string, pos: number): number {
  const from = Math.max(0, pos - 64);
  let best = from;
  const seg = new Intl.Segmenter("en", { granularity: "grapheme" });
  for (const g of seg.segment(text.slice(from, Math.min(text.length, pos + 64)))) {
    const at = from + g.index;
    if (at > pos) break;
    best = at;
  }
  return best > 0 ? best : Math.min(text.length, pos);
}

function chooseEnd(text: string, start: number, target: number, cands: Uint8Array): number {
  const lo = start + Math.floor(target * 0.5);
  const hi = Math.min(text.length, start + Math.floor(target * 1.3));
  let best = -1;
  let bestStrength = 0;
  for (let p = lo; p <= hi; p++) {
    const s = cands[p];
    if (s === 0) continue;
    const closer = best < 0 || Math.abs(p - start - target) < Math.abs(best - start - target);
    if (s > bestStrength || (s === bestStrength && closer)) {
      best = p;
      bestStrength = s;
    }
  }
  if (best > start) return best;
  const space = text.lastIndexOf(" ", start + target);
  if (space > lo) return space + 1;
  return Math.max(start + 1, graphemeBoundary(text, start + target));
}

function lineIndex(text: string): Uint32Array {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  const starts = new Uint32Array(n);
  n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts[n++] = i + 1;
  return starts;
}

function lineOf(starts: Uint32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function codePoints(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const low = c >= 0xdc00 && c <= 0xdfff;
    const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
    if (!(low && prev >= 0xd800 && prev <= 0xdbff)) n++;
  }
  return n;
}

/**
 * Splits `text` (LF newlines) into chunks of about `target` UTF-16 units, preferring paragraph, then line, then
 * sentence boundaries within [0.5, 1.3] × target; a run without any boundary is cut at a space or, failing that,
 * at a grapheme boundary. Whitespace-only chunks are dropped.
 */
export function chunkText(text: string, opts: ChunkOptions): TextChunk[] {
  const target = Math.max(64, opts.target);
  const cands = breakCandidates(text, opts.lang ?? "und");
  const starts = lineIndex(text);
  const chunks: TextChunk[] = [];
  let cpCursor = 0;
  let cpAt = 0;
  for (let start = 0; start < text.length; ) {
    const end = text.length - start <= target * 1.3 ? text.length : chooseEnd(text, start, target, cands);
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body) {
      const s = start + lead;
      const e = s + body.length;
      cpAt += codePoints(text, cpCursor, s);
      const cpStart = cpAt;
      cpAt += codePoints(text, s, e);
      cpCursor = e;
      chunks.push({
        ord: chunks.length,
        text: body,
        charStart: cpStart,
        charEnd: cpAt,
        lineStart: lineOf(starts, s),
        lineEnd: lineOf(starts, e - 1),
      });
    }
    start = end;
  }
  return chunks;
}
