/**
 * Data `<table>` → Markdown: a caption line `Table: …` (pandoc's caption syntax), then one line per row
 * `| a | b |`; when the table has a column-header row (in `<thead>`, or a first row of `<th>` only) it comes first,
 * followed by the separator `| --- | --- |`. A key/value table (an infobox: `<th>` key, `<td>` value per row)
 * has no column header and gets no separator: each row carries its own key. Cells are single-line (their
 * paragraphs and line breaks joined by "; ", `|` escaped as `\|`); `colspan` pads with empty cells, `rowspan`
 * repeats the value downwards so every row reads on its own. Long tables are cut into pieces of at most
 * BLOCK_PIECE_CHARS, each repeating the caption and header, so a chunk never holds rows without their header.
 * Layout tables (Readability's test, plus: nested tables, long cells, too many columns) give null: the caller
 * renders them as before, one paragraph per row.
 */
import { BLOCK_PIECE_CHARS } from "./code-block.ts";
import type { TextNodeLike } from "./text-node.ts";

/** Longest cell text kept in a Markdown table; a longer cell means the table lays out prose. */
export const MAX_TABLE_CELL = 300;
/** Most columns of a Markdown table. */
export const MAX_TABLE_COLUMNS = 30;
const MAX_COLSPAN = 30;
const MAX_ROWSPAN = 200;

interface Cell {
  text: string;
  th: boolean;
  colspan: number;
  rowspan: number;
}

interface RawTable {
  caption: string;
  rows: { cells: Cell[]; head: boolean }[];
  /** thead, tfoot, th, col or colgroup present (Readability: a data table). */
  dataMarks: boolean;
}

function lower(node: TextNodeLike): string {
  return node.nodeName.toLowerCase();
}

function span(node: TextNodeLike, name: string, max: number): number {
  const n = Number.parseInt(node.getAttribute?.(name) ?? "1", 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : 1;
}

/** A cell's text on one line: paragraphs and breaks joined by "; ", pipes escaped. */
function oneLine(paragraphs: string[]): string {
  return paragraphs
    .flatMap((p) => p.split("\n"))
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p)
    .join("; ")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|");
}

function rowOf(tr: TextNodeLike, cellText: (cell: TextNodeLike) => string[]): Cell[] {
  const cells: Cell[] = [];
  for (let c = tr.firstChild; c; c = c.nextSibling) {
    const name = c.nodeType === 1 ? lower(c) : "";
    if (name !== "td" && name !== "th") continue;
    cells.push({
      text: oneLine(cellText(c)),
      th: name === "th",
      colspan: span(c, "colspan", MAX_COLSPAN),
      rowspan: span(c, "rowspan", MAX_ROWSPAN),
    });
  }
  return cells;
}

/** Next node of a depth-first walk of `root`'s subtree; `descend` false skips `node`'s own subtree. */
function next(node: TextNodeLike, root: TextNodeLike, descend: boolean): TextNodeLike | null {
  if (descend && node.firstChild) return node.firstChild;
  let at: TextNodeLike | null = node;
  while (at && at !== root && !at.nextSibling) at = at.parentNode;
  return !at || at === root ? null : at.nextSibling;
}

/**
 * True when `table` holds another table. The walk stops at the first one, so over a chain of nested tables
 * every node is visited by one table's check only: linear, however deep the nesting.
 */
function hasNestedTable(table: TextNodeLike): boolean {
  for (let node = table.firstChild; node; node = next(node, table, true)) {
    if (node.nodeType === 1 && lower(node) === "table") return true;
  }
  return false;
}

/** Rows, caption and markers of `table` (which holds no nested table), by an iterative walk. */
function readTable(table: TextNodeLike, cellText: (cell: TextNodeLike) => string[]): RawTable {
  const out: RawTable = { caption: "", rows: [], dataMarks: false };
  let node = table.firstChild;
  while (node) {
    const name = node.nodeType === 1 ? lower(node) : "";
    let descend = node.nodeType === 1;
    if (name === "caption") [out.caption, descend] = [oneLine(cellText(node)).replace(/\\([\\|])/g, "$1"), false];
    else if (name === "tr") {
      out.rows.push({ cells: rowOf(node, cellText), head: lower(node.parentNode ?? node) === "thead" });
      descend = false;
    } else if (["thead", "tfoot", "th", "col", "colgroup"].includes(name)) out.dataMarks = true;
    node = next(node, table, descend);
  }
  out.dataMarks ||= out.rows.some((r) => r.cells.some((c) => c.th));
  return out;
}

