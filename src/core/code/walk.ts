/**
 * Walks a repository directory depth-first, as a stream (a directory's files in code-point order of names, then its
 * subdirectories; one listing in memory per level), honouring `.gitignore` files at every level and `.git/info/exclude` (gitignore semantics by
 * the `ignore` package: a deeper file's rules override, `!` re-includes), the caller's exclude and include
 * patterns (gitignore syntax, relative to the root), and never entering VCS metadata (`.git`, `.hg`, `.svn`) or
 * symbolic links (a link may leave the tree or loop). Below the root it passes over dependency, cache and
 * virtual-environment directories ({@link VENDORED_DIRS}: node_modules/, vendor/, third_party/, site-packages/,
 * __pycache__/, virtual environments of any name…; a Python package named venv or vendor is walked) and hidden
 * files and directories (a name starting with `.`, as memory_ingest passes over them in a directory), unless an
 * include pattern names that directory or file literally ({@link namedByInclude}: `dist/**`, `node_modules/x/**`;
 * a hidden one only when the caller is trusted, the CLI). A directory or file a `.gitignore` leaves out is likewise
 * taken when an include pattern names it literally: inside such a directory the ignore rules of the directories above
 * it (which left it out) do not apply, its own `.gitignore` files do. Build-output names (dist/, build/) are not on the list:
 * they are often real code (a published package's dist/, Go's go/build, pypa's build); a repository's
 * `.gitignore` leaves out its own build output. The caller's include and exclude patterns and the `.gitignore`
 * files inside the walked directory apply; those of directories above it do not.
 */
