/**
 * Pure text helpers of the tree-sitter extractor: whitespace collapsing, capping, comment and docstring
 * cleaning, module specifiers. No tree-sitter types here, so these are tested on plain strings.
 */

/** Longest signature kept (characters), per the SymbolExtractor contract. */
export const MAX_SIGNATURE = 300;
/** Longest docstring kept (characters), per the SymbolExtractor contract. */
export const MAX_DOCSTRING = 2000;
/** Longest receiver kept (characters): enough for `this.server.tools`, not for a chained builder's arguments. */
export const MAX_RECEIVER = 120;

/** Runs of whitespace (newlines included) → one space; trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `text` cut to at most `max` characters, ending with "…" when cut (never splits a surrogate pair). */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * `source[start, end)` collapsed and capped at `max`, without collapsing more than needed: a chained call's
 * receiver can span many lines, and only its first `max` visible characters are kept.
 */
export function excerpt(source: string, start: number, end: number, max: number): string {
  const window = Math.min(end, start + 4 * max);
  const text = collapse(source.slice(start, window));
  return window < end && text.length <= max ? cap(`${text} …`, max) : cap(text, max);
}

/**
 * A header as written, collapsed, without the tokens that open the body or a value (`{`, `(`, `[`, `:`, `=>`,
 * `=`, repeated: `X = {` → `X`) or a final `;`, capped at {@link MAX_SIGNATURE}; null when nothing is left.
 */
export function cleanSignature(header: string): string | null {
  const text = collapse(header)
    .replace(/(?:\s*(?:\{|\(|\[|:|=>|=|;))+$/, "")
    .trim();
  return text === "" ? null : cap(text, MAX_SIGNATURE);
}

/**
 * `inspect.cleandoc`: the first line trimmed, the common indentation of the others removed, blank lines at both
 * ends dropped, trailing spaces of each line dropped.
 */
export function dedent(text: string): string {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+$/, ""));
  let indent = Infinity;
  for (const line of lines.slice(1)) {
    if (line.trim() !== "") indent = Math.min(indent, line.length - line.trimStart().length);
  }
  const out = [lines[0].trim(), ...lines.slice(1).map((l) => (indent === Infinity ? l : l.slice(indent)))];
  while (out.length > 0 && out[0] === "") out.shift();
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

/** A doc text dedented and capped at {@link MAX_DOCSTRING}; null when empty. */
export function finishDoc(text: string): string | null {
  const doc = dedent(text);
  return doc === "" ? null : cap(doc, MAX_DOCSTRING);
}

/**
 * The text of one comment node without its markers: `/** … *\/` and `/* … *\/` (with the ` * ` gutter),
 * `//`, `///`, `//!`, `#`, `--`. The result keeps line breaks and is not yet dedented.
 */
export function stripCommentMarkers(comment: string): string {
  const text = comment.replace(/\r\n?/g, "\n");
  if (text.startsWith("/*")) {
    const body = text.replace(/^\/\*+!?/, "").replace(/\*+\/$/, "");
    return body
      .split("\n")
      .map((line) => line.replace(/^\s*\*(?!\/) ?/, ""))
      .join("\n");
  }
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*(?:\/\/[/!]?|#+|--|;+) ?/, ""))
    .join("\n");
}

/** Several consecutive comments (in source order) as one cleaned doc text, or null. */
export function commentDoc(comments: readonly string[]): string | null {
  if (comments.length === 0) return null;
  return finishDoc(comments.map(stripCommentMarkers).join("\n"));
}

/**
 * A Python string literal's value for a docstring: prefix letters and quotes removed, then cleaned like
 * `inspect.cleandoc`; escape sequences are left as written.
 */
export function pythonDocstring(literal: string): string | null {
  const body = literal.replace(/^[rRuUbBfF]{0,2}/, "").replace(/^("""|'''|"|')([\s\S]*)\1$/, "$2");
  return finishDoc(body);
}

/** A module specifier as written without its quotes (`"./x"`, `'x'`, `` `x` ``) or angle brackets (`<stdio.h>`). */
export function unquote(specifier: string): string {
  const text = specifier.trim();
  if (text.length >= 2) {
    const first = text[0];
    const last = text[text.length - 1];
    if ((first === '"' || first === "'" || first === "`") && last === first) return text.slice(1, -1);
    if (first === "<" && last === ">") return text.slice(1, -1);
  }
  return text;
}

/**
 * The text of a node, sliced from the parsed source (`Node.text` asks web-tree-sitter's text callback, which
 * slices the whole rest of the file for each call).
 */
export function textOf(node: { startIndex: number; endIndex: number }, source: string): string {
  return source.slice(node.startIndex, node.endIndex);
}
