/**
 * Page geometry → reading order. Finds a column gutter (a vertical strip that the body text does not cross), reads
 * each two-column segment column by column, and keeps full-width lines (titles, abstracts, captions, footnotes)
 * in place between the segments. Without a gutter the page is one block, top to bottom.
 */
import { makeLine, sameLine } from "./runs.ts";
import type { Block, Line, PageLayout, Run } from "./types.ts";

/** A gutter narrower than this many font sizes is a word gap, not a column gap. */
const MIN_GUTTER_EM = 0.9;
/** Each column must hold at least this many lines and this share of the column text. */
const MIN_COLUMN_LINES = 3;
const MIN_COLUMN_SHARE = 0.1;
/** At least this share of each column's text must be in lines that fill the column (prose, not table cells). */
const MIN_COLUMN_FILL = 0.5;
/** Shares of the left column's text ending near the gutter (ragged right allowed) and of the right's starting there. */
const MIN_LEFT_ALIGNED = 0.6;
const MIN_RIGHT_ALIGNED = 0.5;
/** A column narrower than this share of the other is a sidebar: the main column is read first. */
const SIDEBAR_RATIO = 0.6;

/** The x-interval of a column gutter, in page units. */
export interface Gutter {
  g0: number;
  g1: number;
}

/**
 * Orders a page's runs into blocks of lines (see {@link PageLayout}); `rotated` strings become a last block.
 * Pure: the same runs always give the same layout.
 */
export function layoutPage(runs: Run[], rotated: string[]): PageLayout {
  const flows = flowLines(runs);
  const gutter = findGutter(runs, flows);
  const blocks = gutter ? columnBlocks(flows, gutter) : [{ lines: visualLines(flows), continues: false }];
  if (rotated.length > 0) {
    const lines = rotated.map((s) => ({ runs: [], x0: 0, x1: 0, y: 0, size: 0, font: "", text: s }));
    blocks.push({ lines, continues: false, rotated: true });
  }
  return { blocks: blocks.filter((b) => b.lines.length > 0), columns: gutter ? 2 : 1 };
}

/** Splits runs in content-stream order into flow lines: a new line starts off the band or back to the left. */
function flowLines(runs: Run[]): Run[][] {
  const lines: Run[][] = [];
  let cur: Run[] = [];
  for (const r of runs) {
    const last = cur[cur.length - 1];
    if (last && sameLine(last, r) && r.x0 >= last.x1 - 0.5 * r.size) cur.push(r);
    else {
      if (cur.length) lines.push(cur);
      cur = [r];
    }
  }
  if (cur.length) lines.push(cur);
  return lines;
}

/**
 * Merges flow lines that share a baseline band (superscripts, table cells, text drawn out of order). A flow line
 * that would overprint text already in the line (a hidden proof note drawn over the text) stays a line of its
 * own, so that neither is shredded into the other.
 */
function visualLines(flows: Run[][]): Line[] {
  const sorted = [...flows].sort((a, b) => top(b) - top(a));
  const groups: { core: Run; runs: Run[] }[] = [];
  for (const f of sorted) {
    const core = dominant(f);
    const g = findGroup(groups, core, f);
    if (!g) groups.push({ core, runs: [...f] });
    else {
      g.runs.push(...f);
      if (core.size > g.core.size) g.core = core;
    }
  }
  return groups.map((g) => makeLine(g.runs)).sort((a, b) => b.y - a.y || a.x0 - b.x0);
}

/** The line a flow line joins: groups are made top-down, so only the last few can share its band. */
function findGroup(groups: { core: Run; runs: Run[] }[], core: Run, f: Run[]): { core: Run; runs: Run[] } | null {
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i]!;
    if (g.core.y - 0.25 * g.core.size > core.y + 2 * core.size) break;
    if (sameLine(g.core, core) && !overprints(g.runs, f)) return g;
  }
  return null;
}

/** True when the flow line covers more than half of some run already placed (or that run covers half of it). */
function overprints(runs: Run[], f: Run[]): boolean {
  const x0 = minX0(f);
  const x1 = maxX1(f);
  return runs.some((r) => Math.min(x1, r.x1) - Math.max(x0, r.x0) > 0.5 * Math.min(x1 - x0, r.x1 - r.x0));
}

// Reductions, not Math.min(...spread): a page can hold more items than a call may take arguments.
const top = (f: Run[]): number => f.reduce((t, r) => Math.max(t, r.y + 0.85 * r.size), -Infinity);
const minX0 = (rs: Run[]): number => rs.reduce((m, r) => Math.min(m, r.x0), Infinity);
const maxX1 = (rs: Run[]): number => rs.reduce((m, r) => Math.max(m, r.x1), -Infinity);

