/**
 * memory_code_graph and memory_search_code on references that used to be answered silently wrong: an ambiguous
 * name (one of several symbols picked), overloads (one symbol), an unknown edge kind (an empty graph), an unknown
 * repo in search (no hits), edges without their line, and the ranking of whole-word and dotted queries. Through the
 * ToolDefs (outputs checked against their zod schemas) and the CLI function, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import { runCodeGraph } from "../../src/cli/code-commands.ts";
import type { ToolDef } from "../../src/mcp/tool.ts";
import { memoryCodeGraph } from "../../src/mcp/tools/code/memory-code-graph.ts";
import { memoryLink } from "../../src/mcp/tools/knowledge/memory-link.ts";
import { memorySearchCode } from "../../src/mcp/tools/code/memory-search-code.ts";
import { memoryStoreCode } from "../../src/mcp/tools/code/memory-store-code.ts";
import { FakeExtractor, fakeSource, sym } from "./fake-extractor.ts";
import { codeSuite } from "./support.ts";

const root = mkdtempSync(join(tmpdir(), "pegas-coderefs-"));
const put = (rel: string, text: string) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};
// Top-level `loads` in two files (json and plistlib), as in the standard library.
put(
  "json/__init__.py",
  fakeSource({
    symbols: [
      sym("loads", "function", 3, 3, "Deserialize s to a Python object."),
      sym("load", "function", 4, 4, "Deserialize fp."),
    ],
    deps: [
      { kind: "calls", from: { symbol: "load" }, target: "loads", line: 4 },
      { kind: "calls", from: { symbol: "loads" }, target: "decode", line: 3 },
    ],
  }),
);
put(
  "plistlib.py",
  fakeSource({ symbols: [sym("loads", "function", 3, 3, "Read a .plist file from a bytes object.")] }),
);
// Three declarations of one overloaded function; a class and a function of one name in one file.
put(
  "over.py",
  fakeSource({
    symbols: [
      sym("parse", "function", 3, 3, "Parse text."),
      sym("parse", "function", 4, 4),
      sym("parse", "function", 5, 5),
      sym("Thing", "class", 6, 6),
      sym("Thing", "function", 7, 7),
    ],
  }),
);
// Two `feed` methods; a class whose docstring mentions feed.
put(
  "html/parser.py",
  fakeSource({
    symbols: [
      sym(
        "HTMLParser",
        "class",
        3,
        4,
        "Find tags and other markup; call feed() with the data.",
        "class HTMLParser(ParserBase)",
      ),
      sym("HTMLParser.feed", "method", 4, 4, "Feed data to the parser.", "def feed(self, data)"),
      sym("XMLParser", "class", 5, 6, "Parse XML.", "class XMLParser"),
      sym("XMLParser.feed", "method", 6, 6, "Feed XML data.", "def feed(self, data)"),
    ],
  }),
);
// Names around `store code`, as in this project: only storeCode is made of exactly those words.
put(
  "core/code.py",
  fakeSource({
    symbols: [
      sym(
        "StoreCodeInput",
        "interface",
        3,
        3,
        "Input of store code: the path to store and the code repo.",
        "interface StoreCodeInput",
      ),
      sym("StoredCodeFile", "interface", 4, 4, "What the store keeps of a code file.", "interface StoredCodeFile"),
      sym("CodeStore", "interface", 5, 6, "The code store: store code files.", "interface CodeStore"),
      sym("CodeStore.storedFiles", "method", 6, 6, "Every stored code file.", "storedFiles(repo)"),
      sym("storeCode", "function", 7, 7, null, "function storeCode(s, input)"),
    ],
  }),
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function call(s: unknown, tool: ToolDef, args: Record<string, unknown>): Promise<any> {
  const out = await tool.run(s as never, args, { signal: new AbortController().signal, progress: () => {} });
  return z.object(tool.outputSchema).parse(out);
}

for (const backend of ["pglite", "postgres"] as const) {
  describe(`code references (${backend})`, () => {
    const suite = codeSuite(backend, {}, () => new FakeExtractor());
    const run = (tool: ToolDef, args: Record<string, unknown>) => call(suite.s, tool, args);
    const names = (r: any) => r.hits.map((h: any) => `${h.qualified_name}@${h.location}:${h.match}`);

    beforeAll(async () => {
      if (suite.skip) return;
      expect((await run(memoryStoreCode, { path: root, repo: "std" })).files.parsed).toBe(5);
    });

    test("a qualified name of symbols in several files is INVALID_INPUT listing them as symbol:<id> path:line", async () => {
      if (suite.skip) return console.log(`skipped: ${suite.skip}`);
      const err = await run(memoryCodeGraph, { repo: "std", symbol: "loads" }).catch((e) => e);
      expect(err).toMatchObject({ code: "INVALID_INPUT", hint: expect.stringContaining("symbol:<id>") });
      expect(err.message).toMatch(/'loads' is ambiguous in repo 'std': 2 symbols/);
      expect(err.message).toMatch(
        /symbol:\d+ json\/__init__\.py:3 \(function loads\); symbol:\d+ plistlib\.py:3 \(function loads\)/,
      );
      // Each candidate's id answers; so does the file path.
      const id = /symbol:(\d+) plistlib/.exec(err.message)![1];
      expect((await run(memoryCodeGraph, { repo: "std", symbol: `symbol:${id}` })).root).toMatchObject({
        path: "plistlib.py",
        qualified_name: "loads",
      });
      expect((await run(memoryCodeGraph, { repo: "std", symbol: "plistlib.py" })).root).toMatchObject({
        path: "plistlib.py",
        kind: "module",
      });
      // Of several kinds in one file; a bare name of methods of two classes.
      await expect(run(memoryCodeGraph, { repo: "std", symbol: "Thing" })).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/over\.py:6 \(class Thing\); symbol:\d+ over\.py:7 \(function Thing\)/),
      });
      await expect(run(memoryCodeGraph, { repo: "std", symbol: "feed" })).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(/2 symbols have this name: .*HTMLParser\.feed.*XMLParser\.feed/),
      });
      expect((await run(memoryCodeGraph, { repo: "std", symbol: "XMLParser.feed" })).root).toMatchObject({
        qualified_name: "XMLParser.feed",
        line: 6,
      });
    });

    test("overloads are one symbol: the first declaration, with their count", async () => {
      if (suite.skip) return;
      const g = await run(memoryCodeGraph, { repo: "std", symbol: "parse" });
      expect(g.root).toMatchObject({ qualified_name: "parse", line: 3 });
      expect(g.overloads).toBe(3);
      expect((await run(memoryCodeGraph, { repo: "std", symbol: "load" })).overloads).toBeUndefined();
    });

    test("an unknown edge kind is INVALID_INPUT listing the valid ones; a kind memory_link stored is valid", async () => {
      if (suite.skip) return;
      await expect(run(memoryCodeGraph, { repo: "std", symbol: "load", kinds: ["import"] })).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringContaining("'import'"),
        hint: expect.stringContaining("imports, calls, inherits, defines"),
      });
      const g = await run(memoryCodeGraph, { repo: "std", symbol: "load", kinds: ["calls"] });
      expect(g.edges.length).toBe(1);
      const from = g.root.symbol_id;
      const to = (await run(memorySearchCode, { query: "XMLParser", repo: "std", limit: 1 })).hits[0].symbol_id;
      await run(memoryLink, { src: from, dst: to, kind: "reads_like" });
      const linked = await run(memoryCodeGraph, { repo: "std", symbol: "load", kinds: ["reads_like"] });
      expect(linked.edges.map((e: any) => `${e.kind} ${e.dst} ${e.line ?? "no line"}`)).toEqual([
        `reads_like ${to} no line`,
      ]);
      await expect(
        run(memoryCodeGraph, { repo: "std", symbol: "load", kinds: ["calls", "reads_lik"] }),
      ).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringContaining("'reads_lik'"),
        hint: expect.stringContaining("reads_like"),
      });
      // The CLI's --kind goes the same way.
      const s = suite.s!;
      const cli = {
        command: "code-graph",
        positionals: ["std", "load"],
        values: { kind: ["import"] },
        flags: {},
      } as never;
      await expect(runCodeGraph(s.config, cli, (_c, fn) => fn(s, new AbortController().signal))).rejects.toMatchObject({
        code: "INVALID_INPUT",
      });
    });

    test("kinds without a symbol is INVALID_INPUT: kinds filter a symbol's subgraph, not the overview", async () => {
      if (suite.skip) return;
      for (const kinds of [["callz"], ["calls"]]) {
        await expect(run(memoryCodeGraph, { repo: "std", kinds })).rejects.toMatchObject({
          code: "INVALID_INPUT",
          message: expect.stringContaining("kinds filter a symbol's subgraph"),
          hint: expect.stringContaining("symbol"),
        });
      }
      // An empty list filters nothing; the overview answers.
      expect((await run(memoryCodeGraph, { repo: "std", kinds: [] })).summary.symbols.total).toBeGreaterThan(0);
      const s = suite.s!;
      const cli = { command: "code-graph", positionals: ["std"], values: { kind: ["callz"] }, flags: {} } as never;
      await expect(runCodeGraph(s.config, cli, (_c, fn) => fn(s, new AbortController().signal))).rejects.toMatchObject({
        code: "INVALID_INPUT",
      });
    });

    test("edges of the symbol subgraph carry the line of their site", async () => {
      if (suite.skip) return;
      const g = await run(memoryCodeGraph, { repo: "std", symbol: "load", depth: 2 });
      const byId = new Map(g.nodes.map((n: any) => [n.id, n.name]));
      const calls = g.edges
        .filter((e: any) => e.kind === "calls")
        .map((e: any) => `${byId.get(e.src)} -> ${byId.get(e.dst)} @${e.line}`)
        .sort();
      expect(calls).toEqual(["load -> loads @4", "loads -> decode @3"]);
      expect(g.edges.some((e: any) => e.kind === "defines")).toBe(true);
      expect(g.edges.filter((e: any) => e.kind === "defines").every((e: any) => e.line === undefined)).toBe(true);
    });

    test("search in a repo that is not stored is NOT_FOUND naming the stored ones", async () => {
      if (suite.skip) return;
      await expect(run(memorySearchCode, { query: "loads", repo: "nope" })).rejects.toMatchObject({
        code: "NOT_FOUND",
        hint: expect.stringContaining("'std'"),
      });
      expect((await run(memorySearchCode, { query: "zzzqqq", repo: "std" })).hits).toEqual([]);
    });

    test("a name made of exactly the query's words ranks first, then names holding every word whole", async () => {
      if (suite.skip) return;
      const hits = names(await run(memorySearchCode, { query: "store code", repo: "std" }));
      expect(hits[0]).toBe("storeCode@core/code.py:7:text");
      expect(hits.slice(1, 3).sort()).toEqual(["CodeStore@core/code.py:5:text", "StoreCodeInput@core/code.py:3:text"]);
      expect(hits.indexOf("StoredCodeFile@core/code.py:4:text")).toBeGreaterThan(2);
      expect(names(await run(memorySearchCode, { query: "store_code", repo: "std" }))[0]).toBe(
        "storeCode@core/code.py:7:text",
      );
      expect(names(await run(memorySearchCode, { query: "storeCode", repo: "std" }))[0]).toBe(
        "storeCode@core/code.py:7:name",
      );
    });

    test("a dotted query ranks the symbol whose module-qualified name ends with it first", async () => {
      if (suite.skip) return;
      const r = await run(memorySearchCode, { query: "html.parser.HTMLParser.feed", repo: "std" });
      expect(names(r)[0]).toBe("HTMLParser.feed@html/parser.py:4:qualified_name");
      expect(r.hits[0].score).toBeGreaterThanOrEqual(5);
      expect(names(await run(memorySearchCode, { query: "parser.XMLParser.feed", repo: "std" }))[0]).toBe(
        "XMLParser.feed@html/parser.py:6:qualified_name",
      );
      expect(names(await run(memorySearchCode, { query: "HTMLParser.feed", repo: "std" }))[0]).toBe(
        "HTMLParser.feed@html/parser.py:4:qualified_name",
      );
      // The module's words need not be among the symbol's own.
      expect(names(await run(memorySearchCode, { query: "plistlib.loads", repo: "std" }))[0]).toBe(
        "loads@plistlib.py:3:qualified_name",
      );
      expect(names(await run(memorySearchCode, { query: "json.loads", repo: "std" }))[0]).toBe(
        "loads@json/__init__.py:3:qualified_name",
      );
    });
  });
}
