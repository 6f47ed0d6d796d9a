/**
 * Tables in chunk text, in the three shapes that reach the distiller:
 * - Markdown: a header row, a separator row (`| --- | --- |`), data rows, on consecutive lines; or rows framed by
 *   pipes without a separator (a key/value table, e.g. an infobox, as our HTML parser writes it: markdown-table.ts);
 * - pipe rows separated by blank lines (a layout table through our HTML parser, or its output before it wrote
 *   Markdown): every `<tr>` its own paragraph; a cell holding a list continues as short paragraphs after a row
 *   ending in "|";
 * - tab-separated lines (TSV pasted into text).
 * A table is kept whole, with its header (and a "Table 1. …" caption right above it, when there is one).
 */
import { linesOf, type Line, type Span } from "./blocks.ts";

/** A table found in the chunk; the span covers the caption (if any) through the last row. */
export interface FoundTable extends Span {
  style: "markdown" | "pipe" | "tab";
  /** Cells of the first row (the header when the table has a separator). */
  header: string[];
  /** First-column cells of a two-column key/value table without a header separator (an infobox), else []. */
  keys: string[];
  caption: string | null;
  rows: number;
}

interface Row {
  cells: string[];
  delim: "|" | "\t";
  /** Opens and closes with a pipe, as Markdown rows do (`| a | b |`). */
  framed: boolean;
}

const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;
/** "Table 2. …", "Таблица 1 – …", or the "Table: …" line the HTML parser writes for a `<caption>`. */
const CAPTION = /^(?:Table|Tab\.|Таблица|Табл\.)(?:\s*(?:\d+|[IVXLC]+)[a-z]?\b|\s*:\s*\S)/iu;
/** Longest cell of a row; longer "cells" are prose that happens to contain a pipe. */
const MAX_CELL = 300;
/** Most continuation paragraphs (a list inside a cell) allowed between two rows. */
const MAX_CONTINUATION = 4;

/**
 * Cells of a pipe row: split at unescaped `|` (Markdown writes a pipe inside a cell as `\|`, a backslash as
 * `\\`), the outer pipes of a row that starts with one dropped, escapes undone. Linear in the line length.
 */
export function pipeCells(row: string): string[] {
  const t = row.trim();
  const cells: string[] = [];
  let cell = "";
  let lastPipe = -1;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === "\\" && (t[i + 1] === "|" || t[i + 1] === "\\")) cell += t[++i];
    else if (c === "|") {
      cells.push(cell.trim());
      [cell, lastPipe] = ["", i];
    } else cell += c;
  }
  cells.push(cell.trim());
  // Outer pipes only when the row opens with one: "Divisions |" is a key whose value continues below.
  if (t.startsWith("|")) {
    cells.shift();
    if (lastPipe === t.length - 1 && cells.length > 1) cells.pop();
  }
  return cells;
}

function rowOf(line: string): Row | null {
  const t = line.trim();
  if (!t || SEPARATOR.test(t)) return null;
  if (t.includes("|") && !t.includes("||") && !t.startsWith("$ ")) {
    const cells = pipeCells(t);
    if (cells.length >= 2 && cells.some((c) => c) && cells.every((c) => c.length <= MAX_CELL))
      return { cells, delim: "|", framed: /^\|.*\|$/.test(t) };
  }
  if (line.includes("\t")) {
    const cells = line
      .trim()
      .split("\t")
      .map((c) => c.trim());
    if (cells.filter((c) => c).length >= 2 && cells.every((c) => c.length <= MAX_CELL))
      return { cells, delim: "\t", framed: false };
  }
  return null;
}

/** A short line that is neither a row nor prose: the rest of a cell that held a list (an infobox's "Divisions"). */
function continuation(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && t.length <= 80 && !t.includes("|") && !/[.!?:;]$/.test(t);
}

interface Run {
  first: number;
  last: number;
  rows: Row[];
  separator: boolean;
}

/** Extends a run of rows starting at line `i`; blank lines and cell continuations may sit between rows. */
function extendRun(lines: Line[], i: number, head: Row): Run {
  const run: Run = { first: i, last: i, rows: [head], separator: false };
  let pendingCont = 0;
  for (let j = i + 1; j < lines.length; j++) {
    const t = lines[j].text;
    if (!t.trim()) continue;
    if (SEPARATOR.test(t) && head.delim === "|" && run.rows.length === 1 && j === run.last + 1) {
      run.separator = true;
      run.last = j;
      continue;
    }
    const row = rowOf(t);
    if (row && row.delim === head.delim && row.cells.length === head.cells.length) {
      run.rows.push(row);
      run.last = j;
      pendingCont = 0;
      continue;
    }
    const prev = run.rows[run.rows.length - 1];
    if (!row && prev.cells[prev.cells.length - 1] === "" && pendingCont < MAX_CONTINUATION && continuation(t)) {
      pendingCont++;
      continue;
    }
    break;
  }
  return run;
}

/**
 * Enough rows to be a table: two with a separator or when every row is framed by pipes (Markdown rows, e.g. the
 * tail of a table whose header is in the previous chunk), else three; cells short on average.
 */
function accepted(run: Run): boolean {
  const framed = run.rows.every((r) => r.framed);
  const enough = run.separator || framed ? run.rows.length >= 2 : run.rows.length >= 3;
  if (!enough) return false;
  const cells = run.rows.flatMap((r) => r.cells);
  const mean = cells.reduce((n, c) => n + c.length, 0) / cells.length;
  return mean <= 80;
}

/** The caption paragraph right above line `i` ("Table 2. …"), or null. */
function captionAbove(lines: Line[], i: number): { line: Line; text: string } | null {
  let j = i - 1;
  while (j >= 0 && !lines[j].text.trim()) j--;
  if (j < 0 || i - j > 2) return null;
  let k = j;
  while (k > 0 && lines[k - 1].text.trim()) k--;
  const text = lines
    .slice(k, j + 1)
    .map((l) => l.text.trim())
    .join(" ");
  return CAPTION.test(text) ? { line: lines[k], text } : null;
}

/** Tables within `text[from, to)`, in order, not overlapping. */
export function findTables(text: string, from: number, to: number): FoundTable[] {
  const lines = linesOf(text, from, to);
  const out: FoundTable[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = rowOf(lines[i].text);
    if (!head) continue;
    const run = extendRun(lines, i, head);
    if (!accepted(run)) continue;
    const caption = captionAbove(lines, i);
    const style = head.delim === "\t" ? "tab" : run.separator ? "markdown" : "pipe";
    const keyValue = !run.separator && head.cells.length === 2;
    out.push({
      start: caption ? caption.line.start : lines[i].start,
      end: lines[run.last].end,
      style,
      header: head.cells,
      keys: keyValue ? run.rows.map((r) => r.cells[0]).filter((c) => c) : [],
      caption: caption?.text ?? null,
      rows: run.rows.length,
    });
    i = run.last;
  }
  return out;
}
