/**
 * Input and result shapes of memory_store_code, and the input's checks: the directory (inside the configured
 * ingest roots unless the caller is the CLI), the repository key and document uri, patterns and languages.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { PegasError, invalidInput } from "../../errors.ts";
import { CODE_LANGUAGES, type CodeLanguage } from "../../ports/models/symbol-extractor.ts";
import { resolveReadable } from "../documents/source.ts";

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

/** Options of a run: cancellation, progress, and whether the caller is the owner (the CLI). */
export interface StoreCodeOptions {
  signal?: AbortSignal;
  /**
   * Progress notifications: `progress` strictly increases across the phases (files walked and parsed, then the
   * commit and removal steps, then files resolved; see code-progress.ts), `total` once known (the resolve phase
   * on; the last notification has progress = total), `message` starts with the phase (`walk:`, `parse:`,
   * `write:`, `resolve:`, `done:`).
   */
  onProgress?: (progress: number, total: number | undefined, message: string) => void;
  /** Least time between two throttled progress notifications (ms); default 500. */
  progressEveryMs?: number;
  /**
   * The caller is the owner (the CLI): the path may lie outside the ingest roots or be hidden, and an include
   * pattern naming a hidden directory or file walks it. Over MCP hidden entries are always passed over.
   */
  trustedPath?: boolean;
}

/**
 * A file that failed — unreadable (INVALID_INPUT, `unreadable: <OS message>`), refused by the parser or the store
 * (the code it failed with, kept on later runs while the file is unchanged) — or a directory that could not be read
 * (its path ends with `/`).
 */
export interface CodeFileError {
  path: string;
  code: string;
  message: string;
}

/**
 * Outcome of a run. Counts of files are of this run; `dependencies.resolved/unresolved` are of the whole repository.
 * `errors_total` = `files.failed` + `directories_skipped.unreadable`.
 */
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
    /** Files that could not be read, parsed or stored (each listed in `errors`). */
    failed: number;
    /** Stored files that are gone, now ignored, excluded or skipped: their symbols were removed. */
    removed: number;
    /** Files passed over, by reason (hidden, ignored, excluded, not_included, unsupported, language_filtered, symlink, binary, generated, too_large). */
    skipped: Record<string, number>;
  };
  /** Directories not entered, by reason (vendored, hidden, vcs, ignored, excluded, symlink, unreadable). */
  directories_skipped: Record<string, number>;
  /** Symbols stored from the files parsed now. */
  symbols: number;
  dependencies: { stored: number; resolved_now: number; resolved: number; unresolved: number };
  atoms: { created: number; existing: number; staled: number };
  /** Parsed files whose parse tree had syntax errors (extracted as far as they parse). */
  syntax_error_files: number;
  /**
   * Files worth a look, at most 100 (see noted_total): skipped as binary, generated or too_large, parsed with
   * syntax errors, or decoded with a guessed charset or lossily (`charset windows-1251 (detected)`), on every run
   * (parsed now or unchanged since). Failed files are in `errors`.
   */
  noted: Array<{ path: string; reason: string }>;
  noted_total: number;
  /** Files that failed and directories that could not be read, at most 100 (see errors_total). */
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
    if (typeof p !== "string" || !p.trim() || p.length > 500 || p.includes("\u0000"))
      throw invalidInput(`${what} pattern '${String(p).slice(0, 80)}' is empty, too long or has a NUL`);
  }
  return list.map((p) => p.trim());
}

function languages(list: string[] | undefined): Set<CodeLanguage> | null {
  if (list === undefined || list.length === 0) return null;
  const bad = list.filter((l) => !(CODE_LANGUAGES as readonly string[]).includes(l));
  if (bad.length)
    throw invalidInput(
      `unknown language(s) ${bad.map((b) => `'${b}'`).join(", ")}`,
      `use ${CODE_LANGUAGES.join(", ")}`,
    );
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
  if (typeof input.path !== "string" || !input.path.trim())
    throw invalidInput("path is empty", "give the repository directory");
  const root = resolveReadable(input.path, roots);
  if (!statSync(root).isDirectory())
    throw invalidInput(`'${root}' is not a directory`, "give the repository's directory (include narrows it to files)");
  let repo: string | undefined;
  if (input.repo !== undefined) {
    repo = input.repo.trim();
    if (!repo || repo.length > 300 || /[\u0000-\u001f]/.test(repo))
      throw invalidInput("repo must be 1–300 printable characters");
  }
  if (root === "/")
    throw new PegasError("INVALID_INPUT", "refusing to walk the file system root", {
      hint: "give a repository directory",
    });
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
