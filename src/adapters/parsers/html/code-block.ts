/**
 * `<pre>` → fenced Markdown code blocks: the block's text with its whitespace, a fence of backticks longer than
 * any backtick run inside, and the language (when the page names one) as the info string. The language comes from
 * the classes highlighters and Markdown renderers write: `language-js`, `lang-js`, `highlight-source-js`,
 * `brush: js`, `sourceCode js`, on the `<pre>`, its `<code>` child or the two ancestors above it (Rouge puts
 * `language-bash` on a wrapping div). Readability strips classes, so {@link markCodeLanguages} copies the language
 * to a data attribute before it runs. Long blocks are cut at line ends into pieces of at most
 * {@link BLOCK_PIECE_CHARS}, each fenced again with the same language, so chunking never separates code from its
 * fence (see block-text.ts).
 */
import type { TextNodeLike } from "./text-node.ts";

/**
 * Most characters in one emitted block (fences, caption and header included, unless a single line is longer).
 * At the default chunk size (1200) the chunker cuts within [600, 1560] of a chunk's start and prefers blank lines,
 * so blocks this short, set off by blank lines, always have a blank line in reach and are never cut.
 */
export const BLOCK_PIECE_CHARS = 800;

/** The attribute {@link markCodeLanguages} writes: it survives Readability, which strips classes. */
export const LANG_ATTRIBUTE = "data-pegas-lang";

