/**
 * Fenced code blocks (``` or ~~~) in a chunk, including the two pieces a chunk boundary can make of one block:
 * a block left open at the end of the chunk runs to the end, and a chunk that starts inside a block (the chunker
 * cut at a blank line within the code) begins with code closed by a bare fence. Without the second rule that bare
 * fence would open a "block" running over the prose after it and swallow the next real block's opening fence.
 */
import { linesOf, type Line, type Span } from "./blocks.ts";
import { isProse, looksLikeCode } from "./code.ts";

/** A fenced code block: the whole block incl. fences, and its body between them. */
export interface FencedBlock extends Span {
  /** Info string's first word, lower case ("json", "ts"), or "" when none. */
  lang: string;
  body: Span;
  /** True for code at the start of the chunk closed by a fence whose opening lies in the previous chunk. */
  continued: boolean;
}

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`\n]*$/;

/** True when `line` closes a fence opened with `marker` (the same character, at least as long, nothing else). */
function closes(line: string, marker: string): boolean {
  const t = line.trim();
  return t.length >= marker.length && t === marker[0].repeat(t.length);
}

/** Index of the line closing the fence opened at line `i`, or -1 when the chunk ends first. */
function closingLine(lines: Line[], i: number, marker: string): number {
  for (let j = i + 1; j < lines.length; j++) if (closes(lines[j].text, marker)) return j;
  return -1;
}

/**
 * The code a chunk starts with when its first fence is a bare one closing a block opened in the previous chunk:
 * everything before that fence is code, and read as an opening fence it would enclose prose, another block's
 * opening fence (one with an info string), or nothing at all.
 */
function continuedBlock(text: string, lines: Line[]): { block: FencedBlock; line: number } | null {
  const f = lines.findIndex((l) => FENCE.test(l.text));
  if (f <= 0) return null;
  const marker = FENCE.exec(lines[f].text)![1];
  const before = text.slice(0, lines[f].start);
  if (!closes(lines[f].text, marker) || !before.trim() || !looksLikeCode(before)) return null;
  const close = closingLine(lines, f, marker);
  const inside = lines.slice(f + 1, close < 0 ? lines.length : close);
  const proseAfter =
    inside.every((l) => !l.text.trim()) ||
    inside.some((l) => isProse(l.text) || (FENCE.exec(l.text)?.[2] ?? "") !== "");
  if (!proseAfter) return null;
  const start = text.length - text.trimStart().length;
  const body = { start, end: Math.max(start, lines[f].start - 1) };
  return { block: { start, end: lines[f].end, lang: "", body, continued: true }, line: f };
}

/**
 * Fenced code blocks in `text`, in order. A fence opens with three or more backticks or tildes and closes with a
 * line of the same character at least as long; a block left open runs to the end of the chunk, and code before a
 * closing fence at the chunk start is a block too (see module doc), so a chunk boundary inside a long block never
 * turns its code into sentences.
 */
export function fencedBlocks(text: string): FencedBlock[] {
  const out: FencedBlock[] = [];
  const lines = linesOf(text);
  const lead = continuedBlock(text, lines);
  if (lead) out.push(lead.block);
  for (let i = lead ? lead.line + 1 : 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i].text);
    if (!open) continue;
    const close = closingLine(lines, i, open[1]);
    const last = close >= 0 ? lines[close] : lines[lines.length - 1];
    const bodyStart = Math.min(lines[i].end + 1, text.length);
    const bodyEnd = close >= 0 ? Math.max(bodyStart, lines[close].start - 1) : text.length;
    const lang = open[2].toLowerCase().replace(/^\{?\.?/, "");
    out.push({
      start: lines[i].start,
      end: last.end,
      lang,
      body: { start: bodyStart, end: bodyEnd },
      continued: false,
    });
    if (close < 0) break;
    i = close;
  }
  return out;
}
