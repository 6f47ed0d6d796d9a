/**
 * Tree-aware comment helpers shared by language specs (text.ts stays free of tree-sitter types).
 */
import type { Node } from "web-tree-sitter";
import { commentDoc, textOf } from "../text.ts";

/**
 * The doc text of the `#` comments a grammar hangs before a body node instead of inside it (tree-sitter-python's
 * `block`, tree-sitter-ruby's `body_statement`: `class A:\n    # doc\n    def f(self): …`), for `first`, the body's
 * first named child: the run of comments right above it, one line apart at most, stopping at a comment on the
 * header's own line (`class A:  # note` documents the header). Null when there is none.
 */
export function commentsBeforeBody(body: Node, first: Node, source: string): string | null {
  const comments: string[] = [];
  let row = first.startPosition.row;
  for (let sib = body.previousNamedSibling; sib && sib.type === "comment"; sib = sib.previousNamedSibling) {
    if (sib.endPosition.row < row - 1) break;
    const before = sib.previousSibling;
    if (before && before.endPosition.row === sib.startPosition.row) break;
    comments.unshift(textOf(sib, source));
    row = sib.startPosition.row;
  }
  return commentDoc(comments);
}
