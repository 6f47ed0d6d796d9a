/** Import specifiers to files (code-module-index.ts) and the resolution rules (code-resolve-rules.ts), pure. */
import { describe, expect, test } from "bun:test";
import { ModuleIndex, normalizePath } from "../../src/adapters/sql/code/module-index.ts";
import {
  decide,
  planSteps,
  type ResolveEdge,
  type ResolveLookup,
  type ResolveSymbol,
} from "../../src/adapters/sql/code/resolve-rules.ts";

const FILES = [
  ["json/__init__.py", "json"],
  ["json/decoder.py", "json/decoder"],
  ["json/scanner.py", "json/scanner"],
  ["types.py", "types"],
  ["src/pkg/mod.py", "src/pkg/mod"],
  ["src/pkg/types.py", "src/pkg/types"],
  ["src/mcp/server.ts", "src/mcp/server"],
  ["src/mcp/registry.ts", "src/mcp/registry"],
  ["src/mcp/tools/index.ts", "src/mcp/tools/index"],
  ["pkg/a.go", "pkg/a"],
  ["pkg/b.go", "pkg/b"],
  ["pkg/b_test.go", "pkg/b_test"],
  ["lib/util.h", "lib/util"],
  ["lib/util.c", "lib/util"],
  ["main.c", "main"],
  ["lib/queue.c", "lib/queue"],
  ["geo/geo.cpp", "geo/geo"],
] as const;
const modules = new ModuleIndex(FILES.map(([path, module], i) => ({ id: i + 1, path, module })));

describe("ModuleIndex", () => {
  test("normalizePath", () => {
    expect(normalizePath("a/b/../c/./d")).toBe("a/c/d");
    expect(normalizePath("../x")).toBeNull();
  });

  test("python: absolute, package __init__, relative dots, suffix of two or more segments only", () => {
    expect(modules.resolve("json.decoder", "x.py", "python")).toEqual(["json/decoder.py"]);
    expect(modules.resolve("json", "x.py", "python")).toEqual(["json/__init__.py"]);
    expect(modules.resolve(".decoder", "json/__init__.py", "python")).toEqual(["json/decoder.py"]);
    expect(modules.resolve(".", "json/decoder.py", "python")).toEqual(["json/__init__.py"]);
    expect(modules.resolve("..json.scanner", "src/a.py", "python")).toEqual(["json/scanner.py"]);
    expect(modules.resolve("pkg.mod", "x.py", "python")).toEqual(["src/pkg/mod.py"]);
    expect(modules.resolve("types", "src/pkg/mod.py", "python")).toEqual(["types.py"]);
    expect(modules.resolve("collections", "x.py", "python")).toEqual([]);
  });

  test("typescript: relative with extension or index; bare specifiers are packages", () => {
    expect(modules.resolve("./registry.ts", "src/mcp/server.ts", "typescript")).toEqual(["src/mcp/registry.ts"]);
    expect(modules.resolve("./registry.js", "src/mcp/server.ts", "typescript")).toEqual(["src/mcp/registry.ts"]);
    expect(modules.resolve("./tools", "src/mcp/server.ts", "typescript")).toEqual(["src/mcp/tools/index.ts"]);
    expect(modules.resolve("../../../x", "src/mcp/server.ts", "typescript")).toEqual([]);
    expect(modules.resolve("registry", "src/mcp/server.ts", "typescript")).toEqual([]);
  });

  test("go: a package is every non-test file of its directory; c: includes beside the file, then by path suffix", () => {
    expect(modules.resolve("example.com/proj/pkg", "main.go", "go")).toEqual(["pkg/a.go", "pkg/b.go"]);
    expect(modules.resolve("util.h", "lib/util.c", "c")).toEqual(["lib/util.h"]);
    expect(modules.resolve("lib/util.h", "main.c", "c")).toEqual(["lib/util.h"]);
    expect(modules.resolve("stdio.h", "main.c", "c")).toEqual([]);
    // A header that is not in the repository is not the source file of the same name (no self-import).
    expect(modules.resolve("queue.h", "lib/queue.c", "c")).toEqual([]);
    expect(modules.resolve("lib/queue.h", "main.c", "c")).toEqual([]);
    expect(modules.resolve("geo.hpp", "geo/geo.cpp", "cpp")).toEqual([]);
  });
});

function lookupOf(symbols: ResolveSymbol[]): ResolveLookup {
  const dir = (p: string) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
  return {
    moduleSymbol: (p) => modules.moduleSymbol(p),
    byQn: (p, q) => symbols.filter((s) => s.path === p && s.qualifiedName === q),
    byName: (p, n) => symbols.filter((s) => s.path === p && s.name === n),
    inDir: (d, q) => symbols.filter((s) => dir(s.path) === d && s.qualifiedName === q),
  };
}

