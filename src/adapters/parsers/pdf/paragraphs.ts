/**
 * Ordered lines → paragraphs. A line break inside a paragraph becomes a space (or nothing, after an end-of-line
 * hyphen that splits a word); a paragraph boundary, found from the geometry (vertical gap, indentation, a short
 * last line, a change of font or size), becomes a blank line.
 */
import type { Block, Line, PageLayout } from "./types.ts";

/** Lower-cased words of a document, with and without hyphens, as seen inside its lines (not at their ends). */
export type Vocabulary = Set<string>;

/** Prefixes and suffixes that keep their hyphen in English compounds when the document gives no evidence. */
const KEEP_PREFIX = new Set([
  "non",
  "self",
  "well",
  "long",
  "short",
  "high",
  "low",
  "full",
  "half",
  "all",
  "ex",
  "cross",
]);
const KEEP_SUFFIX = new Set(["based", "related", "specific", "dependent", "induced", "associated", "mediated", "like"]);

const WORD = /[\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*/gu;
/** A word fragment ending the line with a hyphen (ASCII, U+2010 or a soft hyphen). */
const END_HYPHEN = /(\p{L}+)([-\u2010\u00AD])$/u;

interface Stats {
  margin: number;
  right: number;
  leading: number | null;
}

/** Collects the vocabulary of laid-out pages; a word hyphenated at a line end is left out (it is the unknown). */
export function buildVocabulary(pages: Iterable<PageLayout>): Vocabulary {
  const vocab: Vocabulary = new Set();
  for (const page of pages) {
    for (const block of page.blocks) {
      for (const line of block.lines) {
        const text = line.text.replace(/\S*[-\u2010\u00AD]$/u, "");
        for (const m of text.matchAll(WORD)) {
          const w = m[0].toLowerCase().replaceAll("\u2010", "-");
          vocab.add(w);
          const parts = w.split("-");
          if (parts.length > 1) for (const p of parts) vocab.add(p);
          for (let i = 1; i < parts.length; i++) vocab.add(`${parts[i - 1]}-${parts[i]}`);
        }
      }
    }
  }
  return vocab;
}

/** The text of a laid-out page: paragraphs separated by a blank line; empty when the page has no text. */
export function pageText(page: PageLayout, vocab: Vocabulary): string {
  const paragraphs: string[] = [];
  let prev: { line: Line; stats: Stats } | null = null;
  for (const block of page.blocks) {
    if (block.rotated) {
      paragraphs.push(block.lines.map((l) => l.text).join(" "));
      prev = null;
      continue;
    }
    const stats = blockStats(block);
    block.lines.forEach((line, i) => {
      const sameBlock = i > 0;
      const cont = prev !== null && (sameBlock || block.continues);
      if (cont && !startsParagraph(prev!.line, prev!.stats, line, stats, sameBlock)) {
        paragraphs[paragraphs.length - 1] = joinLines(paragraphs[paragraphs.length - 1]!, line.text, vocab);
      } else paragraphs.push(line.text);
      prev = { line, stats };
    });
  }
  return paragraphs.filter((p) => p !== "").join("\n\n");
}

/** Left margin (most frequent line start), right edge and line spacing (median baseline step) of a block. */
function blockStats(block: Block): Stats {
  const counts = new Map<number, number>();
  for (const l of block.lines) counts.set(Math.round(l.x0), (counts.get(Math.round(l.x0)) ?? 0) + 1);
  let margin = Infinity;
  let most = 0;
  for (const [x, n] of counts) if (n > most || (n === most && x < margin)) [margin, most] = [x, n];
  const steps: number[] = [];
  for (let i = 1; i < block.lines.length; i++) {
    const a = block.lines[i - 1]!;
    const dy = a.y - block.lines[i]!.y;
    if (dy > 0 && dy < 3 * a.size) steps.push(dy);
  }
  steps.sort((a, b) => a - b);
  const right = Math.max(...block.lines.map((l) => l.x1));
  return { margin, right, leading: steps.length ? steps[Math.floor(steps.length / 2)]! : null };
}

/** Decides whether `cur` opens a new paragraph after `prev`; `sameBlock` enables the vertical-gap rule. */
function startsParagraph(prev: Line, ps: Stats, cur: Line, cs: Stats, sameBlock: boolean): boolean {
  const em = Math.max(prev.size, cur.size);
  if (Math.abs(prev.size - cur.size) > 0.15 * em) return true;
  const prevShort = prev.x1 < ps.margin + 0.8 * (ps.right - ps.margin);
  // A change of font after a short line: a heading. (Not before one: a reference's last line is often a short
  // italic journal name after a full line; a heading after a full line is found by its vertical gap.)
  if (prev.font !== cur.font && prevShort) return true;
  if (sameBlock) {
    const dy = prev.y - cur.y;
    // Blocks mix sizes (a title above an abstract): never call a gap of less than 1.5 font sizes a paragraph gap.
    if (dy > Math.max(1.5 * em, cs.leading ? 1.3 * cs.leading + 0.5 : 0)) return true;
  }
  const ended = /[.!?:]["”’)]?$/u.test(prev.text);
  if (prevShort && ended) return true;
  // A much shorter line without closing punctuation above a line at the margin: a run-in heading.
  if (!ended && prev.x1 < ps.margin + 0.6 * (ps.right - ps.margin) && Math.abs(cur.x0 - cs.margin) < 0.6 * em)
    return true;
  const indented = cur.x0 - cs.margin > 0.6 * em && cur.x0 - prev.x0 > 0.5 * em;
  if (indented && (ended || prevShort)) return true;
  // Hanging indent (reference lists): an entry's first line sticks out to the left of the one before.
  return cs.margin - cur.x0 > 0.6 * em && prev.x0 - cur.x0 > 0.6 * em;
}

/** Joins the next line to a paragraph: drops a word-splitting hyphen, keeps compounds, glues broken URLs. */
export function joinLines(para: string, next: string, vocab: Vocabulary): string {
  const m = END_HYPHEN.exec(para);
  if (m) {
    const head = para.slice(0, para.length - 1);
    if (m[2] === "\u00AD") return head + next;
    const b = /^\p{L}+/u.exec(next)?.[0];
    const compound = /[-\u2010]\p{L}+[-\u2010]$/u.test(para);
    if (b && /^\p{Ll}/u.test(b) && !keepsHyphen(m[1]!, b, compound, vocab)) return head + next;
    if (b || /^\p{N}/u.test(next)) return para + next;
  }
  if (/(?:^|\s)(?:https?:|www\.)\S*[/.\-_=&?#]$/.test(para) && !/^\p{Lu}\p{Ll}/u.test(next)) return para + next;
  // "and/" + "or", "HIV/" + "AIDS": slashes join words without spaces.
  if (/\p{L}\/$/u.test(para) && /^\p{L}/u.test(next)) return para + next;
  return `${para} ${next}`;
}

/**
 * True when "a-b" split at the hyphen is a compound whose hyphen stays; false when it is one word "ab". The
 * document's own usage decides first; then a hyphen earlier in the same compound ("state-of-" + "the-art"),
 * prefixes and suffixes that keep their hyphen, and two parts that the document uses as words of their own.
 */
function keepsHyphen(a: string, b: string, compound: boolean, vocab: Vocabulary): boolean {
  const solid = (a + b).toLowerCase();
  if (vocab.has(solid)) return false;
  if (vocab.has(`${a}-${b}`.toLowerCase()) || compound) return true;
  if (KEEP_PREFIX.has(a.toLowerCase()) || KEEP_SUFFIX.has(b.toLowerCase())) return true;
  // Long parts only: "some-thing" or "More-over" are split words even when "some" and "over" are words.
  return a.length >= 5 && b.length >= 5 && vocab.has(a.toLowerCase()) && vocab.has(b.toLowerCase());
}
