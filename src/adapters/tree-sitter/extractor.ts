/**
 * TreeSitterExtractor: the SymbolExtractor port over web-tree-sitter and the embedded WASM grammars. Parses one
 * file, runs its language's queries (languages/), and returns symbols, dependency edges, import bindings and the
 * count of syntax-error nodes. The parse tree is freed in `finally`, so memory stays flat over any number of files.
 */
import type { Node, QueryMatch } from "web-tree-sitter";
import { PegasError } from "../../errors.ts";
import type { CodeLanguage, ExtractedFile, SymbolExtractor } from "../../ports/models/symbol-extractor.ts";
import { compileLanguage, type QueryPart } from "./compiled.ts";
import { DefinitionIndex } from "./definitions.ts";
import { collectEdges } from "./edges.ts";
import { LANGUAGE_SPECS, languageOfPath } from "./languages/index.ts";
import type { LanguageSpec } from "./languages/spec.ts";

/** Largest source accepted, in UTF-8 bytes (8 MiB), per the SymbolExtractor contract. */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;

/**
 * Time one file may take (ms): 5 s plus 10 s per MiB of source. Hand-written code extracts at megabytes per
 * second; a file that takes longer is pathological (tens of thousands of nested blocks make tree-sitter's query
 * cursor and node parents quadratic) and is reported instead of stalling the walk.
 */
export function extractionBudgetMs(source: string): number {
  return 5000 + (source.length / (1024 * 1024)) * 10_000;
}

function tooSlow(path: string, spec: LanguageSpec, budgetMs: number, stage: string): PegasError {
  return new PegasError(
    "LIMIT_EXCEEDED",
    `extracting '${path}' (${spec.language}) took over ${Math.round(budgetMs / 1000)} s (stopped while ${stage}); it is not stored`,
    {
      hint: "such a file is usually generated or deeply nested; exclude it (--exclude) if it keeps failing",
    },
  );
}

/** The tree-sitter implementation of {@link SymbolExtractor}; stateless apart from process-wide caches. */
export class TreeSitterExtractor implements SymbolExtractor {
  /** The language of a repository-relative path by extension or file name (languages/index.ts), else null. */
  languageOf(path: string): CodeLanguage | null {
    return languageOfPath(path);
  }

  /**
   * Parses `source` (the text of `path`) as `language` and extracts it.
   * @throws PegasError INVALID_INPUT (> 8 MiB), LIMIT_EXCEEDED (over {@link extractionBudgetMs}), UNSUPPORTED_MEDIA
   *   (no spec for `language`), INTERNAL (grammar ABI, a query that does not compile, a parse the runtime refused).
   */
  async extract(path: string, source: string, language: CodeLanguage): Promise<ExtractedFile> {
    const spec = LANGUAGE_SPECS[language];
    if (!spec) {
      const known = Object.keys(LANGUAGE_SPECS).join(", ");
      throw new PegasError(
        "UNSUPPORTED_MEDIA",
        `no tree-sitter grammar is registered for language '${language}' (file '${path}')`,
        {
          hint: `languages with a grammar: ${known}`,
        },
      );
    }
    return extractWithSpec(spec, path, source);
  }
}

/**
 * Extracts `source` (the text of `path`) with `spec` given directly, without the registry: what
 * {@link TreeSitterExtractor.extract} does after its lookup; for tests of a spec not yet registered. The parse tree
 * is freed before it returns. `opts.budgetMs` replaces {@link extractionBudgetMs} (tests).
 * @throws PegasError INVALID_INPUT (> 8 MiB), LIMIT_EXCEEDED (over the time budget), INTERNAL (grammar ABI, a
 *   query that does not compile, no tree).
 */
