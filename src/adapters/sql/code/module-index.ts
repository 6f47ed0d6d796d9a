/**
 * Import specifier → files of a repository, from its module (file) symbols: `json.decoder` → json/decoder.py,
 * `./tools/memory-search.ts` (from src/mcp/registry.ts) → src/mcp/tools/search/memory-search.ts, `pkg.mod` → src/pkg/mod.py
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
    if (language === "rust") return this.rustModule(spec, fromPath);
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
    if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..")
      return normalizePath(`${here}/${spec}`);
    if (language === "python" && spec.startsWith(".")) {
      const dots = spec.match(/^\.+/)![0].length;
      let dir: string | null = here;
      for (let i = 1; i < dots && dir !== null; i++) dir = dir === "" ? null : dirOf(dir);
      if (dir === null) return null;
      return normalizePath(`${dir}/${spec.slice(dots).replace(/\./g, "/")}`);
    }
    return undefined;
  }

  /** The file of the Rust module at directory-like key `key` (`src/util` → src/util.rs or src/util/mod.rs). */
  private rustFile(key: string, root: boolean): string | undefined {
    const names = root ? [`${key}/lib.rs`, `${key}/main.rs`] : [`${key}.rs`, `${key}/mod.rs`];
    return names.map((n) => normalizePath(n)).find((n): n is string => n !== null && this.byPath.has(n));
  }

  /** Where a Rust file's child modules live: src/a.rs → src/a; src/a/mod.rs, src/lib.rs, src/main.rs → src/a, src. */
  private rustModuleDir(path: string): string {
    return /(?:^|\/)(?:mod|lib|main)\.rs$/.test(path) ? dirOf(path) : path.replace(/\.rs$/, "");
  }

  /** The crate root directory of a Rust file: the nearest directory above it holding lib.rs or main.rs. */
  private rustCrateRoot(path: string): string | null {
    for (let dir: string | null = dirOf(path); dir !== null; dir = dir === "" ? null : dirOf(dir)) {
      if (this.rustFile(dir, true)) return dir;
    }
    return null;
  }

  /**
   * Rust, Cargo layout: a `use` path or `mod x;` → the file of the deepest module it names (`crate::util::helper`
   * → src/util.rs or src/util/mod.rs; `mod util;` in src/lib.rs → src/util.rs; `super::x` from src/a/b.rs → src/a.rs).
   * `crate::` starts at the crate root (the directory of lib.rs or main.rs), `self::`/`super::` at the file's module;
   * another path names a child module of the file's module, else a module from the crate root, else nothing (an
   * external crate: `std::fmt`, `serde`). `#[path]` attributes and inline `mod x { … }` blocks are not followed.
   */
  private rustModule(spec: string, fromPath: string): string[] {
    const parts = spec.split("::").filter((p) => p !== "" && p !== "*");
    const dirs: Array<string | null> = [];
    let prefixed = true;
    if (parts[0] === "crate") {
      parts.shift();
      dirs.push(this.rustCrateRoot(fromPath));
    } else if (parts[0] === "self" || parts[0] === "super") {
      let dir: string | null = this.rustModuleDir(fromPath);
      if (parts[0] === "self") parts.shift();
      for (; parts[0] === "super" && dir !== null; parts.shift()) dir = dir === "" ? null : dirOf(dir);
      dirs.push(dir);
    } else {
      prefixed = false;
      dirs.push(this.rustModuleDir(fromPath), this.rustCrateRoot(fromPath));
    }
    for (const dir of dirs) {
      if (dir === null) continue;
      for (let k = parts.length; k >= (prefixed ? 0 : 1); k--) {
        const key = [dir, ...parts.slice(0, k)].filter((x) => x !== "").join("/");
        const file = k === 0 ? (this.rustFile(dir, true) ?? this.rustFile(dir, false)) : this.rustFile(key, false);
        if (file && file !== fromPath) return [file];
      }
    }
    return [];
  }

  private absoluteKey(spec: string, _language: string): string {
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
