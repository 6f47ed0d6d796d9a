/**
 * Shared helpers of the tree-sitter tests (tests/tree-sitter/*.test.ts): snippet files, expected-symbol and
 * expected-edge builders in the exact shapes of ports/models/symbol-extractor.ts, and the Python stdlib folder.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  DependencyKind,
  ExtractedDependency,
  ExtractedSymbol,
  SymbolKind,
} from "../../src/ports/models/symbol-extractor.ts";

/** Absolute path of this folder. */
export const HERE = fileURLToPath(new URL(".", import.meta.url));
/** Absolute path of the repository root. */
export const REPO_ROOT = join(HERE, "..", "..");

/** The text of `snippets/<relative>`. */
export function snippet(relative: string): string {
  return readFileSync(join(HERE, "snippets", relative), "utf8");
}

/** An expected symbol; `name` is the last dotted part of `qualifiedName`. */
export function sym(
  qualifiedName: string,
  kind: SymbolKind,
  lines: [number, number],
  signature: string | null,
  docstring: string | null = null,
): ExtractedSymbol {
  const name = qualifiedName.slice(qualifiedName.lastIndexOf(".") + 1);
  return { name, qualifiedName, kind, signature, lineStart: lines[0], lineEnd: lines[1], docstring };
}

/** An expected edge; `from` null means the module itself. */
export function edge(
  kind: DependencyKind,
  from: string | null,
  target: string,
  line: number,
  receiver?: string,
): ExtractedDependency {
  const dep: ExtractedDependency = { kind, from: from === null ? { module: true } : { symbol: from }, target, line };
  if (receiver !== undefined) dep.receiver = receiver;
  return dep;
}

let stdlib: string | null | undefined;

/** Python's standard library folder (`sysconfig` "stdlib"), or null when python3 is absent. */
export function pythonStdlib(): string | null {
  if (stdlib !== undefined) return stdlib;
  try {
    const out = execFileSync("python3", ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], {
      encoding: "utf8",
    }).trim();
    stdlib = out !== "" && existsSync(out) ? out : null;
  } catch {
    stdlib = null;
  }
  return stdlib;
}

/** 1-based number of the first line of `text` that matches `pattern` (throws when none does). */
export function lineOf(text: string, pattern: RegExp): number {
  const index = text.split("\n").findIndex((line) => pattern.test(line));
  if (index < 0) throw new Error(`no line matches ${pattern}`);
  return index + 1;
}
