/**
 * CodeStore port: the canonical code memory (issue 6) — per-repository files with content hashes, symbols
 * (`pm_code_symbol`), dependencies (`pm_code_dependency`), code atoms linked `defines` to their symbols, lexical
 * symbol search and the SQL side of `memory_code_graph`. Adapter: src/adapters/sql/code/store.ts (PostgreSQL and
 * PGlite alike). Every write that belongs together is one transaction with its outbox rows. Errors: PegasError
 * INVALID_INPUT, NOT_FOUND, STORE_UNAVAILABLE, MIGRATION_REQUIRED, never a driver error.
 */
import type { Locator } from "../../domain/locator.ts";
import type { AtomInput } from "./atom-writes.ts";
import type { CodeLanguage, ExtractedFile, ExtractedSymbol, SymbolKind } from "../models/symbol-extractor.ts";

/** A repository's registration: its `code_repo` document (uri `file://<root>` or the given name). */
export interface CodeRepoInput {
  /** Repository key stored in every row: the given name, or the absolute root path. */
  repo: string;
  /** Document uri. */
  uri: string;
  /** Absolute, real path of the walked directory. */
  root: string;
  title: string;
}

/** A registered repository. */
export interface CodeRepo {
  repo: string;
  docId: number;
  docVersion: number;
}

/** What the store keeps of a file between runs. */
export interface StoredCodeFile {
  path: string;
  language: string;
  contentHash: string;
  status: "parsed" | "skipped" | "failed";
  /** Why a skipped file was skipped (`binary`, `generated`), or why a file failed; null for a parsed file. */
  error: string | null;
  /** Syntax error nodes of a parsed file. */
  syntaxErrors: number;
}

/** A code atom planned for a symbol of a file: the atom (vector empty when its content hash already exists) and its citation. */
export interface CodeAtomInput {
  /** The symbol it `defines`, by its key within the file. */
  symbol: { qualifiedName: string; kind: SymbolKind; lineStart: number };
  atom: AtomInput;
  /** `{href: path, line_start, line_end}` and the signature line as quote. */
  citation: { locator: Locator; quote: string };
}

/**
 * One file's new state. `parsed` carries the extraction (and its code atoms); `skipped` and `failed` carry none,
 * so the file's previous symbols, dependencies and atoms are removed; `error` says why (≤ 500 chars).
 */
export interface CodeFileWrite {
  path: string;
  language: CodeLanguage;
  contentHash: string;
  /** Bytes. */
  byteSize: number;
  /** Lines of the file (the module symbol's range); 1 for an empty file. */
  lineCount: number;
  status: "parsed" | "skipped" | "failed";
  error: string | null;
  extracted: ExtractedFile | null;
  atoms: CodeAtomInput[];
}

/** What one commit wrote. */
export interface CodeCommitResult {
  symbols: number;
  dependencies: number;
  atomsCreated: number;
  /** Atoms whose content was already stored (the citation and link were added). */
  atomsExisting: number;
  /** Code atoms left without a symbol that defines them (status `stale`). */
  atomsStaled: number;
}

/** Outcome of a resolution pass; `unresolved` and `resolvedTotal` count the whole repository afterwards. */
export interface ResolveOutcome {
  /** Edges examined. */
  examined: number;
  /** Edges this pass resolved to a symbol. */
  resolved: number;
  resolvedTotal: number;
  unresolved: number;
}

/** A symbol search. `limit` 1..100. */
export interface CodeSearchQuery {
  query: string;
  kind?: SymbolKind[];
  language?: string[];
  repo?: string;
  limit: number;
}

/** A stored symbol: an extracted one with its id and place. Lines are 1-based, inclusive. */
export interface CodeSymbolRow extends ExtractedSymbol {
  id: number;
  repo: string;
  path: string;
  language: string;
  /** True for the module symbol that stands for a whole file (qualified name = its module name). */
  file: boolean;
}

/**
 * A search hit. `match` says where the query matched: `qualified_name` for a dotted query ending the symbol's
 * module-qualified name (score 5–5.999), `name` (the whole name, 3.5–4.999), `qualified_name` (2.5–3.999), `text`
 * (every query word, as written, among the words of name, qualified name, signature or docstring: score 0.5 +
 * 0.5 · name words + weighted rank · 0.499, where name words is 2 when the name's words are exactly the query's, 1
 * when the name holds every query word whole, else 0: 0.5–1.999), `stem` (only through stems, Russian or English
 * inflections: score = weighted rank · 0.499) or `trigram` (fallback: score = trigram similarity / 2). Hits are
 * ordered by score, except that trigram hits always come last.
 */
export interface CodeSearchHit extends CodeSymbolRow {
  score: number;
  match: "name" | "qualified_name" | "text" | "stem" | "trigram";
}

/**
 * The edge kinds of a code graph that are always valid in `memory_code_graph`'s `kinds`: what extraction writes
 * (imports, calls, inherits) and a code atom's link to its symbol (defines). Any other kind is valid only where some
 * edge has it (memory_link and inference add edges of any token kind): see {@link CodeStore.unknownEdgeKinds}.
 */
export const STANDARD_EDGE_KINDS = ["imports", "calls", "inherits", "defines"] as const;

