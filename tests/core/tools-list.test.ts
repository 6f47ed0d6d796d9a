/**
 * What every request carries: the `tools/list` answer and the server's `instructions`, measured as an in-process MCP
 * client receives them. Counted per tool: the JSON of everything listed but the output schema (name, title,
 * description, input schema, annotations): the part clients hand the model (Claude Code, VS Code, Cursor and the
 * OpenAI and Gemini function formats take name, description and input schema; output schemas only validate results).
 * Also: the schemas are portable, and `toolsets` narrows the listing and the instructions.
 */
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { z } from "zod";
import { parseCli } from "../../src/cli/args.ts";
import { type Config, loadConfig, TOOLSET_NAMES } from "../../src/config.ts";
import { CallTracker } from "../../src/mcp/calls.ts";
import { listedTool } from "../../src/mcp/listing.ts";
import { portableOutput } from "../../src/mcp/portable-output.ts";
import { TOOLS, TOOLSETS, toolResult } from "../../src/mcp/registry.ts";
import { createMcpServer } from "../../src/mcp/server.ts";
import { LazyServices } from "../../src/wiring/lazy-services.ts";
import { loadToolsets } from "../../scripts/docs/toolsets.ts";

/** Most o200k tokens of the listing plus the instructions, every toolset on. */
const MAX_LISTING_TOKENS = 3000;

function config(flags: Record<string, unknown> = {}): Config {
  return loadConfig({ flags, env: { HOME: "/nonexistent" }, configPath: "/dev/null" });
}

/** Lists the tools of a server made from `cfg` (its services are never opened). */
async function listing(cfg: Config) {
  const server = createMcpServer(new LazyServices(cfg), new CallTracker(), cfg);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(b);
  const { tools } = await client.listTools();
  const instructions = client.getInstructions() ?? "";
  await client.close();
  return { tools, instructions };
}

const tokens = (s: string) => encode(s).length;

/** Every node of a JSON value, depth first. */
function* nodes(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) yield* nodes(x);
  else if (v && typeof v === "object") {
    yield v as Record<string, unknown>;
    for (const x of Object.values(v)) yield* nodes(x);
  }
}

describe("tools/list", () => {
  test(`every toolset on: the listing and the instructions take at most ${MAX_LISTING_TOKENS} o200k tokens`, async () => {
    const { tools, instructions } = await listing(config());
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    const perTool = tools.map(
      ({ outputSchema: _, ...listed }) => [listed.name, tokens(JSON.stringify(listed))] as const,
    );
    const total = perTool.reduce((n, [, t]) => n + t, 0) + tokens(instructions);
    console.error(`tools/list + instructions: ${total} tokens (instructions ${tokens(instructions)})`, perTool);
    expect(total).toBeLessThanOrEqual(MAX_LISTING_TOKENS);
  });

  test("schemas are portable: no $schema, no bound at 2^53−1, no null union", async () => {
    const { tools } = await listing(config());
    for (const t of tools) {
      for (const node of nodes([t.inputSchema, t.outputSchema])) {
        expect(node.$schema).toBeUndefined();
        for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
          if (typeof node[k] === "number") expect(Math.abs(node[k] as number)).toBeLessThan(Number.MAX_SAFE_INTEGER);
        }
      }
      for (const node of nodes(t.inputSchema))
        expect(Array.isArray(node.type) && node.type.includes("null")).toBe(false);
    }
  });

  test("a null field of a result is left out of the structured content, which matches the listed schema", () => {
    const tool = TOOLS.find((t) => t.name === "memory_add_gap")!;
    const at = "2026-01-01T00:00:00Z";
    const gap = {
      id: 1,
      question: "Почему?",
      reason: null,
      priority: 3,
      status: "open",
      metadata: {},
      created_at: at,
      updated_at: at,
    };
    const out = { gap, created: true, duplicate_of: null, previous_priority: null, decided_by: null };
    const listed = listedTool(tool, true).outputSchema as { required?: string[] };
    expect(listed.required ?? []).not.toContain("duplicate_of");
    const structured = toolResult(tool, out, { question: "Почему?" }).structuredContent as Record<string, unknown>;
    expect(structured).not.toHaveProperty("duplicate_of");
    expect(structured.gap).not.toHaveProperty("reason");
    expect(z.object(portableOutput(tool)).safeParse(structured).success).toBe(true);
  });

  test("--toolsets code: only the code tools, and instructions that name no other tool", async () => {
    const cli = parseCli(["serve", "--toolsets", "code"]);
    const cfg = loadConfig({ flags: cli.flags, env: { HOME: "/nonexistent" }, configPath: "/dev/null" });
    expect(cfg.toolsets).toEqual(["code"]);
    const { tools, instructions } = await listing(cfg);
    expect(tools.map((t) => t.name)).toEqual(["memory_store_code", "memory_search_code", "memory_code_graph"]);
    const named = new Set(instructions.match(/memory_[a-z_]+/g));
    expect([...named].sort()).toEqual(["memory_code_graph", "memory_search_code", "memory_store_code"]);
  });

  test("PEGAS_TOOLSETS takes a comma-separated list; an unknown toolset is a configuration error naming the known", () => {
    const env = { HOME: "/nonexistent", PEGAS_TOOLSETS: "knowledge, search" };
    expect(loadConfig({ env, configPath: "/dev/null" }).toolsets).toEqual(["knowledge", "search"]);
    expect(config().toolsets).toEqual([...TOOLSET_NAMES]);
    expect(() => config({ toolsets: "code,gapz" })).toThrow(
      "unknown toolset 'gapz': the toolsets are knowledge, search, code, research, traces",
    );
  });

  test("each toolset is the folder of src/mcp/tools/ its tools live in", async () => {
    const folders = await loadToolsets();
    expect(Object.fromEntries(folders.map((s) => [s.name, s.tools.map((t) => t.name).sort()]))).toEqual(
      Object.fromEntries(Object.entries(TOOLSETS).map(([name, tools]) => [name, tools.map((t) => t.name).sort()])),
    );
  });
});
