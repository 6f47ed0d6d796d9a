/**
 * Code memory end to end with the real tree-sitter extractor, through the MCP tools' run functions:
 * - Python's standard library (without site-packages and its own test suites, a third of its files and most of its
 *   bytes; bench/benchmarks/code.ts stores the whole of it) on PostgreSQL: every file parsed or reported;
 *   memory_search_code finds JSONDecoder, loads and HTMLParser.feed at their real path:line; an unchanged second run
 *   parses no file;
 * - this project's own repository on PGlite: memory_code_graph for src/mcp/server.ts shows the modules it imports and
 *   the calls it makes, and (two hops out) the tool modules the registry imports;
 * - a copy of two stdlib packages: one file edited and one deleted are replaced and removed exactly.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { toolResult } from "../../src/mcp/registry.ts";
import type { ToolDef } from "../../src/mcp/tool.ts";
import { memoryCodeGraph } from "../../src/mcp/tools/code/memory-code-graph.ts";
import { memorySearchCode } from "../../src/mcp/tools/code/memory-search-code.ts";
import { memoryStoreCode } from "../../src/mcp/tools/code/memory-store-code.ts";
import type { SymbolExtractor } from "../../src/ports/models/symbol-extractor.ts";
import { codeSuite, sqlOf, type TestCodeServices } from "./support.ts";

/** The real extractor, counting the files it parses. */
function countingExtractor(): SymbolExtractor & { parsed: string[] } {
  const real = treeSitterExtractor();
  const parsed: string[] = [];
  return {
    parsed,
    languageOf: (p) => real.languageOf(p),
    extract: (p, s, l) => (parsed.push(p), real.extract(p, s, l)),
  };
}

async function call(s: TestCodeServices, tool: ToolDef, args: Record<string, unknown>): Promise<any> {
  const out = await tool.run(s, args, { signal: new AbortController().signal, progress: () => {} });
  return z.object(tool.outputSchema).parse(out);
}

/** 1-based line of the first line of `file` that starts (after indentation) with `prefix`. */
function lineOf(file: string, prefix: string): number {
  const i = readFileSync(file, "utf8")
    .split("\n")
    .findIndex((l) => l.trimStart().startsWith(prefix));
  if (i < 0) throw new Error(`no '${prefix}' in ${file}`);
  return i + 1;
}

function stdlibDir(): string | null {
  try {
    const dir = execFileSync("python3", ["-c", 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], {
      encoding: "utf8",
    }).trim();
    return existsSync(join(dir, "json", "decoder.py")) ? dir : null;
  } catch {
    return null;
  }
}

const STDLIB = stdlibDir();
/** Left out of the stdlib run: installed packages, and the test suites (test/, ctypes/test/, …). */
const STDLIB_EXCLUDE = ["site-packages/", "test/", "tests/"];
if (!STDLIB) console.warn("skipped: no Python standard library found (python3 -c 'import sysconfig; …')");

