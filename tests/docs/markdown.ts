/**
 * Reading the project's Markdown as the docs tests need it: the shell blocks with the mark that says how each is
 * tested (`<!-- docs-test: run -->`, `<!-- docs-test: check: why it cannot run here -->`,
 * `<!-- docs-test: quick-start -->`, on the line before the fence), sections by heading, and relative links.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The repository root. */
export const ROOT = resolve(import.meta.dir, "../..");

/** How a shell block is tested: run here, only checked (with why), or the README's Quick start. */
export type BlockMark = { kind: "run" } | { kind: "check"; why: string } | { kind: "quick-start" } | null;

/** A fenced shell block: its file (relative to the root), 1-based line of the fence, text and mark. */
export interface ShellBlock {
  file: string;
  line: number;
  text: string;
  mark: BlockMark;
}

/** The Markdown files whose commands are tested: README, CONTRIBUTING, tests/README and docs/*.md. */
export function documentedFiles(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => join("docs", f));
  return ["README.md", "CONTRIBUTING.md", join("tests", "README.md"), ...docs];
}

/** Parses a `<!-- docs-test: … -->` line; null when the line is no such mark. @throws Error on an unknown kind. */
function parseMark(line: string): BlockMark {
  const m = /^<!--\s*docs-test:\s*(run|quick-start|check)(?::\s*(.+?))?\s*-->$/.exec(line.trim());
  if (!m) {
    if (/docs-test/.test(line)) throw new Error(`unreadable docs-test mark: ${line.trim()}`);
    return null;
  }
  if (m[1] === "check") return { kind: "check", why: m[2] ?? "" };
  return { kind: m[1] as "run" | "quick-start" };
}

/** Every ```sh / ```bash block of `file` (relative to the root), with the mark on the line before its fence. */
export function shellBlocks(file: string): ShellBlock[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block is never closed`);
    blocks.push({ file, line: i + 1, text: lines.slice(i + 1, end).join("\n"), mark: parseMark(lines[i - 1] ?? "") });
    i = end;
  }
  return blocks;
}

/** The commands of a block: one per line, comments and blank lines dropped. */
export function commands(block: string): string[] {
  return block
    .split("\n")
    .map((l) => l.replace(/(^|\s)#.*$/, "").trim())
    .filter(Boolean);
}

/** The body of the `## title` section of `markdown` (up to the next `## `). @throws Error when there is none. */
export function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section "## ${title}"`);
  const rest = markdown.slice(start + title.length + 5);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Relative links of `file` whose target file is missing (anchors into other files are not checked). */
export function brokenLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  const broken: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split("#")[0];
    if (!target || /^[a-z]+:/.test(target)) continue;
    const path = resolve(dirname(join(ROOT, file)), target);
    if (!existsSync(path)) broken.push(`${file} → ${relative(ROOT, path)}`);
  }
  return broken;
}

/** Top-level folders whose paths, quoted in `backticks`, must exist. */
const TREE = /`((?:src|tests|bench|deploy|scripts|docs|migrations|patches)\/[\w./-]*)`/g;

/**
 * Paths of the repository quoted in `file` (as `src/…`, `tests/…`, …; globs and `<placeholders>` aside) that do not
 * exist. tests/README.md may also quote them relative to tests/.
 */
export function missingPaths(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const missing: string[] = [];
  for (const m of text.matchAll(TREE)) {
    const path = m[1].replace(/\/$/, "");
    if (/[*<>]|NNNN/.test(path)) continue;
    if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
  }
  return missing;
}