function dominant(f: Run[]): Run {
  let best = f[0]!;
  for (const r of f) if (r.str.length > best.str.length) best = r;
  return best;
}

/** A word gap wider than this many font sizes splits a flow line into segments (a gutter may lie between). */
const SEGMENT_GAP_EM = 1.0;

/** Horizontal extents of a flow line's pieces: runs joined while the gap between them is a word gap. */
function segments(f: Run[]): [number, number][] {
  const sorted = [...f].sort((a, b) => a.x0 - b.x0);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.x0 - last[1] <= SEGMENT_GAP_EM * r.size) last[1] = Math.max(last[1], r.x1);
    else out.push([r.x0, r.x1]);
  }
  return out;
}

/**
 * Finds the widest strip in the middle 60% of the text's x-range that the fewest line segments cross (within a
 * small slack, as a heading may end inside the gutter); it is a gutter when it is at least {@link MIN_GUTTER_EM}
 * wide and the text on both sides forms columns of prose side by side (see {@link isColumnGutter}).
 */
export function findGutter(runs: Run[], flows: Run[][]): Gutter | null {
  if (runs.length < 2 * MIN_COLUMN_LINES) return null;
  const minX = Math.floor(minX0(runs));
  const width = Math.ceil(maxX1(runs)) - minX;
  const cover = coverage(flows, minX, width);
  const lo = Math.round(0.2 * width);
  const hi = Math.round(0.8 * width);
  const central = Array.from(cover.subarray(lo, hi + 1)).sort((x, y) => x - y);
  const limit = central[0]! + Math.max(2, Math.floor(0.1 * central[central.length >> 1]!));
  let best: Gutter | null = null;
  for (let i = lo; i <= hi; i++) {
    if (cover[i]! > limit) continue;
    let j = i;
    while (j + 1 < width && cover[j + 1]! <= limit) j++;
    while (i > 0 && cover[i - 1]! <= limit) i--;
    // The strip's ends are exact to 1 unit only: keep its interior, so that no column run seems to cross it.
    if (!best || j - i - 1 > best.g1 - best.g0) best = { g0: minX + i + 1, g1: minX + j };
    i = j;
  }
  return best && isColumnGutter(best, runs, flows) ? best : null;
}

/** How many line segments cover each unit of x, from `minX` over `width` units. */
function coverage(flows: Run[][], minX: number, width: number): Int32Array {
  const cover = new Int32Array(width + 2);
  for (const f of flows) {
    for (const [x0, x1] of segments(f)) {
      const a = Math.ceil(x0) - minX;
      const b = Math.floor(x1) - minX;
      if (b <= a) continue;
      cover[a]! += 1;
      cover[b]! -= 1;
    }
  }
  for (let i = 1; i < cover.length; i++) cover[i]! += cover[i - 1]!;
  return cover;
}

/**
 * A strip is a column gutter when it is wide enough, each side has enough lines and text, the two sides sit
 * beside each other, and each side reads as a column of prose: most of its text is in segments that fill the
 * column's width (table cells and formula pieces are short) and in lines that end (left) or start (right) at
 * the gutter (a table's first column of labels ends anywhere).
 */
function isColumnGutter(g: Gutter, runs: Run[], flows: Run[][]): boolean {
  const sizes = runs.map((r) => r.size).sort((a, b) => a - b);
  const em = sizes[sizes.length >> 1]!;
  if (g.g1 - g.g0 < MIN_GUTTER_EM * em) return false;
  const free = flows.filter((f) => !crosses(f, g));
  const mid = (g.g0 + g.g1) / 2;
  const left = free.map((f) => f.filter((r) => r.x1 <= mid)).filter((p) => p.length > 0);
  const right = free.map((f) => f.filter((r) => r.x1 > mid)).filter((p) => p.length > 0);
  if (left.length < MIN_COLUMN_LINES || right.length < MIN_COLUMN_LINES) return false;
  const l = chars(left);
  const r = chars(right);
  if (Math.min(l, r) < MIN_COLUMN_SHARE * (l + r)) return false;
  if (filled(left) < MIN_COLUMN_FILL || filled(right) < MIN_COLUMN_FILL) return false;
  const endAtGutter = chars(left.filter((p) => g.g0 - maxX1(p) <= 3 * em)) / l;
  const startAtGutter = chars(right.filter((p) => minX0(p) - g.g1 <= 1.5 * em)) / r;
  if (endAtGutter < MIN_LEFT_ALIGNED || startAtGutter < MIN_RIGHT_ALIGNED) return false;
  const span = (ps: Run[][]) => [Math.min(...ps.map((p) => p[0]!.y)), Math.max(...ps.map((p) => p[0]!.y))];
  const [l0, l1] = span(left);
  const [r0, r1] = span(right);
  return Math.min(l1!, r1!) > Math.max(l0!, r0!);
}

