/**
 * pdf.js text items → {@link Run}s, and runs → the text of one line. This is where characters are repaired:
 * ligature glyphs expanded, spacing accents drawn over a letter composed with it, and spaces restored between
 * items that pdf.js gives apart with a visible gap but no space character.
 */
import type { Line, Run } from "./types.ts";

/** The part of a pdf.js `TextItem` that the layout reads (marked-content items have no `str`). */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

/** Runs of a page: text in the page's main direction for the layout; other text (stamps, margin notes) in order. */
export interface PageRuns {
  runs: Run[];
  rotated: string[];
}

/** A gap wider than this fraction of the font size between two items is a word space (kerning stays below). */
const SPACE_GAP = 0.15;

const LIGATURES = /[\uFB00-\uFB06]/g;

/** Spacing accents that some producers (PDFlib, old TeX) draw as separate glyphs over the previous letter. */
const SPACING_ACCENTS: Record<string, string> = {
  "\u00B4": "\u0301",
  "`": "\u0300",
  "\u00A8": "\u0308",
  "\u02C6": "\u0302",
  "\u02DC": "\u0303",
  "\u00B8": "\u0327",
  "\u02C7": "\u030C",
  "\u02DA": "\u030A",
  "\u02D8": "\u0306",
  "\u02DD": "\u030B",
};

/** Expands the Unicode ligature code points U+FB00–FB06 ("ﬁ" → "fi") by NFKC; other characters stay as they are. */
export function expandLigatures(s: string): string {
  return s.replace(LIGATURES, (c) => c.normalize("NFKC"));
}

/**
 * Converts pdf.js text items into runs (units of {@link Run}); blank items are dropped (spacing comes from the
 * geometry), soft hyphens inside a run are removed. A page drawn turned by 90°, 180° or 270° (a landscape table
 * on a portrait page) is turned back, so its text is laid out like any other; items at any other angle, or
 * mirrored, go to `rotated` in content order.
 */
export function toRuns(items: readonly unknown[]): PageRuns {
  const texts = items.filter(isTextItem);
  const turn = dominantTurn(texts);
  const cos = Math.round(Math.cos((turn * Math.PI) / 180));
  const sin = Math.round(Math.sin((turn * Math.PI) / 180));
  const runs: Run[] = [];
  const rotated: string[] = [];
  for (const it of texts) {
    const [a, b, c, d, e, f] = it.transform as [number, number, number, number, number, number];
    const str = expandLigatures(it.str).replace(/\u00AD(?!\s*$)/g, "");
    if (angleOf(a, b, c, d) !== turn) {
      rotated.push(str.trim());
      continue;
    }
    const x = e * cos + f * sin;
    const size = Math.hypot(c, d) || it.height || 1;
    runs.push({ str, x0: x, x1: x + Math.max(0, it.width), y: f * cos - e * sin, size, font: it.fontName });
  }
  return { runs, rotated };
}

function isTextItem(raw: unknown): raw is PdfTextItem {
  const it = raw as Partial<PdfTextItem>;
  return typeof it.str === "string" && Array.isArray(it.transform) && it.str.trim() !== "";
}

/** The text direction of a matrix in whole quarter turns (0, 90, 180, 270), or -1 when skewed or mirrored. */
function angleOf(a: number, b: number, c: number, d: number): number {
  if (a * d - b * c <= 0) return -1;
  const deg = (Math.round((Math.atan2(b, a) * 180) / Math.PI) + 360) % 360;
  if (deg % 90 !== 0 && Math.abs(deg - Math.round(deg / 90) * 90) > 1) return -1;
  return (Math.round(deg / 90) * 90) % 360;
}

/** The quarter turn that carries most characters on the page (0 for an ordinary page). */
function dominantTurn(texts: PdfTextItem[]): number {
  const chars = new Map<number, number>();
  for (const it of texts) {
    const [a, b, c, d] = it.transform as number[];
    const turn = angleOf(a!, b!, c!, d!);
    if (turn >= 0) chars.set(turn, (chars.get(turn) ?? 0) + it.str.length);
  }
  let best = 0;
  for (const [turn, n] of chars) if (n > (chars.get(best) ?? 0)) best = turn;
  return best;
}

/** Vertical extent of a run's glyphs, approximated from the font size (descenders ~0.25, ascenders ~0.85). */
export function band(r: Run): [number, number] {
  return [r.y - 0.25 * r.size, r.y + 0.85 * r.size];
}

/** True when two runs sit on one text line: their bands overlap by at least half the smaller band. */
export function sameLine(a: Run, b: Run): boolean {
  const [a0, a1] = band(a);
  const [b0, b1] = band(b);
  const overlap = Math.min(a1, b1) - Math.max(a0, b0);
  return overlap >= 0.5 * Math.min(a1 - a0, b1 - b0);
}

/** Builds a {@link Line} from runs of one baseline band: sorts them left to right and joins their text. */
export function makeLine(runs: Run[]): Line {
  const sorted = [...runs].sort((p, q) => p.x0 - q.x0);
  let main = sorted[0]!;
  for (const r of sorted) if (r.str.length > main.str.length) main = r;
  return {
    runs: sorted,
    x0: sorted[0]!.x0,
    x1: sorted.reduce((m, r) => Math.max(m, r.x1), -Infinity),
    y: main.y,
    size: main.size,
    font: main.font,
    text: lineText(sorted),
  };
}

/** Joins sorted runs: a space where the gap exceeds {@link SPACE_GAP} × font size, accents composed, spaces collapsed. */
function lineText(runs: Run[]): string {
  let out = runs[0]!.str;
  for (let i = 1; i < runs.length; i++) {
    const prev = runs[i - 1]!;
    const cur = runs[i]!;
    const gap = cur.x0 - prev.x1;
    const accent = SPACING_ACCENTS[cur.str[0]!];
    if (accent && gap < 0 && /\p{L}$/u.test(out)) {
      // The accent glyph is drawn back over the last letter: it belongs to that letter.
      out += accent + cur.str.slice(1);
      continue;
    }
    const spaced = /\s$/.test(out) || /^\s/.test(cur.str);
    out += !spaced && gap > SPACE_GAP * Math.min(prev.size, cur.size) ? ` ${cur.str}` : cur.str;
  }
  return out.replace(/\s+/g, " ").trim().normalize("NFC");
}
