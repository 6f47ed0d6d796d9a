/**
 * LanguageSpec: everything the tree-sitter extractor needs to know about one language, as data (queries in
 * tree-sitter's S-expression query language) plus a few optional hooks. Adding a language = one file exporting a
 * LanguageSpec + one line in `languages/index.ts`; the engine (`../extractor.ts`) never branches on a language.
 *
 * ## Capture names the engine reads (others, e.g. `@_f` used only by predicates, are ignored)
 *
 * `definitions` — one symbol per match:
 * - `@definition.<kind>` (kind ∈ SymbolKind): the definition node; its rows give the line range, and its nesting
 *   inside other definitions gives the qualified name (`JSONDecoder.decode`). A `function` whose nearest enclosing
 *   definition is a class/interface/struct/enum/type or a `@scope` (or that has an `@owner`) becomes a `method`.
 * - `@name`: the name node (its text is the symbol name).
 * - `@body` (optional): where the signature stops; default the node's `body` field; none → the whole node.
 * - `@owner` (optional): the type a definition belongs to though written outside it (Go `func (r *Reader) Read`,
 *   C++ `void Foo::bar()`): prefixed to its qualified name.
 * - `@scope` with `@name`: a node that contributes a name to the qualified names of the definitions inside it
 *   without being a symbol itself (Rust `impl Foo { … }`).
 * - `@skip` with `@name`: claims that name node for nothing, so later patterns do not define it (JS
 *   `const fs = require("fs")` is an import, not a constant).
 * A name node matched by several patterns keeps the pattern that comes FIRST in the query text: put specific
 * patterns (a function inside a class body, a `@skip`) before general ones.
 *
 * `imports` — one `imports` edge per distinct (statement, module), plus at most one binding per match:
 * - `@import`: the import statement (its line; its enclosing definition is the edge's source).
 * - `@import.module` (required): the module as written; quotes and `<>` are stripped.
 * - `@import.name` (or a `(#set! import.name "default")` property): the imported name; binds `alias ?? name`.
 * - `@import.alias`: the local name. Alone, it binds the whole module under that name (`import numpy as np`).
 * - `@import.whole`: any node; binds the whole module under `spec.wholeModuleBinding(module)` (`import os`).
 * A match with none of name/alias/whole is an edge only (side-effect imports, re-exports, `source lib.sh`).
 * - `(#set! import.relative "true")`: the module is a path relative to the importing file's directory; it is
 *   written `./x` unless it starts with `.` or `/` already (Ruby `require_relative "x"` → `./x`).
 *
 * `calls` — one `calls` edge per match: `@call` (the call node: line, enclosing definition = source),
 * `@callee` (its text is the target: `loads`, `feed`), `@receiver` (optional: the object of a member call,
 * as written: `self`, `this.server`, `json`).
 *
 * `inherits` — one `inherits` edge per match: `@base` (the base as written: `Base`, `io.Reader`); the source is
 * the definition enclosing `@base`, or `@child` (optional: the inheriting type's name node when written outside
 * that type, as in Rust `impl Trait for Type`), qualified through its enclosing definitions.
 */
import type { Node } from "web-tree-sitter";
import type { CodeLanguage, ImportBinding } from "../../../ports/models/symbol-extractor.ts";
import type { GrammarId } from "../grammars.ts";

/** The four query strings of a language (tree-sitter query syntax; capture names as documented above). */
export interface LanguageQueries {
  /** Definitions: `@definition.<kind>`, `@name`, optional `@body`, `@owner`; `@scope` or `@skip` + `@name`. */
  definitions: string;
  /** Imports: `@import`, `@import.module`, optional `@import.name`, `@import.alias`, `@import.whole`. */
  imports?: string;
  /** Calls: `@call`, `@callee`, optional `@receiver`. */
  calls?: string;
  /** Inheritance (extends, implements, embedding): `@base`, optional `@child`. */
  inherits?: string;
}

/** One import match handed to {@link LanguageSpec.importBinding}: texts already normalized, null when absent. */
export interface ImportMatch {
  module: string;
  name: string | null;
  alias: string | null;
  /** True when the match carried `@import.whole`. */
  whole: boolean;
}

/** A language: grammar, file names, queries and optional hooks (all hooks are pure functions of their input). */
export interface LanguageSpec {
  /** The language id (ports/models/symbol-extractor.ts). */
  language: CodeLanguage;
  /** The embedded grammar that parses it (grammars.ts). */
  grammar: GrammarId;
  /** Extensions with the dot (`.py`), compared with the file name's last extension, case-insensitively. */
  extensions: readonly string[];
  /** Whole file names (basename, exact) with no telling extension (`.bashrc`). */
  fileNames?: readonly string[];
  /** Interpreter names that identify the language in a `#!` line (`python3`, `bash`). */
  interpreters?: readonly string[];
  /** The queries (see the module doc for the capture names). */
  queries: LanguageQueries;
  /** Node types that are comments (for leading-comment docstrings). */
  commentTypes: readonly string[];
  /**
   * Node types that wrap a definition (`export_statement`, `decorated_definition`, Go `type_declaration`): the
   * leading comment sits before the wrapper and the signature starts at it (unless it wraps several siblings).
   */
  wrapperTypes?: readonly string[];
  /** Node types skipped before a header and between a doc comment and its definition (decorators, attributes). */
  headerSkipTypes?: readonly string[];
  /** Callee names never reported as calls (shell builtins and the like). */
  ignoredCalls?: ReadonlySet<string>;
  /**
   * The language's own docstring (Python: the body's first string), tried before the leading comment; `source` is
   * the parsed text (slice it with node indices rather than reading `Node.text`, which is slow).
   */
  docstring?: (definition: Node, source: string) => string | null;
  /** The module's own docstring (Python: the file's first statement when it is a string), or null. */
  moduleDocstring?: (root: Node, source: string) => string | null;
  /** Module name from a normalized repository-relative path; default: the path without its extension. */
  moduleName?: (path: string) => string;
  /** Binding for `@import.whole`; default: the last `/`- or `.`-separated segment as the local name. */
  wholeModuleBinding?: (module: string) => ImportBinding | null;
  /** Overrides the default binding rule for every import match; return null for none. */
  importBinding?: (match: ImportMatch) => ImportBinding | null;
}