type Pending = { text: string; th: boolean; left: number } | undefined;

/** Rows as a rectangular grid: colspan pads with "", rowspan repeats the value in the rows below. */
function grid(raw: RawTable): { cells: string[]; th: boolean[]; head: boolean }[] {
  const pending: Pending[] = [];
  return raw.rows.map((row) => {
    const cells: string[] = [];
    const th: boolean[] = [];
    const push = (text: string, isTh: boolean): void => {
      cells.push(text);
      th.push(isTh);
    };
    let queue = 0;
    // Columns are capped (MAX_TABLE_COLUMNS) before this runs, so the scans below stay short.
    while (queue < row.cells.length || pending.some((p, i) => p && i >= cells.length)) {
      const p = pending[cells.length];
      if (p) {
        push(p.text, p.th);
        if (--p.left === 0) pending[cells.length - 1] = undefined;
      } else if (queue < row.cells.length) {
        const c = row.cells[queue++];
        for (let k = 0; k < c.colspan; k++) {
          if (c.rowspan > 1) pending[cells.length] = { text: k ? "" : c.text, th: c.th, left: c.rowspan - 1 };
          push(k ? "" : c.text, c.th);
        }
      } else push("", false);
    }
    return { cells, th, head: row.head };
  });
}

/** Readability's data-table test (role, datatable, summary, caption, header markup, size), plus our limits. */
function isDataTable(table: TextNodeLike, raw: RawTable, rows: number, columns: number): boolean {
  const role = table.getAttribute?.("role");
  if (role === "presentation" || role === "none" || table.getAttribute?.("datatable") === "0") return false;
  if (rows === 0 || columns > MAX_TABLE_COLUMNS) return false;
  if (raw.rows.some((r) => r.cells.some((c) => c.text.length > MAX_TABLE_CELL))) return false;
  if (table.getAttribute?.("summary") || raw.caption || raw.dataMarks) return true;
  if (rows === 1 || columns === 1) return false;
  return rows >= 10 || columns > 4 || rows * columns > 10;
}

function line(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** Markdown pieces of at most BLOCK_PIECE_CHARS (one row more only when a single row is longer). */
function pieces(head: string[], rows: string[]): string[] {
  const out: string[] = [];
  const headSize = head.reduce((n, l) => n + l.length + 1, 0);
  let current: string[] = [];
  let size = headSize;
  for (const row of rows) {
    if (current.length && size + row.length + 1 > BLOCK_PIECE_CHARS) {
      out.push([...head, ...current].join("\n"));
      [current, size] = [[], headSize];
    }
    current.push(row);
    size += row.length + 1;
  }
  if (current.length) out.push([...head, ...current].join("\n"));
  return out;
}

/**
 * A data table as Markdown pieces (see module doc), or null for a layout table. `cellText` gives the paragraphs
 * of a cell or caption (the caller's own block-text walk, with image alt text).
 */
export function markdownTable(table: TextNodeLike, cellText: (cell: TextNodeLike) => string[]): string[] | null {
  if (hasNestedTable(table)) return null;
  const raw = readTable(table, cellText);
  if (raw.rows.some((r) => r.cells.reduce((n, c) => n + c.colspan, 0) > MAX_TABLE_COLUMNS)) return null;
  const rows = grid(raw).filter((r) => r.cells.some((c) => c));
  const columns = rows.reduce((n, r) => Math.max(n, r.cells.length), 0);
  if (!isDataTable(table, raw, rows.length, columns)) return null;
  const pad = (cells: string[]): string[] => [...cells, ...Array<string>(columns - cells.length).fill("")];
  const first = rows[0];
  const hasHeader = rows.length >= 2 && (first.head || first.th.every((t, i) => t || !first.cells[i]));
  const head = raw.caption ? [`Table: ${raw.caption}`] : [];
  if (hasHeader) head.push(line(pad(first.cells)), line(Array<string>(columns).fill("---")));
  return pieces(
    head,
    rows.slice(hasHeader ? 1 : 0).map((r) => line(pad(r.cells))),
  );
}
