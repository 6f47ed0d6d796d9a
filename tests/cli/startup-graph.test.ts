/**
 * What a start loads (issue 23): the executable is built with chunk splitting, so a command or an MCP request loads
 * only the chunks its static imports reach, and the rest on its first dynamic import(). Bundled here as the build
 * does it (splitting, target bun, not minified so that each module keeps its `// path` comment), the modules that
 * `--version` and `serve` load before their first byte is answered must hold none of the heavy ones: PGlite,
 * PostgreSQL, tree-sitter, PDF, HTML, the tokenizer, HTTP, the store, the core and the tools.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUNDLE } from "../../scripts/build.ts";

const ROOT = resolve(import.meta.dir, "../..");
let out = "";

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "pegas-graph-"));
  const r = await Bun.build({
    entrypoints: [join(ROOT, "main.ts")],
    outdir: out,
    target: "bun",
    splitting: BUNDLE.splitting,
  });
  if (!r.success) throw new Error(r.logs.map(String).join("\n"));
}, 60_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The chunk whose modules include `module` (a path relative to the repository). */
function chunkOf(module: string): string {
  const found = readdirSync(out).filter(
    (f) => f.endsWith(".js") && readFileSync(join(out, f), "utf8").includes(`\n// ${module}\n`),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The modules (`// path` comments) of `chunk` and of every chunk its static imports reach. */
function staticModules(chunk: string): string[] {
  const seen = new Set<string>();
  const modules: string[] = [];
  const queue = [chunk];
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const text = readFileSync(join(out, f), "utf8");
    for (const m of text.matchAll(/^\/\/ (\S+)$/gm)) modules.push(m[1]!);
    // Static imports only: `import … from "./chunk.js"` or `import "./chunk.js"`; never `import("…")`.
    for (const m of text.matchAll(/^import\s*(?:[^;"'()]*?from\s*)?"\.\/([^"]+\.js)"/gm)) queue.push(m[1]!);
  }
  return modules;
}

/** Third-party packages and source folders that no start may load before it answers. */
const HEAVY = [
  "@electric-sql/pglite",
  "postgres/",
  "web-tree-sitter",
  "tree-sitter-",
  "unpdf",
  "linkedom",
  "@mozilla/readability",
  "gpt-tokenizer",
  "hono",
  "src/adapters/",
  "src/core/",
  "src/wiring/services.ts",
  "src/mcp/tools/",
  "src/mcp/registry.ts",
];

const heavyIn = (modules: string[]) => modules.filter((m) => HEAVY.some((h) => m.includes(h)));

describe("modules loaded at start (split build)", () => {
  test("the build script splits chunks (else the executable evaluates everything at start)", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.build).toBe("bun scripts/build.ts");
    expect(BUNDLE.splitting).toBe(true);
  });

  test("--version: argv parsing only (no configuration, no zod, nothing heavy)", () => {
    const modules = staticModules("main.js");
    expect(modules).toContain("src/cli/args.ts");
    expect(heavyIn(modules)).toEqual([]);
    expect(modules.filter((m) => m.includes("zod") || m === "src/config.ts")).toEqual([]);
  });

  test("serve (stdio) answers initialize with the MCP SDK, without the tools, the store or the parsers", () => {
    const modules = staticModules(chunkOf("src/cli/serve.ts"));
    expect(modules).toContain("src/mcp/server.ts");
    expect(modules.some((m) => m.includes("@modelcontextprotocol/sdk"))).toBe(true);
    expect(heavyIn(modules)).toEqual([]);
  });

  test("the tools load with the registry, the store with the services: each behind a dynamic import", () => {
    expect(staticModules(chunkOf("src/mcp/registry.ts"))).toContain("src/mcp/tools/search/memory-search.ts");
    expect(chunkOf("src/wiring/services.ts")).not.toBe(chunkOf("src/cli/serve.ts"));
    expect(chunkOf("src/adapters/sql/pglite/host.ts")).not.toBe(chunkOf("src/wiring/services.ts"));
  });
});
