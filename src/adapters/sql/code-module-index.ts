/**
 * Import specifier → files of a repository, from its module (file) symbols: `json.decoder` → json/decoder.py,
 * `./tools/memory-search.ts` (from src/mcp/registry.ts) → src/mcp/tools/memory-search.ts, `pkg.mod` → src/pkg/mod.py
 * (a suffix of two or more segments), a Go import path → every file of the package's directory. Held in memory for
 * one resolution pass: one small entry per file of the repository.
 */

/** A module (file) symbol of the repository. */
export interface ModuleRow {
  id: number;
  path: string;
  /** The extractor's module name: the path without extension (`json/decoder`, `src/mcp/server`). */
  module: string;
}

const SOURCE_EXT = /\.(?:[cm]?[jt]sx?|py|pyi|rb|go|rs|java|cs|c|cc|cpp|cxx|h|hh|hpp|hxx|sh|bash)$/i;
/** Languages whose absolute specifiers are packages from a registry, never files of the repository. */
const BARE_IS_PACKAGE = new Set(["javascript", "typescript", "tsx"]);
/** Index files a directory specifier means. */
const INDEX_NAMES = ["__init__", "index", "mod", "lib", "main"];
/** C and C++ headers: an `#include "x.h"` names a header, never the `x.c` beside it (that would be a self-import). */
const HEADER_EXT = /\.(?:h|hh|hpp|hxx)$/i;

/** The hits a key can name: a header key only headers; any other key any file. */
function named(key: string, hits: string[] | undefined): string[] {
  if (!hits) return [];
  return HEADER_EXT.test(key) ? hits.filter((p) => HEADER_EXT.test(p)) : hits;
}

/** `a/b/../c/./d` → `a/c/d`; null when it climbs above the root. */
export function normalizePath(p: string): string | null {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!out.length) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/** Directory of a repository-relative path (`` for a file at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** The module index of one repository. */
export class ModuleIndex {
  private readonly byPath = new Map<string, number>();
  private readonly byModule = new Map<string, string[]>();
  private readonly bySuffix = new Map<string, string[]>();
  private readonly byDir = new Map<string, string[]>();
  private readonly includeCache = new Map<string, string[]>();

  /** @param rows every module symbol of the repository. */
  constructor(rows: Iterable<ModuleRow>) {
    for (const r of rows) {
      this.byPath.set(r.path, r.id);
      push(this.byModule, r.module, r.path);
      push(this.byDir, dirOf(r.path), r.path);
      const segs = r.module.split("/");
      for (let i = 1; i < segs.length - 1; i++) push(this.bySuffix, segs.slice(i).join("/"), r.path);
    }
  }

  /** The module symbol id of a file, if stored. */
  moduleSymbol(path: string): number | undefined {
    return this.byPath.get(path);
  }

  /** Files a path-like key names exactly: the file, the module, or the directory's index module. */
  private exact(key: string): string[] {
    if (this.byPath.has(key)) return [key];
    const bare = key.replace(SOURCE_EXT, "");
    for (const k of [bare, ...INDEX_NAMES.map((n) => `${bare}/${n}`)]) {
      const hit = named(key, this.byModule.get(k));
      if (hit.length) return hit;
    }
    return [];
  }

  /** Files whose module ends with the key (two or more segments, so a lone `types` never matches `pkg/types`). */
  private suffix(key: string): string[] {
    const bare = key.replace(SOURCE_EXT, "");
    for (const k of [bare, ...INDEX_NAMES.map((n) => `${bare}/${n}`)]) {
      if (!k.includes("/")) continue;
      const hit = named(key, this.bySuffix.get(k));
      if (hit.length) return hit;
    }
    return [];
  }

  /** Go: the files of the directory that the import path ends with (the longest such directory). */
  private goPackage(key: string): string[] {
    const segs = key.split("/");
    for (let i = 0; i < segs.length; i++) {
      const hit = this.byDir.get(segs.slice(i).join("/"));
      if (hit && segs.slice(i).join("/") !== "") return hit.filter((p) => p.endsWith(".go") && !p.endsWith("_test.go"));
    }
    return [];
  }

  /**
   * Files a specifier written in `fromPath` names (empty when none, several for a package directory or an ambiguous
   * suffix): relative specifiers against the importing file's directory, Python's leading dots as packages up,
   * dotted and `::` names as paths, then suffixes.
   */
  resolve(specifier: string, fromPath: string, language: string): string[] {
    const spec = specifier.trim().replace(/^["'<]|[">']$/g, "");
    if (!spec) return [];
    const here = dirOf(fromPath);
    const rel = this.relativeKey(spec, here, language);
    if (rel !== undefined) return rel === null ? [] : this.exact(rel);
    if (language === "go") return this.exact(spec).length === 1 ? this.exact(spec) : this.goPackage(spec);
    if (language === "c" || language === "cpp") {
      const local = normalizePath(`${here}/${spec}`);
      const found = local === null ? [] : this.exact(local);
      return found.length ? found : this.byPathSuffix(spec);
    }
    if (BARE_IS_PACKAGE.has(language)) return [];
    const key = this.absoluteKey(spec, language);
    const exact = this.exact(key);
    return exact.length ? exact : this.suffix(key);
  }

  /** Undefined when `spec` is not relative; null when it climbs above the root. */
  private relativeKey(spec: string, here: string, language: string): string | null | undefined {
    if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") return normalizePath(`${here}/${spec}`);
    if (language === "python" && spec.startsWith(".")) {
      const dots = spec.match(/^\.+/)![0].length;
      let dir: string | null = here;
      for (let i = 1; i < dots && dir !== null; i++) dir = dir === "" ? null : dirOf(dir);
      if (dir === null) return null;
      return normalizePath(`${dir}/${spec.slice(dots).replace(/\./g, "/")}`);
    }
    if (language === "rust" && /^(?:self|super)::/.test(spec)) {
      const parts = spec.split("::");
      let dir: string | null = here;
      while (parts[0] === "super" && dir !== null) {
        dir = dir === "" ? null : dirOf(dir);
        parts.shift();
      }
      if (parts[0] === "self") parts.shift();
      return dir === null ? null : normalizePath(`${dir}/${parts.join("/")}`);
    }
    return undefined;
  }

  private absoluteKey(spec: string, language: string): string {
    if (language === "rust") return spec.replace(/^crate::/, "").replace(/::/g, "/");
    if (spec.includes("/")) return spec;
    return spec.replace(/::/g, "/").replace(/\./g, "/");
  }

  /** C and C++ `#include "x.h"` found below an include directory: files whose path ends with it, once per spec. */
  private byPathSuffix(spec: string): string[] {
    let hits = this.includeCache.get(spec);
    if (!hits) {
      hits = [];
      for (const p of this.byPath.keys()) if (p === spec || p.endsWith(`/${spec}`)) hits.push(p);
      this.includeCache.set(spec, hits);
    }
    return hits;
  }
}
