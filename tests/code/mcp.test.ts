/**
 * The code tools through the tool registry and a real MCP client (in-memory transport): the client validates
 * structuredContent against each tool's output schema; memory_store_code sends progress notifications and a
 * cancelled call stores nothing of its unfinished batch.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectRegistry } from "../support/mcp-client.ts";
import { FakeExtractor, fakeSource, sym } from "./fake-extractor.ts";
import { codeSuite, sqlOf } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "pegas-code-mcp-"));
for (let i = 0; i < 40; i++) {
  mkdirSync(join(dir, `pkg${i % 4}`), { recursive: true });
  writeFileSync(
    join(dir, `pkg${i % 4}`, `m${i}.py`),
    fakeSource({
      symbols: [sym(`func${i}`, "function", 3, 3, `Function number ${i}.`)],
      deps: [{ kind: "calls", from: { symbol: `func${i}` }, target: `func${(i + 1) % 40}`, line: 3 }],
    }),
  );
}
const fake = new FakeExtractor();
const suite = codeSuite("pglite", { ingest_roots: [dir] }, () => fake);
let mcp: { client: Client; close: () => Promise<void> } | undefined;
beforeAll(async () => {
  mcp = await connectRegistry(suite.s!);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("code tools over MCP", () => {
  test("a cancelled memory_store_code leaves its unfinished batch unstored", async () => {
    fake.delayMs = 25;
    const ac = new AbortController();
    const call = mcp!.client.callTool(
      { name: "memory_store_code", arguments: { path: dir, repo: "cancel" } },
      undefined,
      {
        signal: ac.signal,
        onprogress: () => ac.abort(),
        timeout: 60_000,
      },
    );
    await expect(call).rejects.toThrow();
    fake.delayMs = 0;
    await Bun.sleep(300); // the server observes the cancellation at its next file
    const [n] = await sqlOf(suite.s!)`SELECT count(*)::int AS n FROM pm_code_file WHERE repo = 'cancel'`;
    expect(n.n).toBe(0);
  });

  test("store (with progress), search and graph answer structured content valid against their schemas", async () => {
    const progress: string[] = [];
    const stored: any = await mcp!.client.callTool(
      { name: "memory_store_code", arguments: { path: dir, repo: "mcp" } },
      undefined,
      {
        onprogress: (p) => progress.push(String(p.message)),
        timeout: 60_000,
      },
    );
    expect(stored.isError).toBeFalsy();
    expect(stored.structuredContent.files.parsed).toBe(40);
    expect(stored.structuredContent.dependencies).toMatchObject({ stored: 40, resolved: 0, unresolved: 40 });
    expect(progress.some((m) => m.includes("walking"))).toBe(true);
    const found: any = await mcp!.client.callTool({
      name: "memory_search_code",
      arguments: { query: "func7", repo: "mcp", response_format: "detailed" },
    });
    expect(found.structuredContent.hits[0]).toMatchObject({
      qualified_name: "func7",
      location: "pkg3/m7.py:3",
      match: "name",
    });
    const graph: any = await mcp!.client.callTool({
      name: "memory_code_graph",
      arguments: { repo: "mcp", symbol: "pkg3/m7.py", response_format: "detailed" },
    });
    expect(graph.isError).toBeFalsy();
    // The default answer: the text names symbols by path:line and edges by name with their line; no JSON.
    const shown: any = await mcp!.client.callTool({
      name: "memory_code_graph",
      arguments: { repo: "mcp", symbol: "pkg3/m7.py" },
    });
    expect(shown.content[0].text).toContain("- func7 -calls-> func8 (line 3)");
    expect(shown.content[0].text).not.toContain('":');
    expect(shown.structuredContent.file).toBeUndefined();
    const hitText = (
      await mcp!.client.callTool({ name: "memory_search_code", arguments: { query: "func7", repo: "mcp" } })
    ).content as Array<{ text: string }>;
    expect(hitText[0].text).toContain("1. symbol:");
    expect(hitText[0].text).toContain("func7 · function · pkg3/m7.py:3");
    expect(graph.structuredContent.file.dependencies).toEqual([
      { line: 3, kind: "calls", from: "func7", target: "func8" },
    ]);
    const summary: any = await mcp!.client.callTool({ name: "memory_code_graph", arguments: { repo: "mcp" } });
    expect(summary.structuredContent.summary.files.parsed).toBe(40);
    const missing: any = await mcp!.client.callTool({ name: "memory_code_graph", arguments: { repo: "nope" } });
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toStartWith("NOT_FOUND: no code stored for repo 'nope'");

    // A documented function became a code atom: memory_get shows the symbol it defines, with path:line.
    const [atom] = await sqlOf(suite.s!)`
      SELECT l.atom_id FROM pm_atom_symbol_link l JOIN pm_code_symbol s ON s.id = l.symbol_id
       WHERE s.repo = 'mcp' AND s.qualified_name = 'func7' AND l.kind = 'defines'`;
    const got: any = await mcp!.client.callTool({ name: "memory_get", arguments: { atom_id: Number(atom.atom_id) } });
    expect(got.isError).toBeFalsy();
    expect(got.structuredContent).toMatchObject({ type: "code", symbols_total: 1 });
    expect(got.structuredContent.symbols[0]).toMatchObject({
      kind: "defines",
      repo: "mcp",
      path: "pkg3/m7.py",
      line: 3,
      qualified_name: "func7",
      symbol_kind: "function",
    });
    expect(got.structuredContent.citations[0].locator).toMatchObject({ href: "pkg3/m7.py", line_start: 3 });

    // The agent links the atom to another symbol, and one symbol to another: the matching tables hold them.
    const [f8] = await sqlOf(suite.s!)`SELECT id FROM pm_code_symbol WHERE repo = 'mcp' AND qualified_name = 'func8'`;
    const [f9] = await sqlOf(suite.s!)`SELECT id FROM pm_code_symbol WHERE repo = 'mcp' AND qualified_name = 'func9'`;
    const toSymbol: any = await mcp!.client.callTool({
      name: "memory_link",
      arguments: { src: Number(atom.atom_id), dst: `symbol:${f8.id}`, kind: "describes" },
    });
    expect(toSymbol.structuredContent).toMatchObject({ table: "pm_atom_symbol_link", created: true, source: "agent" });
    const between: any = await mcp!.client.callTool({
      name: "memory_link",
      arguments: { src: `symbol:${f8.id}`, dst: `symbol:${f9.id}`, kind: "depends_on", confidence: 0.6 },
    });
    expect(between.structuredContent).toMatchObject({
      table: "pm_code_dependency",
      created: true,
      source: "agent",
      dst: `symbol:${f9.id}`,
    });
    const edges: any = await mcp!.client.callTool({
      name: "memory_query_graph",
      arguments: { node: `symbol:${f8.id}`, kinds: ["depends_on", "describes"], response_format: "detailed" },
    });
    expect(edges.structuredContent.edges.map((e: { key: string }) => e.key).sort()).toEqual(
      [toSymbol.structuredContent.edge_key, between.structuredContent.edge_key].sort(),
    );
  }, 60_000);
});
