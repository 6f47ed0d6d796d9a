/**
 * Walks a repository directory depth-first, as a stream (a directory's files in code-point order of names, then its
 * subdirectories; one listing in memory per level), honouring `.gitignore` files at every level and `.git/info/exclude` (gitignore semantics by
 * the `ignore` package: a deeper file's rules override, `!` re-includes), the caller's exclude and include
 * patterns (gitignore syntax, relative to the root), and never entering VCS metadata (`.git`, `.hg`, `.svn`),
 * vendored or build directories below the root (node_modules/, vendor/, third_party/, dist/, build/,
 * site-packages/…, __pycache__/, virtual environments; a Python package named build, dist, venv or vendor is walked)
 * or symbolic links (a link may leave the tree or loop). The caller's include and exclude patterns and the
 * `.gitignore` files inside the walked directory apply; those of directories above it do not.
 */
import { type Dirent, existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";

/** Directories never entered. */
const VCS_DIRS = new Set([".git", ".hg", ".svn", ".bzr"]);
/** Vendored, dependency, cache and build-output directories, skipped below the walked root. */
export const VENDORED_DIRS = new Set([
  "node_modules", "bower_components", "jspm_packages", "vendor", "third_party", "third-party", "thirdparty",
  "dist", "build", "site-packages", "dist-packages", "__pycache__", ".venv", "venv", ".tox", ".nox",
  ".mypy_cache", ".pytest_cache", ".ruff_cache", ".gradle", ".next", ".nuxt", ".cache", ".idea", ".vscode",
]);

/** Names of {@link VENDORED_DIRS} that are also common package names: a Python package of that name is walked. */
const PACKAGE_NAMES = new Set(["build", "dist", "venv", "vendor"]);

/**
 * Whether a directory is vendored or build output: its name is in {@link VENDORED_DIRS} (unless it is a Python
 * package — `__init__.py` inside — of one of the {@link PACKAGE_NAMES}, like the standard library's `venv` or
 * pypa's `build`), or it is a Python virtual environment of any name (`pyvenv.cfg` inside, PEP 405).
 */
function vendored(name: string, abs: string): boolean {
  if (VENDORED_DIRS.has(name)) return !(PACKAGE_NAMES.has(name) && existsSync(join(abs, "__init__.py")));
  return existsSync(join(abs, "pyvenv.cfg"));
}

/** Why a directory or file was passed over by the walk itself. */
export type WalkSkip = "ignored" | "excluded" | "not_included" | "vendored" | "vcs" | "symlink" | "special";

/** A file the walk yields: repository-relative path with `/` separators, and its absolute path. */
export interface WalkFile {
  path: string;
  abs: string;
}

/** Callbacks and filters of a walk. */
export interface WalkOptions {
  /** gitignore-syntax patterns relative to the root: matching files and directories are left out. */
  exclude?: string[];
  /** gitignore-syntax patterns: when given, only files matching one of them are yielded. */
  include?: string[];
  /** A directory or file was passed over (`dir` true for a directory, whose contents are not counted). */
  onSkip?(reason: WalkSkip, path: string, dir: boolean): void;
  /** A directory could not be read (its files are not yielded; the walk goes on). */
  onError?(path: string, error: Error): void;
  signal?: AbortSignal;
}

/** The ignore rules of one directory, tested with paths relative to it. */
interface RuleFrame {
  dir: string;
  rules: Ignore;
}

/** A rule set from gitignore text (case-sensitive, as git on Linux). */
export function gitignoreRules(text: string | string[]): Ignore {
  return ignore({ ignorecase: false }).add(text);
}

/** Whether the chain of rule frames ignores `path` (the deepest frame that has a say decides). */
function ignoredByChain(frames: RuleFrame[], path: string, dir: boolean): boolean {
  let state = false;
  for (const f of frames) {
    if (f.dir && !path.startsWith(`${f.dir}/`)) continue;
    const rel = f.dir ? path.slice(f.dir.length + 1) : path;
    const r = f.rules.test(dir ? `${rel}/` : rel);
    if (r.ignored) state = true;
    else if (r.unignored) state = false;
  }
  return state;
}

async function readRules(file: string): Promise<Ignore | null> {
  try {
    return gitignoreRules(await readFile(file, "utf8"));
  } catch {
    return null;
  }
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Classifies an entry; returns the reason to skip it, or null to take it. */
function entrySkip(e: Dirent, root: string, path: string, frames: RuleFrame[], excl: Ignore | null, incl: Ignore | null): WalkSkip | null {
  const dir = e.isDirectory();
  if (e.isSymbolicLink()) return "symlink";
  if (!dir && !e.isFile()) return "special";
  if (dir && VCS_DIRS.has(e.name)) return "vcs";
  if (dir && vendored(e.name, join(root, path))) return "vendored";
  if (ignoredByChain(frames, path, dir)) return "ignored";
  if (excl?.ignores(dir ? `${path}/` : path)) return "excluded";
  if (!dir && incl && !incl.ignores(path)) return "not_included";
  return null;
}

/**
 * Yields the repository's files under `root` (an absolute directory path). A directory that cannot be read is
 * reported through `onError` and passed over.
 */
export async function* walkRepository(root: string, opts: WalkOptions = {}): AsyncGenerator<WalkFile> {
  const excl = opts.exclude?.length ? gitignoreRules(opts.exclude) : null;
  const incl = opts.include?.length ? gitignoreRules(opts.include) : null;
  const frames: RuleFrame[] = [];
  const info = await readRules(join(root, ".git", "info", "exclude"));
  if (info) frames.push({ dir: "", rules: info });
  // Depth-first with an explicit stack of directories still to list; frames are trimmed to the current path.
  const stack: string[] = [""];
  while (stack.length) {
    if (opts.signal?.aborted) return;
    const dir = stack.pop()!;
    while (frames.length && frames.at(-1)!.dir !== "" && !(dir === frames.at(-1)!.dir || dir.startsWith(`${frames.at(-1)!.dir}/`))) frames.pop();
    let entries: Dirent[];
    try {
      entries = (await readdir(join(root, dir), { withFileTypes: true })).sort(byName);
    } catch (err) {
      opts.onError?.(dir || ".", err as Error);
      continue;
    }
    if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      const rules = await readRules(join(root, dir, ".gitignore"));
      if (rules) frames.push({ dir, rules });
    }
    const subdirs: string[] = [];
    for (const e of entries) {
      const path = dir ? `${dir}/${e.name}` : e.name;
      const skip = entrySkip(e, root, path, frames, excl, incl);
      if (skip) opts.onSkip?.(skip, path, e.isDirectory());
      else if (e.isDirectory()) subdirs.push(path);
      else yield { path, abs: join(root, path) };
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}