describe("Python standard library (PostgreSQL)", () => {
  const extractor = countingExtractor();
  const suite = codeSuite("postgres", STDLIB ? { ingest_roots: [STDLIB] } : {}, () => extractor);

  test("every file parsed or reported; JSONDecoder, loads and HTMLParser.feed found at their path:line; an unchanged run parses nothing", async () => {
    if (suite.skip || !STDLIB) return console.warn(`skipped: ${suite.skip ?? "no stdlib"}`);
    const t0 = performance.now();
    const r = await call(suite.s!, memoryStoreCode, { path: STDLIB, exclude: STDLIB_EXCLUDE });
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `stdlib: ${r.files.parsed} files parsed, ${r.files.failed} failed, ${r.symbols} symbols, ${r.dependencies.stored} dependencies ` +
        `(${r.dependencies.resolved} resolved), ${r.atoms.created} code atoms in ${seconds.toFixed(1)} s; skipped ${JSON.stringify(r.files.skipped)}`,
    );
    // Every source file (one with a grammar) was parsed, or reported as failed, generated, binary or too large.
    const sk = (k: string): number => r.files.skipped[k] ?? 0;
    const sources = r.files.seen - sk("unsupported") - sk("ignored") - sk("excluded") - sk("symlink") - sk("special");
    expect(r.files.parsed + r.files.failed + sk("generated") + sk("binary") + sk("too_large")).toBe(sources);
    expect(r.files.parsed).toBeGreaterThan(700);
    expect(r.errors_total).toBe(r.files.failed);
    expect(extractor.parsed.length).toBe(r.files.parsed + r.files.failed);

    const first = async (query: string) => (await call(suite.s!, memorySearchCode, { query, repo: r.repo })).hits[0];
    expect(await first("JSONDecoder")).toMatchObject({
      qualified_name: "JSONDecoder",
      kind: "class",
      location: `json/decoder.py:${lineOf(join(STDLIB, "json/decoder.py"), "class JSONDecoder")}`,
    });
    expect(await first("HTMLParser.feed")).toMatchObject({
      qualified_name: "HTMLParser.feed",
      kind: "method",
      location: `html/parser.py:${lineOf(join(STDLIB, "html/parser.py"), "def feed(")}`,
    });
    // The venv package is walked (a package, not a virtual environment); module docstrings are searchable.
    expect(await first("EnvBuilder")).toMatchObject({
      qualified_name: "EnvBuilder",
      location: expect.stringMatching(/^venv\/__init__\.py:\d+$/),
    });
    expect(await first("Implementation of JSONDecoder")).toMatchObject({
      kind: "module",
      location: "json/decoder.py:1",
    });
    const loads = (await call(suite.s!, memorySearchCode, { query: "loads", repo: r.repo, limit: 10 })).hits;
    // Every definition named exactly `loads` (json, pickle, tomllib, xmlrpc …) ranks before any other hit.
    const other = loads.findIndex((h: any) => h.name !== "loads");
    const exact = other < 0 ? loads.length : other;
    expect(exact).toBeGreaterThanOrEqual(3);
    expect(loads.slice(exact).every((h: any) => h.name !== "loads")).toBe(true);
    expect(loads.map((h: any) => h.location)).toContain(
      `json/__init__.py:${lineOf(join(STDLIB, "json/__init__.py"), "def loads(")}`,
    );

    extractor.parsed.length = 0;
    const again = await call(suite.s!, memoryStoreCode, { path: STDLIB, exclude: STDLIB_EXCLUDE });
    expect(extractor.parsed).toEqual([]);
    expect(again.files).toMatchObject({ parsed: 0, failed: 0, removed: 0 });
    expect(again.dependencies.resolved_now).toBe(0);
  }, 600_000);
});

describe("this repository (PGlite)", () => {
  const repoRoot = resolve(import.meta.dir, "../..");
  const suite = codeSuite("pglite", { ingest_roots: [repoRoot] });

  test("memory_code_graph for src/mcp/server.ts: the modules it imports, the calls it makes, the tool modules behind the registry", async () => {
    const r = await call(suite.s!, memoryStoreCode, { path: repoRoot, repo: "pegas-memory" });
    expect(r.files.parsed).toBeGreaterThan(100);
    expect(r.directories_skipped.vendored).toBeGreaterThanOrEqual(1); // node_modules
    const g = await call(suite.s!, memoryCodeGraph, { repo: "pegas-memory", symbol: "src/mcp/server.ts" });
    expect(g.root).toMatchObject({ kind: "module", path: "src/mcp/server.ts" });
    const deps = g.file.dependencies.map((d: any) => `${d.from} ${d.kind} ${d.target} → ${d.resolved ?? "?"}`);
    expect(deps).toContain("src/mcp/server imports ./registry.ts → src/mcp/registry.ts:src/mcp/registry");
    expect(deps).toContain(
      "src/mcp/server imports ../wiring/lazy-services.ts → src/wiring/lazy-services.ts:src/wiring/lazy-services",
    );
    expect(deps).toContain("src/mcp/server imports @modelcontextprotocol/sdk/server/mcp.js → ?");
    // The tool modules load on first use: createMcpServer imports the registry dynamically.
    expect(deps).toContain("createMcpServer imports ./registry.ts → src/mcp/registry.ts:src/mcp/registry");
    expect(deps).toContain(
      "createMcpServer calls serveToolsOnFirstUse → src/mcp/deferred-tools.ts:serveToolsOnFirstUse",
    );
    const two = await call(suite.s!, memoryCodeGraph, {
      repo: "pegas-memory",
      symbol: "src/mcp/server.ts",
      kinds: ["imports"],
      direction: "out",
      depth: 2,
      limit: 100, // the default is 40 nodes
    });
    const reached = two.nodes.filter((n: any) => n.symbol).map((n: any) => n.symbol.path);
    expect(reached).toContain("src/mcp/registry.ts");
    expect(reached).toContain("src/mcp/tools/search/memory-search.ts");

    // Issue 20: the default answers on this repository stay under 4,000 o200k tokens in both forms (the text, and
    // the JSON of the structured content), and say how to get more when they leave something out.
    const sizes: Record<string, [number, number]> = {};
    const size = async (tool: ToolDef, args: Record<string, unknown>, out?: Record<string, unknown>) => {
      const res = toolResult(tool, out ?? (await call(suite.s!, tool, args)), args);
      const text = (res.content[0] as { text: string }).text;
      sizes[`${tool.name} ${JSON.stringify(args)}`] = [
        countTokens(text),
        countTokens(JSON.stringify(res.structuredContent)),
      ];
      return text;
    };
    await size(memoryStoreCode, { path: repoRoot, repo: "pegas-memory" }, r);
    await size(memorySearchCode, { query: "render", repo: "pegas-memory" });
    await size(memoryCodeGraph, { repo: "pegas-memory" });
    await size(memoryCodeGraph, { repo: "pegas-memory", symbol: "src/core/services.ts" });
    await size(memoryCodeGraph, { repo: "pegas-memory", symbol: "src/mcp/server.ts", depth: 2 });
    const callers = await size(memoryCodeGraph, { repo: "pegas-memory", symbol: "PegasError" }); // 180+ dependents
    expect(callers).toContain("narrow with kinds or direction, or raise limit");
    expect(Object.entries(sizes).filter(([, [text, json]]) => text > 4000 || json > 4000)).toEqual([]);
  }, 300_000);
});