let nextId = 100;
const sym = (path: string, qualifiedName: string, kind = "function", lineStart = 1): ResolveSymbol => ({
  id: nextId++,
  path,
  name: qualifiedName.split(".").at(-1)!,
  qualifiedName,
  kind,
  lineStart,
});
const edge = (e: Partial<ResolveEdge>): ResolveEdge => ({
  id: 1,
  kind: "calls",
  target: "f",
  receiver: null,
  path: "json/decoder.py",
  language: "python",
  srcQualifiedName: null,
  ...e,
});

describe("resolution rules", () => {
  const decodeMethod = sym("json/decoder.py", "JSONDecoder.decode", "method");
  const rawDecode = sym("json/decoder.py", "JSONDecoder.raw_decode", "method");
  const topDecode = sym("json/decoder.py", "decode");
  const loads = sym("json/__init__.py", "loads");
  const makeScanner = sym("json/scanner.py", "make_scanner");
  const nested = sym("json/decoder.py", "outer.inner");
  const overloads = [sym("pkg/a.go", "Run", "function", 3), sym("pkg/a.go", "Run", "function", 9)];
  const goHelper = sym("pkg/b.go", "helper");
  const lookup = lookupOf([decodeMethod, rawDecode, topDecode, loads, makeScanner, nested, ...overloads, goHelper]);
  const run = (e: ResolveEdge, imports: Parameters<typeof planSteps>[1] = []) =>
    decide(planSteps(e, imports, modules), lookup);

  test("imports resolve to the one file's module symbol; a package of several files stays a name", () => {
    expect(run(edge({ kind: "imports", target: ".scanner" }))).toEqual({
      symbolId: modules.moduleSymbol("json/scanner.py")!,
      confidence: 1,
    });
    expect(run(edge({ kind: "imports", target: "example.com/p/pkg", path: "main.go", language: "go" }))).toBeNull();
  });

  test("self.m() → the enclosing class's method; bare f() in Python → top level, never the class's method", () => {
    expect(
      run(edge({ target: "raw_decode", receiver: "self", srcQualifiedName: "JSONDecoder.decode" }))?.symbolId,
    ).toBe(rawDecode.id);
    expect(run(edge({ target: "decode", srcQualifiedName: "JSONDecoder.raw_decode" }))?.symbolId).toBe(topDecode.id);
    expect(run(edge({ target: "inner", srcQualifiedName: "outer" }))?.symbolId).toBe(nested.id);
    expect(run(edge({ target: "JSONDecoder.decode" }))?.symbolId).toBe(decodeMethod.id);
  });

  test("import bindings: a name bound by from-import, a module's member, a submodule bound by name", () => {
    const imports = [
      { local: "loads", module: "json", name: "loads" },
      { local: "jmod", module: "json", name: null },
      { local: "scanner", module: "json", name: "scanner" },
    ];
    const e = (target: string, receiver: string | null = null) => edge({ target, receiver, path: "app.py" });
    expect(run(e("loads"), imports)).toEqual({ symbolId: loads.id, confidence: 0.95 });
    expect(run(e("loads", "jmod"), imports)?.symbolId).toBe(loads.id);
    expect(run(e("jmod.loads"), imports)?.symbolId).toBe(loads.id);
    expect(run(e("make_scanner", "scanner"), imports)).toEqual({ symbolId: makeScanner.id, confidence: 0.9 });
    expect(run(e("dumps", "jmod"), imports)).toBeNull();
    // A constructed receiver stands for its class: `JSONDecoder(…).decode()`.
    const cls = [{ local: "JSONDecoder", module: "json.decoder", name: "JSONDecoder" }];
    expect(run(e("decode", "JSONDecoder(strict=False)"), cls)?.symbolId).toBe(decodeMethod.id);
    expect(run(e("len"), imports)).toBeNull();
  });

  test("same package (Go): a sibling file's top-level name; overloads in one file resolve to the first", () => {
    expect(run(edge({ target: "helper", path: "pkg/a.go", language: "go" }))).toEqual({
      symbolId: goHelper.id,
      confidence: 0.8,
    });
    expect(run(edge({ target: "Run", path: "pkg/a.go", language: "go" }))).toEqual({
      symbolId: overloads[0].id,
      confidence: 0.7,
    });
    expect(run(edge({ target: "helper", path: "pkg/x.py", language: "python" }))).toBeNull();
  });

  test("different definitions are ambiguous: unresolved", () => {
    const two = lookupOf([sym("a.py", "f"), sym("b.py", "f")]);
    const imports = [{ local: "f", module: "json", name: "f" }];
    expect(decide([{ where: "qn", paths: ["a.py", "b.py"], qn: "f", confidence: 1 }], two)).toBeNull();
    expect(decide(planSteps(edge({ target: "f", path: "c.py" }), imports, modules), two)).toBeNull();
  });
});