export async function extractWithSpec(
  spec: LanguageSpec,
  path: string,
  source: string,
  opts: { budgetMs?: number } = {},
): Promise<ExtractedFile> {
  checkSize(path, source);
  const lang = await compileLanguage(spec);
  const budgetMs = opts.budgetMs ?? extractionBudgetMs(source);
  const deadline = performance.now() + budgetMs;
  const late = () => performance.now() > deadline;
  // tree-sitter polls the callback while it parses or runs a query and stops when it returns true (typed as void).
  const progressCallback = late as unknown as () => void;
  const tree = lang.parser.parse(source, null, { progressCallback });
  if (!tree) {
    if (late()) throw tooSlow(path, spec, budgetMs, "parsing");
    throw new PegasError("INTERNAL", `tree-sitter returned no tree for '${path}' (${spec.language})`);
  }
  try {
    const root = tree.rootNode;
    const parts: Record<QueryPart, QueryMatch[]> = { definitions: [], imports: [], calls: [], inherits: [] };
    for (const m of lang.query.matches(root, { progressCallback })) parts[lang.partOf[m.patternIndex]].push(m);
    if (late()) throw tooSlow(path, spec, budgetMs, "querying");
    const defs = DefinitionIndex.build(parts.definitions, source);
    const edges = collectEdges(parts, defs, spec, source);
    if (late()) throw tooSlow(path, spec, budgetMs, "reading");
    return {
      language: spec.language,
      module: moduleNameOf(path, spec),
      symbols: defs.symbols(source, spec, late),
      dependencies: edges.dependencies,
      imports: edges.imports,
      syntaxErrors: countSyntaxErrors(root),
      ...moduleDoc(spec, root, source),
    };
  } finally {
    tree.delete();
  }
}

let shared: TreeSitterExtractor | null = null;

/** The process-wide extractor (grammars and queries are cached per process anyway). */
export function treeSitterExtractor(): TreeSitterExtractor {
  shared ??= new TreeSitterExtractor();
  return shared;
}

/** @throws PegasError INVALID_INPUT when `source` exceeds {@link MAX_SOURCE_BYTES} in UTF-8. */
function checkSize(path: string, source: string): void {
  // UTF-8 needs at most 3 bytes per UTF-16 unit: count exactly only when that bound could exceed the limit.
  if (source.length * 3 <= MAX_SOURCE_BYTES) return;
  const bytes = Buffer.byteLength(source, "utf8");
  if (bytes > MAX_SOURCE_BYTES) {
    throw new PegasError(
      "INVALID_INPUT",
      `source '${path}' is ${bytes} bytes, over the ${MAX_SOURCE_BYTES}-byte limit for code extraction`,
      {
        hint: "skip generated or bundled files; extraction takes hand-written sources up to 8 MiB",
      },
    );
  }
}

/** `{ moduleDoc }` when the spec reads one from the tree, else nothing (the field stays absent). */
function moduleDoc(spec: LanguageSpec, root: Node, source: string): { moduleDoc?: string } {
  const doc = spec.moduleDocstring?.(root, source) ?? null;
  return doc === null ? {} : { moduleDoc: doc };
}

/** A path with `/` separators, no leading `./` or `/`. */
export function normalizePath(path: string): string {
  return path
    .replace(/\\/g, "/")
    .replace(/^(?:\.\/)+/, "")
    .replace(/^\/+/, "");
}

/** The module name of `path`: the spec's hook, else the normalized path without its last extension. */
export function moduleNameOf(path: string, spec: LanguageSpec): string {
  const normal = normalizePath(path);
  if (spec.moduleName) return spec.moduleName(normal);
  return normal.replace(/(?<=[^/])\.[^./]+$/, "");
}

/** ERROR and MISSING nodes in the tree; descends only into subtrees that contain one. */
export function countSyntaxErrors(root: Node): number {
  if (!root.hasError) return 0;
  let count = 0;
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend) {
        if (node.isError || node.isMissing) count += 1;
        if (node.hasError && cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descend = false;
    }
  } finally {
    cursor.delete();
  }
  return count;
}
