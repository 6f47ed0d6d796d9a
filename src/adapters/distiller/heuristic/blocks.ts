/**
 * Block structure of a chunk: lines and paragraphs with their offsets, fenced code blocks, and the bookkeeping of
 * spans already turned into atoms. Offsets are UTF-16 indices into the chunk text, `end` exclusive, so a quote is
 * always `text.slice(start, end)`: verbatim by construction.
 */

/** A half-open range `[start, end)` of UTF-16 indices into the chunk text. */
export interface Span {
  start: number;
  end: number;
}

/** One line without its newline. */
export interface Line extends Span {
  text: string;
}

/** A paragraph: lines between blank lines, trimmed; `text` is `chunk.slice(start, end)`. */
export interface Paragraph extends Span {
  text: string;
}

/** A fenced code block (``` or ~~~): the whole block incl. fences, and its body between them. */
export interface FencedBlock extends Span {
  /** Info string's first word, lower case ("json", "ts"), or "" when none. */
  lang: string;
  body: Span;
}

/** Every line of `text` in `[from, to)`, with offsets. */
export function linesOf(text: string, from = 0, to = text.length): Line[] {
  const out: Line[] = [];
  let at = from;
  while (at <= to) {
    let nl = text.indexOf("\n", at);
    if (nl < 0 || nl > to) nl = to;
    out.push({ start: at, end: nl, text: text.slice(at, nl) });
    if (nl >= to) break;
    at = nl + 1;
  }
  return out;
}

/** A span with surrounding whitespace removed (empty spans stay empty). */
export function trimSpan(text: string, span: Span): Span {
  let { start, end } = span;
  while (start < end && /\s/u.test(text[start])) start++;
  while (end > start && /\s/u.test(text[end - 1])) end--;
  return { start, end };
}

const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`\n]*$/;

/**
 * Fenced code blocks in `text`. A fence opens with three or more backticks or tildes and closes with a line of the
 * same character at least as long; a block left open runs to the end of the chunk (a chunk boundary inside a long
 * block must not turn its code into sentences).
 */
export function fencedBlocks(text: string): FencedBlock[] {
  const out: FencedBlock[] = [];
  const lines = linesOf(text);
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i].text);
    if (!open) continue;
    const marker = open[1];
    let close = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const t = lines[j].text.trim();
      if (t.length >= marker.length && t === marker[0].repeat(t.length)) {
        close = j;
        break;
      }
    }
    const last = close >= 0 ? lines[close] : lines[lines.length - 1];
    const bodyStart = Math.min(lines[i].end + 1, text.length);
    const bodyEnd = close >= 0 ? Math.max(bodyStart, lines[close].start - 1) : text.length;
    out.push({ start: lines[i].start, end: last.end, lang: open[2].toLowerCase().replace(/^\{?\.?/, ""), body: { start: bodyStart, end: bodyEnd } });
    if (close < 0) break;
    i = close;
  }
  return out;
}

/** Set of consumed spans: what an earlier pass already turned into an atom (or deliberately skipped). */
export class Consumed {
  private readonly spans: Span[] = [];

  /** Marks a span as consumed. */
  add(span: Span): void {
    this.spans.push({ start: span.start, end: span.end });
  }

  /** True when `span` overlaps any consumed span. */
  overlaps(span: Span): boolean {
    return this.spans.some((s) => s.start < span.end && span.start < s.end);
  }

  /** The maximal unconsumed ranges of `[0, length)`, in order. */
  free(length: number): Span[] {
    const sorted = [...this.spans].sort((a, b) => a.start - b.start);
    const out: Span[] = [];
    let at = 0;
    for (const s of sorted) {
      if (s.start > at) out.push({ start: at, end: s.start });
      at = Math.max(at, s.end);
    }
    if (at < length) out.push({ start: at, end: length });
    return out;
  }
}

/** Paragraphs (blank-line separated, trimmed, non-empty) of the unconsumed parts of `text`, in order. */
export function freeParagraphs(text: string, consumed: Consumed): Paragraph[] {
  const out: Paragraph[] = [];
  for (const range of consumed.free(text.length)) {
    // Search the range alone: a search from range.start over the whole text would make many ranges quadratic.
    const part = text.slice(range.start, range.end);
    let start = 0;
    const push = (end: number): void => {
      const span = trimSpan(text, { start: range.start + start, end: range.start + end });
      if (span.end > span.start) out.push({ ...span, text: text.slice(span.start, span.end) });
    };
    for (const m of part.matchAll(/\n[ \t]*\n/g)) {
      push(m.index);
      start = m.index + m[0].length;
    }
    push(part.length);
  }
  return out;
}

/** Whitespace runs collapsed to one space, trimmed: how claims and prose contents are stored. */
export function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}
