/**
 * DOM → plain text with paragraph structure: every block element (HTML Living Standard "flow" containers such
 * as p, div, h1–h6, li, tr, blockquote, pre) becomes its own paragraph, paragraphs are separated by a blank line,
 * `<br>` is a line break, other whitespace collapses as a browser renders it. Structure a reader (and the
 * heuristic distiller) needs is written as Markdown: `<pre>` as a fenced code block with its language
 * (code-block.ts), a data `<table>` as a Markdown table with its caption and header (markdown-table.ts; layout
 * tables stay one paragraph per row, cells joined by " | "). Script, style and other non-text elements are
 * dropped. Used for web pages (Readability's article element or the body) and EPUB chapters (XHTML bodies).
 * The walk is iterative: hostile deep nesting cannot overflow the stack.
 */
import { fencedCode } from "./code-block.ts";
import { markdownTable } from "./markdown-table.ts";

export type { TextNodeLike } from "./text-node.ts";
import type { TextNodeLike } from "./text-node.ts";

/** Elements that start and end a paragraph. */
const BLOCK = new Set(
  (
    "address article aside blockquote body caption center dd details dialog dir div dl dt fieldset figcaption figure " +
    "footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li main menu nav ol p pre section summary table tbody " +
    "thead tfoot tr ul"
  ).split(" "),
);

/** Elements whose content is never text for a reader. */
const ALWAYS_SKIPPED = new Set(
  "script style noscript template head title iframe object embed svg canvas audio video map select textarea button".split(
    " ",
  ),
);

/** Options of {@link blockText}. */
export interface BlockTextOptions {
  /** More element names (lower case) to drop with their content, e.g. nav/header/footer for a body fallback. */
  skip?: ReadonlySet<string>;
}

/** Options of the walk itself: table cells are read flat (no fences, no nested Markdown) and show image alt text. */
interface WalkOptions extends BlockTextOptions {
  cell?: boolean;
}

/** An image's alt text, unless it is only a file name (MediaWiki's default alt for a logo). */
function altText(node: TextNodeLike): string {
  const alt = (node.getAttribute?.("alt") ?? "").trim();
  return /^[^/]{1,120}\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?|ico)$/i.test(alt) ? "" : alt;
}

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

/** Accumulates inline text of the current paragraph and the finished paragraphs. */
class Paragraphs {
  readonly blocks: string[] = [];
  private buf = "";

  text(data: string): void {
    // NBSP is layout glue in HTML; as stored text it only hides word boundaries from full-text search.
    this.buf += data.replace(/[\t\n\f\r \u00a0]+/g, " ");
  }

  raw(s: string): void {
    this.buf += s;
  }

  /** Separates table cells in a row: " | " after the previous cell, nothing before the first. */
  cell(): void {
    // A loop, not /[ \t]+$/: that pattern is quadratic on long whitespace runs.
    let end = this.buf.length;
    while (end > 0 && (this.buf[end - 1] === " " || this.buf[end - 1] === "\t")) end--;
    if (end > 0 && this.buf[end - 1] !== "\n") this.buf = `${this.buf.slice(0, end)} | `;
  }

  flush(): void {
    const t = this.buf.replace(/ *\n */g, "\n").trim();
    if (t) this.blocks.push(t);
    this.buf = "";
  }

  /** Ends the current paragraph and adds finished blocks (fenced code, Markdown tables) as paragraphs. */
  blocksOf(blocks: string[]): void {
    this.flush();
    this.blocks.push(...blocks);
  }
}

function nameOf(node: TextNodeLike): string {
  return node.nodeName.toLowerCase();
}

function skipped(node: TextNodeLike, name: string, extra: ReadonlySet<string> | undefined): boolean {
  return ALWAYS_SKIPPED.has(name) || !!extra?.has(name) || !!node.hasAttribute?.("hidden");
}

/** A table cell's (or caption's) paragraphs, read flat with image alt text. */
function cellParagraphs(opts: WalkOptions): (cell: TextNodeLike) => string[] {
  return (cell) => walk(cell, { ...opts, cell: true });
}

/** Renders `<pre>` and data tables as whole blocks; true when `node` was rendered (its subtree is done). */
function rendered(node: TextNodeLike, name: string, out: Paragraphs, opts: WalkOptions): boolean {
  if (opts.cell) return false;
  if (name === "pre") {
    out.blocksOf(fencedCode(node));
    return true;
  }
  if (name !== "table") return false;
  const md = markdownTable(node, cellParagraphs(opts));
  if (md) out.blocksOf(md);
  return md !== null;
}

function enter(node: TextNodeLike, out: Paragraphs, opts: WalkOptions): boolean {
  if (node.nodeType === TEXT || node.nodeType === CDATA) {
    out.text(node.textContent ?? "");
    return false;
  }
  if (node.nodeType !== ELEMENT) return false;
  const name = nameOf(node);
  if (skipped(node, name, opts.skip) || rendered(node, name, out, opts)) return false;
  if (name === "br") out.raw("\n");
  else if (name === "img" && opts.cell) out.text(` ${altText(node)} `);
  else if (name === "td" || name === "th") out.cell();
  else if (BLOCK.has(name)) out.flush();
  return true;
}

function leave(node: TextNodeLike, out: Paragraphs, opts: WalkOptions): void {
  if (node.nodeType !== ELEMENT) return;
  const name = nameOf(node);
  if (BLOCK.has(name) && !skipped(node, name, opts.skip)) out.flush();
}

/**
 * The text under `root` as paragraphs (blank-line separated, LF newlines, no leading/trailing blanks).
 * `root` itself is not a boundary; pass the body or an article element.
 */
export function blockText(root: TextNodeLike, opts: BlockTextOptions = {}): string {
  return blockParagraphs(root, opts).join("\n\n");
}

/** Like {@link blockText}, but the paragraphs as an array. */
export function blockParagraphs(root: TextNodeLike, opts: BlockTextOptions = {}): string[] {
  return walk(root, opts);
}

function walk(root: TextNodeLike, opts: WalkOptions): string[] {
  const out = new Paragraphs();
  let node = root.firstChild;
  while (node) {
    if (enter(node, out, opts) && node.firstChild) {
      node = node.firstChild;
      continue;
    }
    leave(node, out, opts);
    while (!node.nextSibling) {
      node = node.parentNode;
      if (!node || node === root) {
        out.flush();
        return out.blocks;
      }
      leave(node, out, opts);
    }
    node = node.nextSibling;
  }
  out.flush();
  return out.blocks;
}