const CLASS_PATTERNS = [/^(?:language|lang)-([\w+#.-]+)$/i, /^highlight-(?:source-)?([\w+#.-]+)$/i];
/** Class-like names that say "highlighted" or "plain", not which language. */
const NOT_A_LANGUAGE = new Set(["none", "text", "plain", "plaintext", "txt", "nohighlight", "rouge", "highlight"]);

function clean(lang: string | undefined): string | null {
  const l = (lang ?? "").toLowerCase();
  return /^[a-z0-9][\w+#.-]{0,29}$/.test(l) && !NOT_A_LANGUAGE.has(l) ? l : null;
}

/** The language one element's class attribute names, or null. */
function fromClasses(el: TextNodeLike): string | null {
  const cls = el.getAttribute?.("class") ?? "";
  if (!cls) return null;
  const brush = /\bbrush:\s*([\w+#.-]+)/i.exec(cls);
  if (brush) return clean(brush[1]);
  const words = cls.split(/\s+/);
  if (words[0] === "sourceCode" && words[1]) return clean(words[1]);
  for (const w of words) {
    for (const p of CLASS_PATTERNS) {
      const found = clean(p.exec(w)?.[1]);
      if (found) return found;
    }
  }
  return null;
}

function firstElementChild(node: TextNodeLike): TextNodeLike | null {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1) return c;
    if (c.nodeType === 3 && (c.textContent ?? "").trim()) return null;
  }
  return null;
}

/** The language of a `<pre>` (lower case, e.g. "js", "c++"), or null when the page does not name one. */
export function codeLanguage(pre: TextNodeLike): string | null {
  const marked = clean(pre.getAttribute?.(LANG_ATTRIBUTE) ?? undefined);
  if (marked) return marked;
  const code = firstElementChild(pre);
  const candidates = [
    pre,
    code?.nodeName.toLowerCase() === "code" ? code : null,
    pre.parentNode,
    pre.parentNode?.parentNode,
  ];
  for (const el of candidates) {
    const lang = el && el.nodeType === 1 ? fromClasses(el) : null;
    if (lang) return lang;
  }
  return null;
}

/** A document whose `<pre>` elements can be listed and marked. */
export interface MarkableDoc {
  querySelectorAll(sel: string): ArrayLike<TextNodeLike & { setAttribute(name: string, value: string): void }>;
}

/** Copies every `<pre>`'s language into {@link LANG_ATTRIBUTE}; returns how many were marked. */
export function markCodeLanguages(doc: MarkableDoc): number {
  const pres = doc.querySelectorAll("pre");
  let marked = 0;
  for (let i = 0; i < pres.length; i++) {
    const lang = codeLanguage(pres[i]);
    if (lang) {
      pres[i].setAttribute(LANG_ATTRIBUTE, lang);
      marked++;
    }
  }
  return marked;
}

/** Elements that start and end a line inside `<pre>` (some highlighters wrap each line in a div). */
const LINE_ELEMENTS = new Set(["div", "p", "li", "tr"]);
const NOT_TEXT = new Set(["script", "style", "template", "button", "svg"]);

/**
 * The text of a `<pre>` as rendered: whitespace kept, `<br>` and line wrappers as newlines; iterative walk.
 * A `<p>` inside starts after a blank line: Readability turns a run of `<br>`s (a blank line in code) into one.
 */
export function preText(pre: TextNodeLike): string {
  let out = "";
  const newline = (): void => {
    if (out && !out.endsWith("\n")) out += "\n";
  };
  const enter = (node: TextNodeLike): boolean => {
    if (node.nodeType === 3 || node.nodeType === 4) out += node.textContent ?? "";
    if (node.nodeType !== 1) return false;
    const name = node.nodeName.toLowerCase();
    if (name === "br") out += "\n";
    if (LINE_ELEMENTS.has(name)) newline();
    if (name === "p" && out && !out.endsWith("\n\n")) out += "\n";
    return !NOT_TEXT.has(name) && !node.hasAttribute?.("hidden") && node.firstChild !== null;
  };
  const leave = (node: TextNodeLike): void => {
    if (node.nodeType === 1 && LINE_ELEMENTS.has(node.nodeName.toLowerCase())) newline();
  };
  let node = pre.firstChild;
  while (node) {
    if (enter(node)) {
      node = node.firstChild!;
      continue;
    }
    leave(node);
    while (!node.nextSibling) {
      node = node.parentNode;
      if (!node || node === pre) return tidy(out);
      leave(node);
    }
    node = node.nextSibling;
  }
  return tidy(out);
}

/** Leading blank lines and trailing whitespace go; indentation of the first line stays; CR and NBSP normalized. */
function tidy(code: string): string {
  return code
    .replace(/\r\n?/g, "\n")
    .replace(/\u00a0/g, " ")
    .replace(/^(?:[ \t]*\n)+/, "")
    .trimEnd();
}

/** Where to cut `lines` (total `size` characters): after the last blank line in the later half, else after all. */
function cutPoint(lines: string[], size: number, budget: number): number {
  let tail = 0;
  for (let i = lines.length - 1; i > 0; i--) {
    tail += lines[i].length + 1;
    if (size - tail < budget / 2) break;
    if (!lines[i].trim()) return i;
  }
  return lines.length;
}

/**
 * Cuts code into pieces of at most `budget` characters at line ends (a longer single line is a piece of its own),
 * preferring a blank line in the later half of a piece; blank lines at piece edges go. Linear in the code length.
 */
export function splitLines(code: string, budget: number): string[] {
  const pieces: string[] = [];
  let lines: string[] = [];
  let size = 0;
  const emit = (upto: number): void => {
    const piece = lines
      .slice(0, upto)
      .join("\n")
      .replace(/^(?:[ \t]*\n)+/, "")
      .trimEnd();
    if (piece.trim()) pieces.push(piece);
    lines = lines.slice(upto);
    size = lines.reduce((n, l) => n + l.length + 1, 0);
  };
  for (const line of code.split("\n")) {
    if (lines.length && size + line.length + 1 > budget) emit(cutPoint(lines, size, budget));
    lines.push(line);
    size += line.length + 1;
  }
  emit(lines.length);
  return pieces;
}

/** A `<pre>` as fenced blocks (one per piece), or [] when it holds no text. */
export function fencedCode(pre: TextNodeLike): string[] {
  const code = preText(pre);
  if (!code.trim()) return [];
  const longest = (code.match(/`{3,}/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = "`".repeat(Math.max(3, longest + 1));
  const open = `${fence}${codeLanguage(pre) ?? ""}`;
  const budget = Math.max(80, BLOCK_PIECE_CHARS - open.length - fence.length - 2);
  return splitLines(code, budget).map((piece) => `${open}\n${piece}\n${fence}`);
}
