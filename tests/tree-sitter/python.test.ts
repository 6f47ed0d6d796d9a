/**
 * Python spec on a real-shaped module (snippets/python/cache.py): every symbol, edge and binding exactly; and on
 * Python's own standard library (json/decoder.py, html/parser.py), line numbers checked against the files.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { edge, lineOf, pythonStdlib, snippet, sym } from "./support.ts";

const extractor = treeSitterExtractor();

const file = await extractor.extract("lrucache/cache.py", snippet("python/cache.py"), "python");

describe("python snippet", () => {
  test("module and syntax", () => {
    expect(file.language).toBe("python");
    expect(file.module).toBe("lrucache/cache");
    expect(file.syntaxErrors).toBe(0);
  });

  test("symbols: constants, classes, methods (decorated too), docstrings and leading comments", () => {
    expect(file.symbols).toEqual([
      sym("DEFAULT_TTL", "constant", [8, 8], "DEFAULT_TTL = 300.0"),
      sym("K", "constant", [9, 9], 'K = TypeVar("K")'),
      sym("Entry", "class", [12, 17], "class Entry(Generic[K])", "One cached value and its deadline."),
      sym("Entry.__init__", "method", [15, 17], "def __init__(self, value, ttl)"),
      sym(
        "LRUCache",
        "class",
        [21, 50],
        "class LRUCache(OrderedDict, metaclass=type)",
        "Bounded mapping.\n\nEntries older than their TTL are treated as missing.",
      ),
      sym(
        "LRUCache.__init__",
        "method",
        [27, 32],
        "def __init__(self, capacity: int, ttl: float = DEFAULT_TTL) -> None",
      ),
      sym("LRUCache.full", "method", [35, 36], "def full(self) -> bool"),
      sym(
        "LRUCache.put",
        "method",
        [38, 43],
        "def put(self, key, value)",
        "Store value under key, evicting if needed.",
      ),
      sym(
        "LRUCache.get_fresh",
        "method",
        [46, 50],
        "def get_fresh(self, key)",
        "Raises Expired once the deadline has passed.",
      ),
      sym("load_snapshot", "function", [53, 57], "def load_snapshot(path)"),
    ]);
  });

  test("edges: imports, calls with receivers, inherits (metaclass= and subscripts handled)", () => {
    expect(file.dependencies).toEqual([
      edge("imports", null, "time", 2),
      edge("imports", null, "os.path", 3),
      edge("imports", null, "collections", 4),
      edge("imports", null, "typing", 5),
      edge("imports", null, ".errors", 6),
      edge("calls", "K", "TypeVar", 9),
      edge("inherits", "Entry", "Generic", 12),
      edge("calls", "Entry.__init__", "monotonic", 17, "time"),
      edge("inherits", "LRUCache", "OrderedDict", 21),
      edge("calls", "LRUCache.__init__", "super", 28),
      edge("calls", "LRUCache.__init__", "__init__", 28, "super()"),
      edge("calls", "LRUCache.__init__", "CacheError", 30),
      edge("calls", "LRUCache.full", "len", 36),
      edge("calls", "LRUCache.put", "popitem", 41, "self"),
      edge("calls", "LRUCache.put", "Entry", 42),
      edge("calls", "LRUCache.put", "move_to_end", 43, "self"),
      edge("calls", "LRUCache.get_fresh", "monotonic", 48, "time"),
      edge("calls", "LRUCache.get_fresh", "Expired", 49),
      edge("calls", "load_snapshot", "exists", 55, "osp"),
      edge("calls", "load_snapshot", "LRUCache", 56),
    ]);
  });

  test("import bindings: `import a.b as c`, `from .m import x as y`", () => {
    expect(file.imports).toEqual([
      { local: "time", module: "time", name: null },
      { local: "osp", module: "os.path", name: null },
      { local: "OrderedDict", module: "collections", name: "OrderedDict" },
      { local: "Generic", module: "typing", name: "Generic" },
      { local: "TypeVar", module: "typing", name: "TypeVar" },
      { local: "CacheError", module: ".errors", name: "CacheError" },
      { local: "Expired", module: ".errors", name: "ExpiredError" },
    ]);
  });

  test("`import os.path` binds the top package; `from x import *` is an edge only; __init__ names the package", async () => {
    const f = await extractor.extract("pkg/__init__.py", "import os.path\nfrom glob import *\n", "python");
    expect(f.module).toBe("pkg");
    expect(f.imports).toEqual([{ local: "os", module: "os", name: null }]);
    expect(f.dependencies).toEqual([edge("imports", null, "os.path", 1), edge("imports", null, "glob", 2)]);
  });
});

const stdlib = pythonStdlib();

describe.skipIf(!stdlib)("python standard library", () => {
  test("json/decoder.py: JSONDecoder, decode, raw_decode, scanstring at their lines", async () => {
    const text = readFileSync(join(stdlib!, "json", "decoder.py"), "utf8");
    const f = await extractor.extract("json/decoder.py", text, "python");
    expect(f.module).toBe("json/decoder");
    expect(f.syntaxErrors).toBe(0);
    const by = new Map(f.symbols.map((s) => [s.qualifiedName, s]));
    const decoder = by.get("JSONDecoder");
    expect(decoder?.kind).toBe("class");
    expect(decoder?.lineStart).toBe(lineOf(text, /^class JSONDecoder\b/));
    expect(decoder?.signature).toBe("class JSONDecoder(object)");
    expect(decoder?.docstring?.startsWith("Simple JSON <https://json.org> decoder")).toBe(true);
    const decode = by.get("JSONDecoder.decode");
    expect(decode?.kind).toBe("method");
    expect(decode?.lineStart).toBe(lineOf(text, /^ {4}def decode\(/));
    expect(decode?.signature).toBe("def decode(self, s, _w=WHITESPACE.match)");
    expect(by.get("JSONDecoder.raw_decode")?.lineStart).toBe(lineOf(text, /^ {4}def raw_decode\(/));
    expect(by.get("py_scanstring")?.kind).toBe("function");
    expect(by.get("JSONDecodeError")?.lineStart).toBe(lineOf(text, /^class JSONDecodeError\b/));
    // decode's line range covers its whole body: up to the line before raw_decode's header.
    expect(decode!.lineEnd).toBeLessThan(by.get("JSONDecoder.raw_decode")!.lineStart);
    expect(f.dependencies).toContainEqual(
      edge("calls", "JSONDecoder.decode", "raw_decode", lineOf(text, /self\.raw_decode\(/), "self"),
    );
    expect(f.dependencies).toContainEqual(
      edge("inherits", "JSONDecodeError", "ValueError", lineOf(text, /^class JSONDecodeError\b/)),
    );
    expect(f.imports).toContainEqual({ local: "scanner", module: "json", name: "scanner" });
    expect(f.imports).toContainEqual({ local: "c_scanstring", module: "_json", name: "scanstring" });
  });

  test("html/parser.py: HTMLParser.feed at its line, its base class and calls", async () => {
    const text = readFileSync(join(stdlib!, "html", "parser.py"), "utf8");
    const f = await extractor.extract("html/parser.py", text, "python");
    expect(f.syntaxErrors).toBe(0);
    const feed = f.symbols.find((s) => s.qualifiedName === "HTMLParser.feed");
    expect(feed).toMatchObject({
      name: "feed",
      kind: "method",
      lineStart: lineOf(text, /^ {4}def feed\(self, data\)/),
      signature: "def feed(self, data)",
    });
    expect(feed?.docstring?.startsWith("Feed data to the parser.")).toBe(true);
    const base = lineOf(text, /^class HTMLParser\(/);
    expect(f.dependencies).toContainEqual(edge("inherits", "HTMLParser", "_markupbase.ParserBase", base));
    expect(f.dependencies).toContainEqual(
      edge("calls", "HTMLParser.feed", "goahead", lineOf(text, /self\.goahead\(0\)/), "self"),
    );
    expect(f.imports).toContainEqual({ local: "_markupbase", module: "_markupbase", name: null });
  });
});

describe("python module docstrings", () => {
  test("the file's first string statement is the module's docstring (after comments and a shebang), else none", async () => {
    const x = treeSitterExtractor();
    const doc = await x.extract(
      "m.py",
      '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"""Модуль для расчёта орбит.\n\n    Подробности.\n"""\nimport os\n',
      "python",
    );
    expect(doc.moduleDoc).toBe("Модуль для расчёта орбит.\n\nПодробности.");
    const none = await x.extract("n.py", "import os\nX = 'not a docstring'\n", "python");
    expect(none.moduleDoc).toBeUndefined();
  });
});

describe("python leading comments inside a body", () => {
  test("a comment right after `class X:` documents the first method (decorated too), not one on the header's line", async () => {
    const src =
      "class A:\n    # Comment on f\n    def f(self): ...\n\n    # Comment on g\n    def g(self): ...\n\n" +
      "class B:  # trailing note\n    def h(self): ...\n\nclass C:\n    # On k\n    @dec\n    def k(self): ...\n";
    const f = await treeSitterExtractor().extract("m.py", src, "python");
    expect(f.symbols.map((s) => [s.qualifiedName, s.docstring])).toEqual([
      ["A", null],
      ["A.f", "Comment on f"],
      ["A.g", "Comment on g"],
      ["B", null],
      ["B.h", null],
      ["C", null],
      ["C.k", "On k"],
    ]);
  });
});

describe("python module-level assignments", () => {
  test("`name = lambda …` is a function (its calls come from it); other assignments stay constants", async () => {
    const f = await treeSitterExtractor().extract("m.py", "lambda_fn = lambda x: helper(x)\nMAX = 3\n", "python");
    expect(f.symbols.map((s) => [s.qualifiedName, s.kind])).toEqual([
      ["lambda_fn", "function"],
      ["MAX", "constant"],
    ]);
    expect(f.dependencies).toEqual([edge("calls", "lambda_fn", "helper", 1)]);
  });
});
