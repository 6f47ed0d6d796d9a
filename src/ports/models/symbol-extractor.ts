/**
 * SymbolExtractor port: source file → code symbols and dependency edges, by tree-sitter grammars (web-tree-sitter
 * with WASM grammars embedded in the executable: src/adapters/tree-sitter/). Pure extraction: names are as written
 * in the file; resolving a dependency's target to a stored symbol is the store's job (same file, imported name,
 * same package). Errors: PegasError UNSUPPORTED_MEDIA (no grammar for the language), INTERNAL (a grammar whose ABI
 * the runtime cannot load: the message names the grammar and both versions).
 */

/** The twelve languages with a grammar. */
export const CODE_LANGUAGES = [
  "python",
  "javascript",
  "typescript",
  "tsx",
  "go",
  "rust",
  "java",
  "c",
  "cpp",
  "c_sharp",
  "ruby",
  "bash",
] as const;
/** A language with a grammar. */
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/** Symbol kinds of `pm_code_symbol.kind`. */
export const SYMBOL_KINDS = [
  "function",
  "method",
  "class",
  "interface",
  "struct",
  "enum",
  "module",
  "constant",
  "type",
] as const;
/** A symbol kind. */
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** Dependency kinds extraction produces (`pm_code_dependency.kind`). */
export type DependencyKind = "imports" | "calls" | "inherits";

/**
 * One definition. `qualifiedName` is the dotted path inside the file's module (`JSONDecoder.decode`,
 * `HTMLParser.feed`; a top-level function is its own name); lines are 1-based and inclusive; `signature` is the
 * definition's header as written (up to the body, whitespace collapsed, ≤ 300 chars); `docstring` the docstring
 * or the leading comment block, trimmed (≤ 2000 chars), null when absent.
 */
export interface ExtractedSymbol {
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  signature: string | null;
  lineStart: number;
  lineEnd: number;
  docstring: string | null;
}

/**
 * One dependency edge. The source is a symbol of this file (by qualified name) or the file's module itself (for
 * top-level imports and calls). `target` is the name as written: for imports the module specifier (`json.decoder`,
 * `./tools/search`, `fmt`), for calls the callee expression's name (`loads`, `json.loads`, `self.feed` → `feed`
 * with `receiver` "self"), for inherits the base's name (`Base`, `io.Reader`). `line` is 1-based.
 */
export interface ExtractedDependency {
  kind: DependencyKind;
  from: { symbol: string } | { module: true };
  target: string;
  /** For calls through an object (`obj.method()`): the receiver as written (`self`, `this`, `json`); else absent. */
  receiver?: string;
  line: number;
}

/** A name bound by an import: `local` in this file refers to `name` (or the whole module when null) in `module`. */
export interface ImportBinding {
  local: string;
  module: string;
  name: string | null;
}

/** What a file holds. `module` is its module name from its repository-relative path (`json/decoder`, `src/mcp/server`). */
export interface ExtractedFile {
  language: CodeLanguage;
  module: string;
  symbols: ExtractedSymbol[];
  dependencies: ExtractedDependency[];
  imports: ImportBinding[];
  /** Syntax error nodes in the parse tree (the file is still extracted as far as it parses). */
  syntaxErrors: number;
  /** The module's own docstring where the language has one (Python), trimmed and capped like a symbol's; else absent. */
  moduleDoc?: string;
}

/** The extractor. */
export interface SymbolExtractor {
  /** The language of a repository-relative path by its extension or name, or null when none has a grammar. */
  languageOf(path: string): CodeLanguage | null;
  /**
   * Parses and extracts one file; the parse tree is freed before it returns, whatever happens.
   * @throws PegasError UNSUPPORTED_MEDIA, INTERNAL (grammar ABI), INVALID_INPUT (source too large: > 8 MiB).
   */
  extract(path: string, source: string, language: CodeLanguage): Promise<ExtractedFile>;
  /** Releases threads or other resources, when the implementation holds any; later `extract` calls fail. */
  close?(): Promise<void>;
}
