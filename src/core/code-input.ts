/**
 * Input and result shapes of memory_store_code, and the input's checks: the directory (inside the configured
 * ingest roots unless the caller is the CLI), the repository key and document uri, patterns and languages.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { PegasError, invalidInput } from "../errors.ts";
import { CODE_LANGUAGES, type CodeLanguage } from "../ports/symbol-extractor.ts";
import { resolveReadable } from "./source.ts";

/** memory_store_code arguments (DESIGN.md names). */
export interface StoreCodeInput {
  /** The repository directory. */
  path: string;
  /** Repository name; default: the directory's absolute path. */
  repo?: string;
  /** gitignore-syntax patterns relative to the directory: only matching files are taken. */
  include?: string[];
  /** gitignore-syntax patterns: matching files and directories are left out (and removed when stored before). */
  exclude?: string[];
  /** Only these languages. */
  languages?: string[];
}

/** Options of a run: cancellation, progress, and whether the path may lie outside the ingest roots (the CLI). */
export interface StoreCodeOptions {
  signal?: AbortSignal;
  onProgress?: (progress: number, total: number | undefined, message: string) => void;
  trustedPath?: boolean;
}

/** A file that failed to parse or read. */
export interface CodeFileError {
  path: string;
  code: string;
  message: string;
}

/** Outcome of a run. Counts of files are of this run; `dependencies.resolved/unresolved` are of the whole repository. */
export interface StoreCodeResult {
  repo: string;
  doc_id: number;
  root: string;
  files: {
    /** Files the walk looked at (ignored, excluded and unsupported ones included; not those inside skipped directories). */
    seen: number;
    parsed: number;
    /** Same content hash as stored: not read past hashing, not parsed. */
    unchanged: number;
    failed: number;
    /** Stored files that are gone, now ignored, excluded or skipped: their symbols were removed. */
    removed: number;
    /** Files passed over, by reason (ignored, excluded, not_included, unsupported, language_filtered, symlink, binary, generated, too_large, unreadable). */
    skipped: Record<string, number>;
  };
  /** Directories not entered, by reason (vendored, vcs, ignored, excluded, symlink, unreadable). */
  directories_skipped: Record<string, number>;
  /** Symbols stored from the files parsed now. */
  symbols: number;
  dependencies: { stored: number; resolved_now: number; resolved: number; unresolved: number };
  atoms: { created: number; existing: number; staled: number };
  /** Parsed files whose parse tree had syntax errors (extracted as far as they parse). */
  syntax_error_files: number;
  /**
   * Files worth a look, at most 100 (see noted_total): skipped as binary, generated, too_large or unreadable,
   * parsed with syntax errors (parsed now or unchanged since), or decoded with a guessed charset or lossily
   * (`charset windows-1251 (detected)`; on the run that decoded them). Failed files are in `errors`.
   */
  noted: Array<{ path: string; reason: string }>;
  noted_total: number;
  /** Files that failed, at most 100 (see errors_total). */
  errors: CodeFileError[];
  errors_total: number;
  warnings: string[];
  took_ms: number;
}

/** The checked input of a run. */
export interface RunInput {
  root: string;
  repo: string;
  uri: string;
  title: string;
  include: string[];
  exclude: string[];
  languages: Set<CodeLanguage> | null;
}

function patterns(list: string[] | undefined, what: string): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.length > 200) throw invalidInput(`${what} must be a list of at most 200 patterns`);
  for (const p of list) {
    if (typeof p !== "string" || !p.trim() || p.length > 500 || p.includes("\u0000")) throw invalidInput(`${what} pattern '${String(p).slice(0, 80)}' is empty, too long or has a NUL`);
  }
  return list.map((p) => p.trim());
}

function languages(list: string[] | undefined): Set<CodeLanguage> | null {
  if (list === undefined || list.length === 0) return null;
  const bad = list.filter((l) => !(CODE_LANGUAGES as readonly string[]).includes(l));
  if (bad.length) throw invalidInput(`unknown language(s) ${bad.map((b) => `'${b}'`).join(", ")}`, `use ${CODE_LANGUAGES.join(", ")}`);
  return new Set(list as CodeLanguage[]);
}

/** The document uri of a repository: `file://<root>`, the given name when it is a URI, else `repo:<name>`. */
export function repoUri(repo: string | undefined, root: string): string {
  if (repo === undefined) return pathToFileURL(root).href;
  return /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(repo) ? repo : `repo:${repo}`;
}

/**
 * Checks the input. @throws PegasError INVALID_INPUT (not a directory, bad patterns, languages or repo name),
 * NOT_FOUND (no such path).
 */
export function checkInput(input: StoreCodeInput, roots: string[] | null): RunInput {
  if (typeof input.path !== "string" || !input.path.trim()) throw invalidInput("path is empty", "give the repository directory");
  const root = resolveReadable(input.path, roots);
  if (!statSync(root).isDirectory()) throw invalidInput(`'${root}' is not a directory`, "give the repository's directory (include narrows it to files)");
  let repo: string | undefined;
  if (input.repo !== undefined) {
    repo = input.repo.trim();
    if (!repo || repo.length > 300 || /[\u0000-\u001f]/.test(repo)) throw invalidInput("repo must be 1–300 printable characters");
  }
  if (root === "/") throw new PegasError("INVALID_INPUT", "refusing to walk the file system root", { hint: "give a repository directory" });
  return {
    root,
    repo: repo ?? root,
    uri: repoUri(repo, root),
    title: repo ?? basename(root),
    include: patterns(input.include, "include"),
    exclude: patterns(input.exclude, "exclude"),
    languages: languages(input.languages),
  };
}