function chars(parts: Run[][]): number {
  return parts.reduce((n, p) => n + p.reduce((m, r) => m + r.str.length, 0), 0);
}

/** Share of the characters of one side that lie in segments at least 60% as wide as that side's text. */
function filled(parts: Run[][]): number {
  const x0 = Math.min(...parts.map(minX0));
  const x1 = Math.max(...parts.map(maxX1));
  let inFull = 0;
  for (const p of parts) {
    const longest = Math.max(...segments(p).map(([a, b]) => b - a));
    if (longest >= 0.6 * (x1 - x0)) inFull += chars([p]);
  }
  return inFull / Math.max(1, chars(parts));
}

/**
 * True when a segment of the flow line covers most of the gutter (a full-width line). Most, not any: the gutter's
 * edges are only as exact as the coverage grid, and a column line may end a hair inside them.
 */
function crosses(f: Run[], g: Gutter): boolean {
  const half = 0.5 * (g.g1 - g.g0);
  return segments(f).some(([x0, x1]) => Math.min(x1, g.g1) - Math.max(x0, g.g0) > half);
}

/**
 * Splits flow lines at the gutter and walks the page top-down: full-width lines end a segment, and each segment
 * is emitted as its left column then its right column (or main column then sidebar).
 */
function columnBlocks(flows: Run[][], g: Gutter): Block[] {
  const mid = (g.g0 + g.g1) / 2;
  const spanning: Run[][] = [];
  const left: Run[][] = [];
  const right: Run[][] = [];
  for (const f of flows) {
    if (crosses(f, g)) spanning.push(f);
    else {
      const l = f.filter((r) => r.x1 <= mid);
      const r = f.filter((x) => x.x1 > mid);
      if (l.length) left.push(l);
      if (r.length) right.push(r);
    }
  }
  const tagged = [
    ...visualLines(spanning).map((line) => ({ line, side: 0 })),
    ...visualLines(left).map((line) => ({ line, side: 1 })),
    ...visualLines(right).map((line) => ({ line, side: 2 })),
  ].sort((a, b) => b.line.y - a.line.y);
  absorbLastLines(tagged);
  const sidebarFirst = sidebarSide(tagged, g);
  const blocks: Block[] = [];
  let seg: Line[][] = [[], [], []];
  const flush = () => {
    const order = sidebarFirst === 1 ? [2, 1] : [1, 2];
    blocks.push({ lines: seg[order[0]!]!, continues: false });
    blocks.push({ lines: seg[order[1]!]!, continues: sidebarFirst === 0 });
    seg = [[], [], []];
  };
  for (const { line, side } of tagged) {
    if (side === 0 && (seg[1]!.length || seg[2]!.length)) flush();
    if (side !== 0 && seg[0]!.length) {
      blocks.push({ lines: seg[0]!, continues: false });
      seg[0] = [];
    }
    seg[side]!.push(line);
  }
  if (seg[0]!.length) blocks.push({ lines: seg[0]!, continues: false });
  flush();
  return blocks;
}

/**
 * A full-width paragraph's short last line does not cross the gutter: a column line right under a full-width line,
 * at its left edge and line spacing, with nothing beside it on the other side, is that last line.
 */
function absorbLastLines(tagged: { line: Line; side: number }[]): void {
  for (let i = 1; i < tagged.length; i++) {
    const prev = tagged[i - 1]!;
    const cur = tagged[i]!;
    if (prev.side !== 0 || cur.side === 0) continue;
    const em = Math.max(prev.line.size, cur.line.size);
    const dy = prev.line.y - cur.line.y;
    if (dy <= 0 || dy > 1.6 * em || Math.abs(cur.line.x0 - prev.line.x0) > em) continue;
    const beside = tagged.some((t) => t.side !== 0 && t.side !== cur.side && Math.abs(t.line.y - cur.line.y) < em);
    if (!beside) cur.side = 0;
  }
}

/** Which side (1 left, 2 right) is a narrow sidebar to read after the main column; 0 when the columns are alike. */
function sidebarSide(tagged: { line: Line; side: number }[], g: Gutter): 0 | 1 | 2 {
  const l = tagged.filter((t) => t.side === 1).map((t) => t.line);
  const r = tagged.filter((t) => t.side === 2).map((t) => t.line);
  const lw = g.g0 - Math.min(...l.map((x) => x.x0));
  const rw = Math.max(...r.map((x) => x.x1)) - g.g1;
  if (lw < SIDEBAR_RATIO * rw) return 1;
  if (rw < SIDEBAR_RATIO * lw) return 2;
  return 0;
}
