/**
 * The project's own code as a real case: src/mcp/server.ts (what it imports, at load and on first use, the calls it
 * makes), the registry that imports the tool modules (cross-checked against the files in src/mcp/tools), every
 * source file of the repository, and third-party JavaScript/TypeScript from node_modules (the MCP SDK's compiled
 * package).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { edge, lineOf, REPO_ROOT } from "./support.ts";

const extractor = treeSitterExtractor();

function read(path: string): string {
  return readFileSync(join(REPO_ROOT, path), "utf8");
}

/** Files below `dir` (absolute) that have a grammar, skipping node_modules and dot-folders unless `all`. */
function sources(dir: string, all = false): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (all || (e.name !== "node_modules" && !e.name.startsWith("."))) out.push(...sources(path, all));
    } else if (extractor.languageOf(e.name)) out.push(path);
  }
  return out;
}

const text = read("src/mcp/server.ts");
const f = await extractor.extract("src/mcp/server.ts", text, "typescript");

describe("src/mcp/server.ts", () => {
  test("imports the registry's types at load and the registry itself (with the tools) in createMcpServer", () => {
    expect(f.module).toBe("src/mcp/server");
    expect(f.syntaxErrors).toBe(0);
    expect(f.dependencies).toContainEqual(
      edge("imports", null, "./registry.ts", lineOf(text, /from "\.\/registry\.ts"/)),
    );
    expect(f.dependencies).toContainEqual(
      edge("imports", "createMcpServer", "./registry.ts", lineOf(text, /import\("\.\/registry\.ts"\)/)),
    );
    expect(f.dependencies).toContainEqual(
      edge("imports", null, "@modelcontextprotocol/sdk/server/mcp.js", lineOf(text, /server\/mcp\.js"/)),
    );
    expect(f.imports).toContainEqual({
      local: "serveToolsOnFirstUse",
      module: "./deferred-tools.ts",
      name: "serveToolsOnFirstUse",
    });
    expect(f.imports).toContainEqual({
      local: "McpServer",
      module: "@modelcontextprotocol/sdk/server/mcp.js",
      name: "McpServer",
    });
  });

  test("createMcpServer builds the server and serves the registry's tools; serveStdio creates it", () => {
    const create = f.symbols.find((s) => s.qualifiedName === "createMcpServer");
    expect(create).toMatchObject({ kind: "function", lineStart: lineOf(text, /^export function createMcpServer\(/) });
    expect(create?.signature).toStartWith("export function createMcpServer(");
    const calls = (from: string) =>
      f.dependencies
        .filter((d) => d.kind === "calls" && "symbol" in d.from && d.from.symbol === from)
        .map((d) => d.target);
    expect(calls("createMcpServer")).toEqual(
      expect.arrayContaining(["McpServer", "serveToolsOnFirstUse", "toolRequestHandlers"]),
    );
    expect(calls("serveStdio")).toEqual(expect.arrayContaining(["createMcpServer", "StrictStdioTransport", "connect"]));
  });
});

describe("src/mcp/registry.ts", () => {
  test("imports every tool module that exists, as the file names them", async () => {
    const text = read("src/mcp/registry.ts");
    const f = await extractor.extract("src/mcp/registry.ts", text, "typescript");
    const found = f.dependencies
      .filter((d) => d.kind === "imports" && d.target.startsWith("./tools/"))
      .map((d) => d.target);
    const written = [...text.matchAll(/^import [^;]* from "(\.\/tools\/[^"]+)";$/gm)].map((m) => m[1]);
    expect(found.sort()).toEqual(written.sort());
    expect(found.length).toBeGreaterThan(0);
    // Tool modules sit in one folder per toolset (src/mcp/tools/<toolset>/).
    const files = new Set(
      readdirSync(join(REPO_ROOT, "src/mcp/tools"), { recursive: true }).map((n) => `./tools/${String(n)}`),
    );
    for (const target of found) expect(files.has(target)).toBe(true);
    const registerTools = f.dependencies
      .filter((d) => "symbol" in d.from && d.from.symbol === "registerTools")
      .map((d) => d.target);
    expect(registerTools).toContain("serveToolCalls");
  });
});

describe("whole trees", () => {
  test("every source file of this repository extracts; nearly all without syntax errors", async () => {
    const files = ["src", "tests", "bench"].flatMap((d) => sources(join(REPO_ROOT, d)));
    let withErrors = 0;
    let symbols = 0;
    for (const path of files) {
      const rel = relative(REPO_ROOT, path);
      const r = await extractor.extract(rel, readFileSync(path, "utf8"), extractor.languageOf(rel)!);
      if (r.syntaxErrors > 0) withErrors += 1;
      symbols += r.symbols.length;
    }
    expect(files.length).toBeGreaterThan(100);
    expect(symbols).toBeGreaterThan(files.length);
    // tree-sitter-typescript 0.23 misreads a few valid constructs (`import("x").T<any>` in a type).
    expect(withErrors / files.length).toBeLessThan(0.02);
  });

  test("third-party JavaScript and declarations (node_modules/@modelcontextprotocol/sdk/dist/esm)", async () => {
    const files = sources(join(REPO_ROOT, "node_modules/@modelcontextprotocol/sdk/dist/esm"), true);
    expect(files.length).toBeGreaterThan(20);
    let withErrors = 0;
    let classes = 0;
    for (const path of files) {
      const rel = relative(REPO_ROOT, path);
      const r = await extractor.extract(rel, readFileSync(path, "utf8"), extractor.languageOf(rel)!);
      if (r.syntaxErrors > 0) withErrors += 1;
      classes += r.symbols.filter((s) => s.kind === "class").length;
    }
    expect(classes).toBeGreaterThan(10);
    expect(withErrors / files.length).toBeLessThan(0.02);
  });
});