describe("a file edited, a file deleted (PGlite)", () => {
  const extractor = countingExtractor();
  const suite = codeSuite("pglite", {}, () => extractor);
  const dir = mkdtempSync(join(tmpdir(), "pegas-code-e2e-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("replaced and removed exactly; unchanged files keep their symbols; callers re-resolved", async () => {
    if (!STDLIB) return;
    for (const pkg of ["json", "html"])
      cpSync(join(STDLIB, pkg), join(dir, pkg), { recursive: true, filter: (p) => !p.includes("__pycache__") });
    const opts = { trustedPath: true };
    const store = () =>
      import("../../src/core/code/ingest.ts").then((m) => m.storeCode(suite.s!, { path: dir, repo: "copy" }, opts));
    const first = await store();
    expect(first.files.failed).toBe(0);
    const sql = sqlOf(suite.s!);
    const ids = async (path: string) =>
      (await sql`SELECT id FROM pm_code_symbol WHERE repo = 'copy' AND path = ${path} ORDER BY id`).map((x) =>
        Number(x.id),
      );
    const initIds = await ids("json/__init__.py");
    const entities = await ids("html/entities.py");
    expect(entities.length).toBeGreaterThan(0);
    const decoder = join(dir, "json/decoder.py");
    const text = readFileSync(decoder, "utf8");
    writeFileSync(
      decoder,
      `${text}\n\ndef added_function(x):\n    """Added by the test."""\n    return JSONDecoder().decode(x)\n`,
    );
    rmSync(join(dir, "html/entities.py"));
    extractor.parsed.length = 0;
    const r = await store();
    expect(extractor.parsed).toEqual(["json/decoder.py"]);
    expect(r.files).toMatchObject({ parsed: 1, removed: 1, failed: 0 });
    expect(await ids("html/entities.py")).toEqual([]);
    expect(await ids("json/__init__.py")).toEqual(initIds);
    const hit = (await call(suite.s!, memorySearchCode, { query: "added_function", repo: "copy" })).hits[0];
    expect(hit.location).toBe(`json/decoder.py:${text.split("\n").length + 2}`);
    const [edge] = await sql`
      SELECT t.path, t.qualified_name FROM pm_code_dependency d JOIN pm_code_symbol s ON s.id = d.src_symbol_id
        JOIN pm_code_symbol t ON t.id = d.dst_symbol_id
       WHERE d.repo = 'copy' AND d.path = 'json/__init__.py' AND s.qualified_name = '_default_decoder' AND d.dst_name = 'JSONDecoder'`;
    expect(edge).toMatchObject({ path: "json/decoder.py", qualified_name: "JSONDecoder" });
    const gone =
      await sql`SELECT count(*)::int AS n FROM pm_outbox WHERE entity_type = 'code_symbol' AND op = 'delete' AND entity_id = ANY(${entities.map(String)}::text[])`;
    expect(gone[0].n).toBe(entities.length);
  }, 300_000);
});
