/**
 * memory_infer through the MCP registry (SDK client, in-memory transport, embedded database) — rules and atoms stored
 * with memory_store, structured content validated by the SDK against the output schema, a cap hit as an isError
 * result — and the `infer` CLI command over the same services.
 */
import { describe, expect, test } from "bun:test";
import { parseCli } from "../../src/cli/args.ts";
import { runInfer } from "../../src/cli/infer-command.ts";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

type Out = ToolOut;
const { call, ok, text } = toolCalls(mcp);

describe("memory_infer over MCP", () => {
  test("listed with input and output schemas and annotations", async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((x) => x.name === "memory_infer")!;
    expect(tool).toBeDefined();
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual([
      "max_iterations",
      "max_new_edges",
      "rule_ids",
    ]);
    expect(tool.outputSchema).toBeDefined();
    expect(effectiveHints(tool.annotations)).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  test("rules stored with memory_store derive over links; ignored rules say why; a cap hit is an error", async () => {
    const c = await ok("memory_store", { type: "fact", claim: "Сервер PostgreSQL хранит канонические данные памяти." });
    const b = await ok("memory_store", {
      type: "text",
      claim: "Векторный индекс Qdrant строится из таблиц эмбеддингов.",
      links: [{ atom_id: c.atom_id, kind: "depends_on" }],
    });
    const a = await ok("memory_store", {
      type: "text",
      claim: "Поиск по памяти агента опирается на векторный индекс.",
      links: [{ atom_id: b.atom_id, kind: "depends_on" }],
    });
    const d = await ok("memory_store", {
      type: "fact",
      claim: "Агент Pegas задаёт вопросы памяти через MCP.",
      links: [{ atom_id: a.atom_id, kind: "depends_on" }],
    });
    const rule = await ok("memory_store", {
      type: "logical_rule",
      claim: "Зависимость транзитивна",
      content: '{"if": ["depends_on", "depends_on"], "then": "depends_on"}',
    });
    const bad = await ok("memory_store", {
      type: "logical_rule",
      claim: "Правило с пробелом в виде связи",
      content: '{"if": "зависит от", "then": "depends_on"}',
    });

    const capped = await call("memory_infer", { rule_ids: [rule.atom_id], max_new_edges: 2 });
    expect(capped.isError).toBe(true);
    expect(text(capped)).toContain("LIMIT_EXCEEDED");
    expect(text(capped)).toContain("raise max_new_edges (--max-new-edges on the command line)");

    const progress: string[] = [];
    const raw = await mcp.client.callTool(
      { name: "memory_infer", arguments: { rule_ids: [rule.atom_id, bad.atom_id] } },
      undefined,
      {
        onprogress: (p) => progress.push(String(p.message)),
      },
    );
    expect(raw.isError).toBeFalsy();
    const r = raw.structuredContent as Out;
    expect(progress).toEqual(["round 1: 2 edge(s) derived so far", "round 2: 3 edge(s) derived so far"]);
    expect(r.rules).toEqual([
      {
        rule_id: rule.atom_id,
        if: ["depends_on", "depends_on"],
        then: "depends_on",
        edges_added: 3,
        iterations: 2,
        skipped: 0,
      },
    ]);
    expect(r.ignored).toEqual([{ rule_id: bad.atom_id, reason: expect.stringContaining("single-token") }]);
    expect(r.iterations).toBe(3);
    const got = await ok("memory_get", { atom_id: d.atom_id, response_format: "detailed" });
    expect(got.links_out).toContainEqual(
      expect.objectContaining({ atom_id: c.atom_id, kind: "depends_on", inferred: true, source: "inference" }),
    );
    expect(got.links_out).toContainEqual(
      expect.objectContaining({ atom_id: a.atom_id, kind: "depends_on", inferred: false }),
    );

    // memory_query_graph shows them marked inferred; without include_inferred they are left out.
    const g = await ok("memory_query_graph", {
      node: d.atom_id,
      kinds: ["depends_on"],
      direction: "out",
      depth: 1,
      response_format: "detailed",
    });
    const fromD = g.edges.filter((e: Out) => e.src === `atom:${d.atom_id}`);
    expect(fromD.map((e: Out) => [e.dst, e.inferred]).sort()).toEqual(
      [
        [`atom:${a.atom_id}`, false],
        [`atom:${b.atom_id}`, true],
        [`atom:${c.atom_id}`, true],
      ].sort(),
    );
    const plain = await ok("memory_query_graph", {
      node: d.atom_id,
      kinds: ["depends_on"],
      direction: "out",
      include_inferred: false,
    });
    expect(plain.edges.every((e: Out) => !e.inferred)).toBe(true);

    const bad2 = await call("memory_infer", { max_iterations: 0 });
    expect(bad2.isError).toBe(true);

    // The CLI over the same services: the rerun adds nothing.
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (lines.push(String(s)), true)) as typeof process.stdout.write;
    try {
      const cli = parseCli(["infer", "--rule", String(rule.atom_id), "--max-iterations", "5", "--json"]);
      expect(await runInfer(t.config, cli, (_c, fn) => fn(t.services, new AbortController().signal))).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const json = JSON.parse(lines.join(""));
    expect(json).toMatchObject({
      edges_added: 0,
      retracted: 0,
      iterations: 1,
      rules: [{ rule_id: rule.atom_id, edges_added: 0 }],
    });
    // A rule asked for by id that is not applied is a failure (exit 1); stray arguments are refused.
    const run = (argv: string[]) =>
      runInfer(t.config, parseCli(argv), (_c, fn) => fn(t.services, new AbortController().signal));
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      expect(await run(["infer", "--rule", "987654"])).toBe(1);
    } finally {
      process.stdout.write = write;
    }
    await expect(run(["infer", "extra"])).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
