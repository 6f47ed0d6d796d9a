/**
 * Block structure of a chunk: lines and paragraphs with their offsets, and the bookkeeping of spans already turned
 * into atoms (fenced code blocks are in fences.ts). Offsets are UTF-16 indices into the chunk text, `end`
 * exclusive, so a quote is always `text.slice(start, end)`: verbatim by construction.
 */
import { isCollapsed } from "../../../../domain/text.ts";

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
  // Already collapsed (single spaces inside, none at the ends): nothing to rebuild.
  if (isCollapsed(text)) return text;
  return text.replace(/\s+/gu, " ").trim();
}