/**
 * A symbol found by reference. `overloads` counts the rows of its (path, qualified name, kind) — several for an
 * overloaded function or method, whose first declaration (by line) this is; 1 otherwise.
 */
export interface FoundSymbol extends CodeSymbolRow {
  overloads: number;
}

/** A dependency edge as the graph tool shows it. */
export interface CodeEdgeRow {
  id: number;
  kind: string;
  srcSymbolId: number;
  srcQualifiedName: string;
  dstSymbolId: number | null;
  /** The target as written (resolved or not). */
  dstName: string;
  dstPath: string | null;
  dstQualifiedName: string | null;
  line: number | null;
  confidence: number;
}

/** Repository overview for `memory_code_graph` without a symbol. Lists are cut at the query's limits. */
export interface CodeRepoSummary {
  files: { total: number; parsed: number; failed: number; skipped: number };
  symbols: { total: number; byKind: Record<string, number>; byLanguage: Record<string, number> };
  dependencies: Record<string, { resolved: number; unresolved: number }>;
  /** Symbols with the most resolved incoming edges (any kind but imports), most first. */
  mostDependedOn: Array<{ symbol: CodeSymbolRow; dependents: number }>;
  /** Module (file) import edges inside the repository, by importer path then imported path. */
  moduleImports: Array<{ from: string; to: string }>;
  /** Import targets outside the repository (unresolved), most imported first. */
  externalImports: Array<{ name: string; importers: number }>;
}

/** The code store. */
export interface CodeStore {
  /**
   * Registers (or finds) the repository's `code_repo` document. INVALID_INPUT when `repo` was stored from another
   * root (its files would be removed).
   */
  openRepo(input: CodeRepoInput): Promise<CodeRepo>;
  /** Every stored file of `repo` with its content hash. */
  storedFiles(repo: string): Promise<StoredCodeFile[]>;
  /** Which of these atom content hashes exist already (their atoms need no embedding). */
  existingAtomHashes(hashes: string[]): Promise<Set<string>>;
  /**
   * Replaces the files' symbols, dependencies (targets unresolved), code atoms with their citations, embeddings and
   * `defines` links, in ONE transaction with outbox rows for everything new and removed; `model` names the vectors.
   */
  commitFiles(repo: CodeRepo, files: CodeFileWrite[], model: string): Promise<CodeCommitResult>;
  /** Removes files (symbols, dependencies, citations; their orphaned code atoms go stale) in one transaction. */
  removeFiles(repo: CodeRepo, paths: string[]): Promise<CodeCommitResult>;
  /**
   * Resolves unresolved targets to symbols where unambiguous (same file, an import binding, same directory):
   * edges of `changedPaths`, and still-unresolved edges elsewhere whose target names a symbol of those files.
   * `onProgress(done, total)` counts files.
   */
  resolveDependencies(
    repo: string,
    changedPaths: string[],
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<ResolveOutcome>;
  /** Updates the repository document (content hash over the file hashes, counts) and queues its outbox row. */
  finishRepo(repo: CodeRepo, metadata: Record<string, unknown>): Promise<void>;
  /**
   * Lexical symbol search (identifier-aware words, then trigram fallback). NOT_FOUND when `q.repo` is given and
   * nothing of it is stored (the hint names some stored repositories, as repoSummary's).
   */
  searchSymbols(q: CodeSearchQuery): Promise<CodeSearchHit[]>;
  /**
   * A symbol by `symbol:<id>`; else by qualified name (a non-module symbol), a file path (its module symbol) or a
   * module name; else by bare name — within `repo` when given. Rows of one (path, qualified name, kind) are one
   * symbol (overloads: the first by line, with their count). Null when none; INVALID_INPUT when the best matches are
   * symbols of several files or kinds (the message lists up to 10 as `symbol:<id> path:line (kind qualified name)`).
   */
  findSymbol(ref: string, repo?: string): Promise<FoundSymbol | null>;
  /**
   * Which of `kinds` (in their order, each once) are neither in {@link STANDARD_EDGE_KINDS} nor the kind of any edge
   * a walk from `repo`'s symbols could take: a dependency of the repository, a link from an atom to one of its
   * symbols, an atom link. Empty when all are known.
   */
  unknownEdgeKinds(repo: string, kinds: string[]): Promise<string[]>;
  /** The non-standard dependency kinds stored in `repo` (at most 20, by name), to list beside the standard ones. */
  repoEdgeKinds(repo: string): Promise<string[]>;
  /** The 1-based line of each dependency's site (call, import, inherits) by `pm_code_dependency` id; null when none. */
  dependencyLines(ids: number[]): Promise<Map<number, number | null>>;
  /** Symbols by id (missing ids skipped). */
  symbolsByIds(ids: number[]): Promise<CodeSymbolRow[]>;
  /** Outgoing dependencies of every symbol of a file (module symbol included), at most `limit`, by line. */
  fileEdges(
    repo: string,
    path: string,
    kinds: string[] | undefined,
    limit: number,
  ): Promise<{ edges: CodeEdgeRow[]; truncated: boolean }>;
  /**
   * Repository overview: `top` most-depended-on symbols and external imports, at most `edges` module import edges.
   * NOT_FOUND when nothing of `repo` is stored (the message names some stored repositories).
   */
  repoSummary(repo: string, limits: { top: number; edges: number }): Promise<CodeRepoSummary>;
}