import { type Dirent, existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { walkTree } from "../../platform/walk.ts";

/** Directories never entered. */
const VCS_DIRS = new Set([".git", ".hg", ".svn", ".bzr"]);
/** Dependency, cache, virtual-environment and IDE directories, skipped below the walked root unless named by an include pattern. */
export const VENDORED_DIRS = new Set([
  "node_modules",
  "bower_components",
  "jspm_packages",
  "vendor",
  "third_party",
  "third-party",
  "thirdparty",
  "site-packages",
  "dist-packages",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".gradle",
  ".next",
  ".nuxt",
  ".cache",
  ".idea",
  ".vscode",
]);

/** Names of {@link VENDORED_DIRS} that are also common package names: a Python package of that name is walked. */
const PACKAGE_NAMES = new Set(["venv", "vendor"]);

/**
 * Whether a directory is vendored: its name is in {@link VENDORED_DIRS} (unless it is a Python package —
 * `__init__.py` inside — of one of the {@link PACKAGE_NAMES}, like the standard library's `venv`), or it is a
 * Python virtual environment of any name (`pyvenv.cfg` inside, PEP 405).
 */
function vendored(name: string, abs: string): boolean {
  if (VENDORED_DIRS.has(name)) return !(PACKAGE_NAMES.has(name) && existsSync(join(abs, "__init__.py")));
  return existsSync(join(abs, "pyvenv.cfg"));
}

/** One gitignore pattern segment's matcher, by the `ignore` package itself (`*`, `?`, `[…]`, `\x`), cached per segment. */
const segmentRules = new Map<string, Ignore>();

/** Whether one path component `name` matches the gitignore pattern segment `seg` (no slash in either). */
function segmentMatches(seg: string, name: string): boolean {
  let rules = segmentRules.get(seg);
  if (!rules) {
    // A leading ! or # would read as a negation or a comment: inside a pattern they are plain characters.
    rules = gitignoreRules(/^[!#]/.test(seg) ? `\\${seg}` : seg);
    segmentRules.set(seg, rules);
  }
  return rules.ignores(name);
}

const GLOB = /[*?[\\]/;

/** Whether pattern segments p[i…] can match path segments d[j…] with d's last segment matched by a literal segment. */
function alignNamed(p: string[], i: number, d: string[], j: number): boolean {
  if (i >= p.length || j >= d.length) return false;
  if (p[i] === "**") {
    for (let k = j; k < d.length; k++) if (alignNamed(p, i + 1, d, k)) return true;
    return false;
  }
  if (j === d.length - 1) return !GLOB.test(p[i]) && p[i] === d[j];
  return segmentMatches(p[i], d[j]) && alignNamed(p, i + 1, d, j + 1);
}

/**
 * Whether an include pattern names `path` (repository-relative, `/`-separated) explicitly: the pattern, read with
 * gitignore anchoring (no inner slash: at any depth), reaches `path` with its last component written literally —
 * `dist/**`, `/dist`, `src/build/*.go`, `**​/vendor/x/**` name dist, build and vendor; `*` or `**` alone name
 * nothing. Negated patterns name nothing.
 */
export function namedByInclude(path: string, include: readonly string[]): boolean {
  const d = path.split("/");
  for (const raw of include) {
    let pat = raw.trim();
    if (!pat || pat.startsWith("!") || pat.startsWith("#")) continue;
    const anchored = pat.replace(/\/+$/, "").includes("/");
    pat = pat.replace(/^\/+/, "").replace(/\/+$/, "");
    const segs = pat.split("/").filter((s) => s !== "");
    if (!anchored) segs.unshift("**");
    if (alignNamed(segs, 0, d, 0)) return true;
  }
  return false;
}

/** Why a directory or file was passed over by the walk itself. */
export type WalkSkip = "ignored" | "excluded" | "not_included" | "vendored" | "hidden" | "vcs" | "symlink" | "special";

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
  /**
   * The caller is the owner (the CLI): a hidden file or directory named by an include pattern is walked. Otherwise
   * (MCP) hidden entries are always passed over, as a hidden path given as the root is refused.
   */
  trusted?: boolean;
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

/** Whether `dir` is `floor` or inside it (every directory is inside the null floor, the root's). */
const within = (dir: string, floor: string | null) => floor === null || dir === floor || dir.startsWith(`${floor}/`);

/**
 * Whether the chain of rule frames ignores `path` (the deepest frame that has a say decides). Frames above `floor`
 * (a directory opened by an include pattern despite them) have no say.
 */
function ignoredByChain(frames: RuleFrame[], path: string, dir: boolean, floor: string | null): boolean {
  let state = false;
  for (const f of frames) {
    if ((f.dir && !path.startsWith(`${f.dir}/`)) || !within(f.dir, floor)) continue;
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

/** The walk's filters. */
interface Filters {
  excl: Ignore | null;
  incl: Ignore | null;
  include: string[];
  trusted: boolean;
}

/**
 * Classifies an entry under `floor` (see {@link ignoredByChain}): the reason to skip it, null to take it, or "open"
 * to take an entry the ignore rules leave out because an include pattern names it (a directory so taken becomes the
 * floor of everything inside it).
 */
function entrySkip(
  e: Dirent,
  root: string,
  path: string,
  frames: RuleFrame[],
  f: Filters,
  floor: string | null,
): WalkSkip | "open" | null {
  const dir = e.isDirectory();
  if (e.isSymbolicLink()) return "symlink";
  if (!dir && !e.isFile()) return "special";
  if (dir && VCS_DIRS.has(e.name)) return "vcs";
  if (dir && vendored(e.name, join(root, path)) && !namedByInclude(path, f.include)) return "vendored";
  if (e.name.startsWith(".") && !(f.trusted && namedByInclude(path, f.include))) return "hidden";
  const ignored = ignoredByChain(frames, path, dir, floor);
  if (ignored && !namedByInclude(path, f.include)) return "ignored";
  if (f.excl?.ignores(dir ? `${path}/` : path)) return "excluded";
  if (!dir && f.incl && !f.incl.ignores(path)) return "not_included";
  return ignored ? "open" : null;
}

/**
 * Yields the repository's files under `root` (an absolute directory path). A directory that cannot be read is
 * reported through `onError` and passed over.
 */
export async function* walkRepository(root: string, opts: WalkOptions = {}): AsyncGenerator<WalkFile> {
  const filters: Filters = {
    excl: opts.exclude?.length ? gitignoreRules(opts.exclude) : null,
    incl: opts.include?.length ? gitignoreRules(opts.include) : null,
    include: opts.include ?? [],
    trusted: opts.trusted ?? false,
  };
  const frames: RuleFrame[] = [];
  const info = await readRules(join(root, ".git", "info", "exclude"));
  if (info) frames.push({ dir: "", rules: info });
  // Each directory carries its floor: the innermost directory opened by an include pattern despite the ignore rules
  // above it; the rule frames are trimmed to the directory being listed.
  const files = walkTree<string | null>(
    { abs: root, rel: "", ctx: null },
    {
      order: "files-first",
      compare: byName,
      signal: opts.signal,
      entering: ({ rel }) => {
        while (
          frames.length &&
          frames.at(-1)!.dir !== "" &&
          !(rel === frames.at(-1)!.dir || rel.startsWith(`${frames.at(-1)!.dir}/`))
        )
          frames.pop();
      },
      listed: async ({ abs, rel }, entries) => {
        if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
          const rules = await readRules(join(abs, ".gitignore"));
          if (rules) frames.push({ dir: rel, rules });
        }
      },
      onError: ({ rel }, err) => opts.onError?.(rel || ".", err),
      visit: ({ ctx: floor }, e, path) => {
        const skip = entrySkip(e, root, path, frames, filters, floor);
        if (skip && skip !== "open") {
          opts.onSkip?.(skip, path, e.isDirectory());
          return { kind: "skip" };
        }
        if (e.isDirectory()) return { kind: "enter", ctx: skip === "open" ? path : floor };
        return { kind: "take" };
      },
    },
  );
  for await (const f of files) yield { path: f.rel, abs: f.abs };
}
