/**
 * memory_search_code, memory_code_graph and memory_store_code through their ToolDefs (outputs checked against the
 * tools' zod output schemas) over a repository stored with the hand-written extractor, on PGlite.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { ToolDef } from "../../src/mcp/tool.ts";
import { memoryCodeGraph } from "../../src/mcp/tools/code/memory-code-graph.ts";
import { memorySearch } from "../../src/mcp/tools/search/memory-search.ts";
import { memorySearchCode } from "../../src/mcp/tools/code/memory-search-code.ts";
import { memoryStoreCode } from "../../src/mcp/tools/code/memory-store-code.ts";
import { storeCode } from "../../src/core/code/ingest.ts";
import { PegasError } from "../../src/errors.ts";
import { FakeExtractor, fakeSource, sym } from "./fake-extractor.ts";
import { codeSuite, sqlOf } from "./support.ts";

const root = mkdtempSync(join(tmpdir(), "pegas-codeq-"));
const put = (rel: string, text: string) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};
put(
  "json/decoder.py",
  fakeSource({
    symbols: [
      sym("JSONDecoder", "class", 3, 5, "Simple JSON decoder.", "class JSONDecoder(object)"),
      sym(
        "JSONDecoder.decode",
        "method",
        4,
        4,
        "Return the Python representation of s.",
        "def decode(self, s, _w=WHITESPACE.match)",
      ),
      sym("JSONDecoder.raw_decode", "method", 5, 5, "Decode a JSON document from s.", "def raw_decode(self, s, idx=0)"),
      sym("_loads_impl", "function", 6, 6, null, "def _loads_impl(s)"),
    ],
    deps: [{ kind: "calls", from: { symbol: "JSONDecoder.decode" }, target: "raw_decode", receiver: "self", line: 4 }],
  }),
);
put(
  "json/__init__.py",
  fakeSource({
    symbols: [
      sym("loads", "function", 3, 3, "Deserialize s to a Python object.", "def loads(s, *, cls=None)"),
      sym("load", "function", 4, 4, "Deserialize fp.", "def load(fp)"),
    ],
    deps: [
      { kind: "imports", from: { module: true }, target: ".decoder", line: 1 },
      { kind: "calls", from: { symbol: "loads" }, target: "JSONDecoder", line: 3 },
      { kind: "calls", from: { symbol: "loads" }, target: "decode", receiver: "JSONDecoder()", line: 3 },
      { kind: "calls", from: { symbol: "load" }, target: "loads", line: 4 },
      { kind: "calls", from: { symbol: "load" }, target: "read", receiver: "fp", line: 4 },
    ],
    imports: [{ local: "JSONDecoder", module: ".decoder", name: "JSONDecoder" }],
  }),
);
put(
  "html/parser.py",
  fakeSource({
    symbols: [
      sym("HTMLParser", "class", 3, 4, "Find tags and other markup.", "class HTMLParser(ParserBase)"),
      sym("HTMLParser.feed", "method", 4, 4, "Feed data to the parser.", "def feed(self, data)"),
    ],
    deps: [{ kind: "inherits", from: { symbol: "HTMLParser" }, target: "ParserBase", line: 3 }],
  }),
);
put(
  "http/util.py",
  fakeSource({
    symbols: [sym("parse_http_response", "function", 3, 3, "Parse a raw response.", "def parse_http_response(raw)")],
  }),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const suite = codeSuite("pglite", {}, () => new FakeExtractor());

async function call(tool: ToolDef, args: Record<string, unknown>, progress: string[] = []): Promise<any> {
  const out = await tool.run(suite.s!, args, {
    signal: new AbortController().signal,
    progress: (_p, _t, m) => progress.push(m),
  });
  return z.object(tool.outputSchema).parse(out);
}

describe("code tools", () => {
  beforeAll(async () => {
    const progress: string[] = [];
    const r = await call(memoryStoreCode, { path: root, repo: "py" }, progress);
    expect(r.files.parsed).toBe(4);
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  const names = (r: any) => r.hits.map((h: any) => `${h.qualified_name}@${h.location}:${h.match}`);

  test("exact name first, then words; qualified names; split identifiers; docstring words", async () => {
    expect(names(await call(memorySearchCode, { query: "JSONDecoder" }))[0]).toBe("JSONDecoder@json/decoder.py:3:name");
    expect(names(await call(memorySearchCode, { query: "loads" }))[0]).toBe("loads@json/__init__.py:3:name");
    expect(names(await call(memorySearchCode, { query: "HTMLParser.feed" }))[0]).toBe(
      "HTMLParser.feed@html/parser.py:4:qualified_name",
    );
    expect(names(await call(memorySearchCode, { query: "feed" }))[0]).toBe("HTMLParser.feed@html/parser.py:4:name");
    expect(names(await call(memorySearchCode, { query: "json decoder" }))).toContain(
      "JSONDecoder@json/decoder.py:3:text",
    );
    expect(names(await call(memorySearchCode, { query: "parse response" }))[0]).toBe(
      "parse_http_response@http/util.py:3:text",
    );
    expect(names(await call(memorySearchCode, { query: "python representation" }))[0]).toBe(
      "JSONDecoder.decode@json/decoder.py:4:text",
    );
  });

  test("stemmed words: Russian and English inflections, ё = е, in names and docstrings", async () => {
    const ru = mkdtempSync(join(tmpdir(), "pegas-codeq-ru-"));
    try {
      mkdirSync(join(ru, "calc"));
      writeFileSync(
        join(ru, "calc", "sums.py"),
        fakeSource({
          symbols: [
            sym(
              "посчитать_сумму",
              "function",
              3,
              3,
              "Вычисляет сумму всех чисел в списке.",
              "def посчитать_сумму(числа)",
            ),
            sym("Накопитель", "class", 4, 4, "Хранит накопленные значения за субботу.", "class Накопитель"),
            sym("Ёлка", "class", 5, 5, null, "class Ёлка"),
          ],
        }),
      );
      expect((await call(memoryStoreCode, { path: ru, repo: "ru" })).files.parsed).toBe(1);
      const found = async (query: string) => names(await call(memorySearchCode, { query, repo: "ru" }));
      expect(await found("сумма чисел")).toEqual(["посчитать_сумму@calc/sums.py:3:stem"]);
      expect(await found("вычислить сумму")).toEqual(["посчитать_сумму@calc/sums.py:3:stem"]);
      expect(await found("суббота")).toEqual(["Накопитель@calc/sums.py:4:stem"]);
      expect(await found("Елка")).toEqual(["Ёлка@calc/sums.py:5:stem"]);
      expect(await found("Вычисляет сумму")).toEqual(["посчитать_сумму@calc/sums.py:3:text"]); // the words as written
      expect(await found("накопитель")).toEqual(["Накопитель@calc/sums.py:4:name"]);
      expect(await found("сумма\u0000 чисел")).toEqual(["посчитать_сумму@calc/sums.py:3:stem"]); // a NUL is dropped, not an error
      // English too: "decoding documents" meets "Decode a JSON document from s." only through stems.
      expect(names(await call(memorySearchCode, { query: "decoding documents", repo: "py" }))).toEqual([
        "JSONDecoder.raw_decode@json/decoder.py:5:stem",
      ]);
      // Every word as written outranks a stronger field matched only through stems.
      expect(names(await call(memorySearchCode, { query: "Deserialize fp", repo: "py" }))[0]).toBe(
        "load@json/__init__.py:4:text",
      );
    } finally {
      rmSync(ru, { recursive: true, force: true });
    }
  });

  test("a namespace named like its file is a symbol of its own; the file keeps its module symbol and its imports", async () => {
    const ns = mkdtempSync(join(tmpdir(), "pegas-codeq-ns-"));
    try {
      writeFileSync(
        join(ns, "geo.py"),
        fakeSource({
          symbols: [sym("geo", "module", 3, 4), sym("geo.area", "function", 4, 4), sym("main", "function", 5, 5)],
          deps: [
            { kind: "imports", from: { module: true }, target: "math", line: 1 },
            { kind: "calls", from: { symbol: "main" }, target: "area", line: 5 },
          ],
        }),
      );
      expect((await call(memoryStoreCode, { path: ns, repo: "ns" })).files.parsed).toBe(1);
      const rows = await sqlOf(suite.s!)`
        SELECT s.qualified_name, s.line_start, s.line_end, s.metadata @> '{"file": true}'::jsonb AS file,
               (SELECT array_agg(d.dst_name ORDER BY d.dst_name) FROM pm_code_dependency d WHERE d.src_symbol_id = s.id) AS deps
          FROM pm_code_symbol s WHERE s.repo = 'ns' AND s.kind = 'module' ORDER BY s.line_start`;
      const lines =
        fakeSource({
          symbols: [sym("geo", "module", 3, 4), sym("geo.area", "function", 4, 4), sym("main", "function", 5, 5)],
        }).split("\n").length - 1;
      expect(rows.map((r) => ({ ...r }))).toEqual([
        { qualified_name: "geo", line_start: 1, line_end: expect.any(Number), file: true, deps: ["math"] },
        { qualified_name: "geo", line_start: 3, line_end: 4, file: false, deps: null },
      ]);
      expect(rows[0].line_end).toBeGreaterThanOrEqual(lines - 1);
    } finally {
      rmSync(ns, { recursive: true, force: true });
    }
  });

  test("trigram fallback for typos; filters by kind, language and repo", async () => {
    const typo = await call(memorySearchCode, { query: "JSONDecodr" });
    expect(typo.hits[0]).toMatchObject({ qualified_name: "JSONDecoder", match: "trigram" });
    const methods = await call(memorySearchCode, { query: "decode", kind: "method" });
    expect(methods.hits.every((h: any) => h.kind === "method")).toBe(true);
    expect(methods.hits.length).toBeGreaterThan(0);
    expect((await call(memorySearchCode, { query: "loads", language: "go" })).hits).toEqual([]);
    await expect(call(memorySearchCode, { query: "loads", repo: "other" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      hint: expect.stringContaining("'py'"),
    });
    const hit = (await call(memorySearchCode, { query: "loads", limit: 1 })).hits[0];
    expect(hit).toMatchObject({
      repo: "py",
      path: "json/__init__.py",
      line: 3,
      signature: "def loads(s, *, cls=None)",
      docstring: "Deserialize s to a Python object.",
    });
    expect(hit.symbol_id).toMatch(/^symbol:\d+$/);
  });

  test("graph around a symbol: callers and callees, resolved and by name", async () => {
    const g = await call(memoryCodeGraph, { repo: "py", symbol: "loads" });
    expect(g.root.qualified_name).toBe("loads");
    const byId = new Map(g.nodes.map((n: any) => [n.id, n]));
    const pairs = g.edges
      .map((e: any) => `${(byId.get(e.src) as any).name} -${e.kind}-> ${(byId.get(e.dst) as any).name}`)
      .sort();
    expect(pairs).toEqual([
      "load -calls-> loads",
      "loads -calls-> JSONDecoder",
      "loads -calls-> JSONDecoder.decode",
      "loads: Deserialize s to a Python object. -defines-> loads",
    ]);
    const out = await call(memoryCodeGraph, {
      repo: "py",
      symbol: g.root.symbol_id,
      direction: "out",
      kinds: ["calls"],
      depth: 2,
    });
    const outNames = out.edges
      .map(
        (e: any) =>
          `${(out.nodes.find((n: any) => n.id === e.src) as any).name} -> ${(out.nodes.find((n: any) => n.id === e.dst) as any).name}`,
      )
      .sort();
    expect(outNames).toEqual([
      "JSONDecoder.decode -> JSONDecoder.raw_decode",
      "loads -> JSONDecoder",
      "loads -> JSONDecoder.decode",
    ]);
  });

  test("graph of a file: its imports and every dependency its symbols write", async () => {
    const g = await call(memoryCodeGraph, { repo: "py", symbol: "json/__init__.py" });
    expect(g.root).toMatchObject({ kind: "module", qualified_name: "json", path: "json/__init__.py" });
    const deps = g.file.dependencies.map((d: any) => `${d.line} ${d.from} ${d.kind} ${d.target} ${d.resolved ?? "-"}`);
    expect(deps).toEqual([
      "1 json imports .decoder json/decoder.py:json/decoder",
      "3 loads calls JSONDecoder json/decoder.py:JSONDecoder",
      "3 loads calls decode json/decoder.py:JSONDecoder.decode",
      "4 load calls loads json/__init__.py:loads",
      "4 load calls read -",
    ]);
    expect(g.nodes.some((n: any) => n.id === "name:read")).toBe(true);
  });

  test("repository overview", async () => {
    const g = await call(memoryCodeGraph, { repo: "py" });
    expect(g.summary.files).toEqual({ total: 4, parsed: 4, failed: 0, skipped: 0 });
    expect(g.summary.symbols.total).toBe(9);
    expect(g.summary.dependencies.imports).toEqual({ resolved: 1, unresolved: 0 });
    expect(g.summary.moduleImports).toEqual([{ from: "json/__init__.py", to: "json/decoder.py" }]);
    expect(g.summary.mostDependedOn.map((m: any) => m.symbol.qualified_name)).toEqual(
      expect.arrayContaining(["JSONDecoder", "loads", "JSONDecoder.raw_decode"]),
    );
  });

  test("a repository keyed by its path is found by a path-like repo argument; a file by its absolute path", async () => {
    const r = await call(memoryStoreCode, { path: root });
    expect(r.repo).toBe(realpathSync(root));
    const g = await call(memoryCodeGraph, { repo: `${root}/`, symbol: join(realpathSync(root), "json/__init__.py") });
    expect(g.root).toMatchObject({ path: "json/__init__.py", repo: realpathSync(root) });
    expect((await call(memorySearchCode, { query: "loads", repo: join(root, ".") })).hits[0].repo).toBe(
      realpathSync(root),
    );
  });

  test("a batch the store refuses is committed file by file; the refused file is recorded as failed", async () => {
    const s = suite.s!;
    const real = s.code;
    const poisoned = Object.create(real);
    poisoned.commitFiles = (repo: any, files: any[], model: string) =>
      files.some((f) => f.path === "http/util.py" && f.status === "parsed")
        ? Promise.reject(new PegasError("INVALID_INPUT", "value rejected by the schema"))
        : real.commitFiles(repo, files, model);
    const r = await storeCode(
      {
        ...s,
        code: poisoned,
        extractor: s.extractor,
        embedder: s.embedder,
        config: s.config,
      },
      { path: root, repo: "poisoned" },
      { trustedPath: true },
    );
    expect(r.files).toMatchObject({ parsed: 3, failed: 1 });
    expect(r.errors).toEqual([
      { path: "http/util.py", code: "INVALID_INPUT", message: "value rejected by the schema" },
    ]);
    const rows = await sqlOf(s)`SELECT path, status FROM pm_code_file WHERE repo = 'poisoned' ORDER BY path`;
    expect(rows.map((x) => `${x.path}:${x.status}`)).toEqual([
      "html/parser.py:parsed",
      "http/util.py:failed",
      "json/__init__.py:parsed",
      "json/decoder.py:parsed",
    ]);
  });

  test("memory_search finds code atoms beside text, cited path:line in the repository document", async () => {
    const out: any = await memorySearch.run(
      suite.s!,
      { query: "deserialize python object" },
      { signal: new AbortController().signal, progress: () => {} },
    );
    const hit = out.hits.find((h: any) => h.type === "code");
    expect(hit.claim).toBe("loads: Deserialize s to a Python object.");
    expect(hit.citations[0]).toMatchObject({
      uri: "repo:py",
      kind: "code_repo",
      locator: { href: "json/__init__.py", line_start: 3, line_end: 3 },
    });
    expect(hit.citations[0].quote).toContain("loads");
  });

  test("errors say what to do", async () => {
    await expect(call(memoryCodeGraph, { repo: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      hint: expect.stringContaining("'py'"),
    });
    await expect(call(memoryCodeGraph, { repo: "py", symbol: "NoSuchThing" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(call(memorySearchCode, { query: "x", kind: "widget" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(call(memorySearchCode, { query: "x", language: "cobol" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("cobol"),
    });
    await expect(call(memoryStoreCode, { path: join(root, "json/decoder.py") })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(call(memoryStoreCode, { path: join(root, "missing") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const loop = join(tmpdir(), `pegas-codeq-loop-${process.pid}`);
    rmSync(loop, { force: true });
    symlinkSync(loop, loop);
    try {
      await expect(call(memoryStoreCode, { path: loop })).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringContaining("symbolic link loop"),
      });
    } finally {
      rmSync(loop, { force: true });
    }
  });
});
