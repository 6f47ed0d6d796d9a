/**
 * Signature and docstring of one definition node, by the rules of its LanguageSpec: wrappers (`export`,
 * decorators, Go `type (…)`), header cut at the body, language docstring hook, else the leading comment block.
 */
import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../../ports/models/symbol-extractor.ts";
import type { LanguageSpec } from "./languages/spec.ts";
import { cleanSignature, commentDoc, textOf } from "./text.ts";

/**
 * The outermost node that wraps `def` alone: climbs while the parent's type is one of `spec.wrapperTypes` and the
 * parent holds no other named child of the node's own type (so `const a = …, b = …` keeps each declarator).
 */
export function anchorOf(def: Node, spec: LanguageSpec): Node {
  const wrappers = spec.wrapperTypes ?? [];
  let node = def;
  for (let parent = node.parent; parent && wrappers.includes(parent.type); parent = node.parent) {
    let same = 0;
    for (const child of parent.namedChildren) if (child?.type === node.type) same += 1;
    if (same > 1) break;
    node = parent;
  }
  return node;
}

/** Where a header starts inside `anchor`: after its leading comments and `spec.headerSkipTypes` children. */
function headerStart(anchor: Node, spec: LanguageSpec): number {
  const skip = spec.headerSkipTypes ?? [];
  for (let child = anchor.firstChild; child; child = child.nextSibling) {
    if (!skip.includes(child.type) && !spec.commentTypes.includes(child.type)) return child.startIndex;
  }
  return anchor.startIndex;
}

/**
 * The header of `def` as written, from its anchor's start (decorators skipped) to its body (`body`, else the
 * `body` field, else the end of the node), collapsed and capped; null when empty. A constant's header is its first
 * line only (as ctags shows it): a multi-line value is not a signature.
 */
export function signatureOf(
  def: Node,
  kind: SymbolKind,
  body: Node | null,
  source: string,
  spec: LanguageSpec,
): string | null {
  const anchor = anchorOf(def, spec);
  const start = headerStart(anchor, spec);
  const cut = body ?? def.childForFieldName("body");
  let end = cut && cut.startIndex >= start ? cut.startIndex : def.endIndex;
  if (kind === "constant") {
    const eol = source.indexOf("\n", start);
    if (eol >= 0 && eol < end) end = eol;
  }
  return cleanSignature(withoutComments(anchor, start, end, source, spec));
}

/** Comment markers of the twelve languages: where a comment inside a header can start. */
const COMMENT_MARKER = /#|\/\/|\/\*|--|;|=begin/g;

/**
 * `source[start, end)` without the text of the comment nodes inside it (`def f(): # note` → `def f():`). Each
 * comment marker in the text is looked up in the tree (one `descendantForIndex` each; a marker inside a string is
 * not a comment node), instead of listing the anchor's comment descendants by type name, which costs a scan of
 * the grammar's whole symbol table per call.
 */
function withoutComments(anchor: Node, start: number, end: number, source: string, spec: LanguageSpec): string {
  const text = source.slice(start, end);
  const marker = new RegExp(COMMENT_MARKER);
  let out = "";
  let at = start;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const comment = commentAt(anchor, start + m.index, spec);
    if (!comment || comment.endIndex > end) continue;
    out += `${source.slice(at, comment.startIndex)} `;
    at = comment.endIndex;
    marker.lastIndex = at - start;
  }
  return at === start ? text : out + source.slice(at, end);
}

/** The comment node of `spec` that starts at byte `index` inside `anchor` (its first token may be a child), or null. */
function commentAt(anchor: Node, index: number, spec: LanguageSpec): Node | null {
  for (
    let node = anchor.descendantForIndex(index);
    node && node.startIndex === index && node.id !== anchor.id;
    node = node.parent
  ) {
    if (spec.commentTypes.includes(node.type)) return node;
  }
  return null;
}

/**
 * The docstring of `def`: the spec's own hook first (Python's body string), then the block of comments right
 * above the anchor (no blank line between, none trailing code on its line, not a `#!` line), else null.
 */
export function docstringOf(def: Node, source: string, spec: LanguageSpec): string | null {
  const own = spec.docstring?.(def, source) ?? null;
  if (own !== null) return own;
  const anchor = anchorOf(def, spec);
  return leadingComment(anchor, source, spec) ?? (anchor === def ? null : leadingComment(def, source, spec));
}

function leadingComment(node: Node, source: string, spec: LanguageSpec): string | null {
  const skip = spec.headerSkipTypes ?? [];
  const comments: string[] = [];
  let row = node.startPosition.row;
  for (let sib = node.previousNamedSibling; sib; sib = sib.previousNamedSibling) {
    if (lastRow(sib) < row - 1) break;
    if (skip.includes(sib.type)) {
      row = sib.startPosition.row;
      continue;
    }
    if (!spec.commentTypes.includes(sib.type) || source.startsWith("#!", sib.startIndex)) break;
    const before = sib.previousSibling;
    if (before && lastRow(before) === sib.startPosition.row && !spec.commentTypes.includes(before.type)) break;
    comments.unshift(textOf(sib, source));
    row = sib.startPosition.row;
  }
  return commentDoc(comments);
}

/** The last row holding text of a node (one that ends at column 0 ends with the previous row's newline: `#include`). */
function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}
