/**
 * Every tool over stdio in the compiled executable (embedded default): `tools/list` shows exactly the 13 tools of
 * DESIGN.md's table and the extra ones, each with an input and an output schema and annotations, and each answers
 * a real call without an error (the SDK client validates every structuredContent against the tool's output schema).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, seededDataDir } from "../support/binary.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";

/** DESIGN.md's table: the original's 13 tools. */
const DESIGN_TOOLS = [
  "memory_search",
  "memory_get_context",
  "memory_stats",
  "memory_store",
  "memory_ingest",
  "memory_verify",
  "memory_add_gap",
  "memory_list_gaps",
  "memory_store_code",
  "memory_search_code",
  "memory_code_graph",
  "memory_infer",
  "memory_query_graph",
];
/** The extra ones. */
const EXTRA_TOOLS = [
  "memory_get",
  "memory_forget",
  "memory_link",
  "memory_trace_add",
  "memory_trace_search",
  "memory_unmerge",
  "memory_refresh",
];

describe("every tool over stdio, compiled executable", () => {
  let dir: string;
  let code: string;
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    const iso = await isolatedBinary();
    dir = iso.dir;
    await seededDataDir(join(dir, "data", "pegas-memory")); // the default data dir, created and migrated
    code = mkdtempSync(join(tmpdir(), "pegas-all-tools-code-"));
    mkdirSync(join(code, "pkg"));
    writeFileSync(join(code, "pkg/__init__.py"), "");
    writeFileSync(
      join(code, "pkg/a.py"),
      'from pkg.b import helper\n\ndef run(x):\n    """Run the helper."""\n    return helper(x)\n',
    );
    writeFileSync(join(code, "pkg/b.py"), 'def helper(x):\n    """Double x."""\n    return x * 2\n');
    const transport = new StdioClientTransport({
      command: iso.bin,
      args: [],
      cwd: dir,
      env: isolatedEnv(dir, { PEGAS_INGEST_ROOTS: code }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d) => (stderr += String(d)));
    client = new Client({ name: "all-tools", version: "1" });
    await client.connect(transport);
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(code, { recursive: true, force: true });
  });

  test("tools/list: the 13 tools of DESIGN.md and the extra ones, with schemas and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...DESIGN_TOOLS, ...EXTRA_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      const hints = effectiveHints(t.annotations);
      expect(typeof hints.readOnlyHint).toBe("boolean");
      expect(typeof hints.destructiveHint).toBe("boolean");
      expect(typeof hints.idempotentHint).toBe("boolean");
    }
  });

  test("each tool answers a real call", async () => {
    const called = new Set<string>();
    const ok = async (name: string, args: Record<string, unknown>): Promise<Record<string, any>> => {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      if (r.isError) throw new Error(`${name}: ${(r.content as Array<{ text: string }>)[0].text}`);
      called.add(name);
      return r.structuredContent as Record<string, any>;
    };
    const ingested = await ok("memory_ingest", {
      title: "Заметки о Меркурии",
      text: "Меркурий — ближайшая к Солнцу планета.\n\nГод на Меркурии длится 88 земных суток.",
    });
    const a = await ok("memory_store", { type: "fact", claim: "Меркурий не имеет спутников." });
    const dup = await ok("memory_store", { type: "fact", claim: "Меркурий не имеет спутников!" });
    await ok("memory_unmerge", { merge_id: dup.merge.merge_id });
    const b = await ok("memory_store", { type: "fact", claim: "Венера вращается в обратную сторону." });
    await ok("memory_link", { src: a.atom_id, dst: b.atom_id, kind: "depends_on" });
    expect(ingested.atoms_created).toBeGreaterThan(0);
    await ok("memory_store", {
      type: "logical_rule",
      claim: "Зависимость транзитивна",
      content: '{"if": ["depends_on", "depends_on"], "then": "depends_on"}',
    });
    expect((await ok("memory_search", { query: "Меркурий спутники" })).hits.length).toBeGreaterThan(0);
    expect((await ok("memory_get_context", { question: "Сколько длится год на Меркурии?" })).markdown).toMatch(
      /\(atom \d+/,
    );
    expect((await ok("memory_get", { atom_id: a.atom_id })).links_out.length).toBe(1);
    await ok("memory_verify", { atom_id: a.atom_id });
    await ok("memory_infer", {});
    expect((await ok("memory_query_graph", { node: a.atom_id })).edges.length).toBeGreaterThan(0);
    await ok("memory_add_gap", { question: "Есть ли у Меркурия атмосфера?" });
    expect((await ok("memory_list_gaps", {})).gaps.length).toBe(1);
    await ok("memory_trace_add", { kind: "observation", content: "Прочитал заметки о Меркурии" });
    await ok("memory_trace_search", { query: "Меркурий" });
    const stored = await ok("memory_store_code", { path: code, repo: "tiny" });
    expect(stored.files.parsed).toBe(3);
    expect((await ok("memory_search_code", { query: "helper", repo: "tiny" })).hits[0].location).toBe("pkg/b.py:1");
    await ok("memory_code_graph", { repo: "tiny", symbol: "pkg/a.py" });
    await ok("memory_forget", { atom_id: b.atom_id, reason: "проверка" });
    await ok("memory_stats", {});
    // No page was fetched by URL here: nothing is due, and the answer says so.
    expect(await ok("memory_refresh", { older_than: "0" })).toMatchObject({ checked: 0, items: [] });
    expect([...called].sort()).toEqual([...DESIGN_TOOLS, ...EXTRA_TOOLS].sort());
  }, 300_000);

  test("nothing but warnings on stderr", () => {
    expect(stderr).not.toContain('"level":"error"');
  });
});
