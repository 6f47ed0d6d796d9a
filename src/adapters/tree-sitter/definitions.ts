/**
 * Definitions of one parse tree: runs the spec's `definitions` query, nests the matches by their byte ranges to
 * build qualified names (`JSONDecoder.decode`), and answers "which definition encloses this node" for edges.
 */
import type { Node, QueryMatch } from "web-tree-sitter";
import { PegasError } from "../../errors.ts";
import { SYMBOL_KINDS, type ExtractedSymbol, type SymbolKind } from "../../ports/models/symbol-extractor.ts";
import { docstringOf, signatureOf } from "./headers.ts";
import type { LanguageSpec } from "./languages/spec.ts";
import { textOf } from "./text.ts";

/** A definition (kind set) or a naming scope (kind null: Rust `impl`), with its parent in the nesting. */
export interface DefinitionEntry {
  node: Node;
  start: number;
  end: number;
  name: string;
  qualifiedName: string;
  kind: SymbolKind | null;
  parent: DefinitionEntry | null;
  body: Node | null;
}

interface RawDefinition {
  node: Node;
  name: string;
  kind: SymbolKind | null;
  /** Claimed by a `@skip` pattern: not a definition, and later patterns may not make it one. */
  skip: boolean;
  owner: string | null;
  body: Node | null;
  pattern: number;
}

const KINDS = new Set<string>(SYMBOL_KINDS);
/** Kinds whose functions are methods. */
const TYPE_KINDS = new Set<SymbolKind>(["class", "interface", "struct", "enum", "type"]);

/** The definitions of a tree, sorted by start, outer before inner. */
export class DefinitionIndex {
  private constructor(readonly entries: readonly DefinitionEntry[]) {}

  /** Nests the matches of a spec's `definitions` patterns over `source` (the parsed text). */
  static build(matches: readonly QueryMatch[], source: string): DefinitionIndex {
    const raw = new Map<number, RawDefinition>();
    for (const match of matches) {
      const found = readMatch(match, source);
      if (!found) continue;
      const key = found.nameId;
      const seen = raw.get(key);
      if (!seen || seen.pattern > found.def.pattern) raw.set(key, found.def);
    }
    return new DefinitionIndex(nest([...raw.values()].filter((d) => !d.skip)));
  }

  /** The innermost entry containing `node` (a symbol when `symbolsOnly`), or null at module level. */
  enclosing(node: Node, symbolsOnly = true): DefinitionEntry | null {
    const start = node.startIndex;
    const end = node.endIndex;
    let lo = 0;
    let hi = this.entries.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.entries[mid].start <= start) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (let entry = found >= 0 ? this.entries[found] : null; entry; entry = entry.parent) {
      if (entry.end >= end && entry.node.id !== node.id && (!symbolsOnly || entry.kind !== null)) return entry;
    }
    return null;
  }

  /**
   * The symbols, in source order, with signature and docstring per the spec.
   * @param late polled every 64 entries; when it returns true the extraction is abandoned (PegasError LIMIT_EXCEEDED).
   */
  symbols(source: string, spec: LanguageSpec, late: () => boolean = () => false): ExtractedSymbol[] {
    const out: ExtractedSymbol[] = [];
    let n = 0;
    for (const e of this.entries) {
      if (++n % 64 === 0 && late())
        throw new PegasError(
          "LIMIT_EXCEEDED",
          `reading the definitions took too long (${n} of ${this.entries.length} done)`,
        );
      if (e.kind === null) continue;
      const { startPosition: from, endPosition: to } = e.node;
      out.push({
        name: e.name,
        qualifiedName: e.qualifiedName,
        kind: e.kind,
        signature: signatureOf(e.node, e.kind, e.body, source, spec),
        lineStart: from.row + 1,
        // A node that ends at column 0 ends with the previous line's newline.
        lineEnd: to.column === 0 && to.row > from.row ? to.row : to.row + 1,
        docstring: docstringOf(e.node, source, spec),
      });
    }
    return out;
  }
}

function readMatch(match: QueryMatch, source: string): { nameId: number; def: RawDefinition } | null {
  let node: Node | null = null;
  let kind: SymbolKind | null = null;
  let nameNode: Node | null = null;
  let owner: string | null = null;
  let body: Node | null = null;
  let skip = false;
  for (const c of match.captures) {
    if (c.name.startsWith("definition.")) {
      const k = c.name.slice("definition.".length);
      if (!KINDS.has(k)) continue;
      node = c.node;
      kind = k as SymbolKind;
    } else if (c.name === "scope") node = c.node;
    else if (c.name === "skip") {
      node = c.node;
      skip = true;
    } else if (c.name === "name") nameNode = c.node;
    else if (c.name === "owner") owner = textOf(c.node, source);
    else if (c.name === "body") body = c.node;
  }
  if (!node || !nameNode) return null;
  const name = textOf(nameNode, source);
  if (name === "") return null;
  return { nameId: nameNode.id, def: { node, name, kind, owner, body, skip, pattern: match.patternIndex } };
}

/** Longest qualified name kept (characters): deeper nesting keeps its innermost part after "…". */
export const MAX_QUALIFIED_NAME = 500;
/** Longest name kept (characters). */
export const MAX_NAME = 200;

function capQualified(q: string): string {
  return q.length <= MAX_QUALIFIED_NAME ? q : `…${q.slice(q.length - (MAX_QUALIFIED_NAME - 1))}`;
}

function capName(n: string): string {
  return n.length <= MAX_NAME ? n : `${n.slice(0, MAX_NAME - 1)}…`;
}

/** Sorts by start (outer first on ties), assigns parents by containment, then names and method kinds. */
function nest(raw: RawDefinition[]): DefinitionEntry[] {
  raw.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const entries: DefinitionEntry[] = [];
  const stack: DefinitionEntry[] = [];
  for (const r of raw) {
    const start = r.node.startIndex;
    const end = r.node.endIndex;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.end >= end && top.node.id !== r.node.id) break;
      stack.pop();
    }
    const parent = stack.length > 0 ? stack[stack.length - 1] : null;
    const path = [parent?.qualifiedName, r.owner, r.name].filter((p): p is string => !!p);
    const qualifiedName = capQualified(path.join("."));
    let kind = r.kind;
    if (
      kind === "function" &&
      (r.owner !== null || (parent !== null && (parent.kind === null || TYPE_KINDS.has(parent.kind))))
    ) {
      kind = "method";
    }
    const entry: DefinitionEntry = {
      node: r.node,
      start,
      end,
      name: capName(r.name),
      qualifiedName,
      kind,
      parent,
      body: r.body,
    };
    entries.push(entry);
    stack.push(entry);
  }
  return entries;
}
