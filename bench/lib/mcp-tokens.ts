/**
 * What an MCP server costs a model, in o200k tokens (gpt-tokenizer, as src/core/context/context.ts counts): its
 * catalog (tools/list: names, descriptions and input schemas, plus the server's `instructions`) and each tool
 * answer in the two forms clients hand a model — the text content, and the JSON of the structured content (what
 * Claude Code and VS Code pass instead of the text when structured content is present). Servers are reached the way
 * a client reaches them: the MCP SDK Client over stdio, a spawned process. Nothing here assumes the shape of a text
 * content or of a structured content.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/** o200k tokens of a string. */
export function tokens(text: string): number {
  return countTokens(text);
}

/** A server spawned over stdio and its connected SDK client. */
export interface StdioServer {
  client: Client;
  close(): Promise<void>;
}

/** Spawns `command args` with `env` (nothing inherited but PATH) and connects an SDK client to it over stdio. */
export async function connectStdio(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: `bench-${name}`, version: "1" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Every tool of tools/list, following `nextCursor`. */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** A server's catalog in tokens: what every request carries. */
export interface CatalogCost {
  server: string;
  version: string | null;
  tools: number;
  /** Names, descriptions and input schemas of every tool (JSON of `{name, description, inputSchema}` per tool). */
  tools_tokens: number;
  /** The server's `instructions` (0 when it has none). */
  instructions_tokens: number;
  /** tools_tokens + instructions_tokens: the figure issue 20 bounds (≤ 3,000 for pegas-memory). */
  total_tokens: number;
  /** The whole tools/list result as sent (titles, annotations, output schemas included). */
  tools_list_wire_tokens: number;
  /** Per tool: tokens of its `{name, description, inputSchema}`, and of its output schema. */
  per_tool: Array<{ name: string; tokens: number; output_schema_tokens: number }>;
}

/** Counts the catalog of a connected server (see {@link CatalogCost}). */
export async function catalogCost(client: Client): Promise<CatalogCost> {
  const tools = await listAllTools(client);
  const core = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const instructions = client.getInstructions() ?? "";
  const version = client.getServerVersion();
  const toolsTokens = tokens(JSON.stringify(core));
  const instructionsTokens = instructions ? tokens(instructions) : 0;
  return {
    server: version?.name ?? "unknown",
    version: version?.version ?? null,
    tools: tools.length,
    tools_tokens: toolsTokens,
    instructions_tokens: instructionsTokens,
    total_tokens: toolsTokens + instructionsTokens,
    tools_list_wire_tokens: tokens(JSON.stringify({ tools })),
    per_tool: core.map((c, i) => ({
      name: c.name,
      tokens: tokens(JSON.stringify(c)),
      output_schema_tokens: tools[i].outputSchema ? tokens(JSON.stringify(tools[i].outputSchema)) : 0,
    })),
  };
}

/** One tool answer in tokens, in both forms a model may receive. */
export interface AnswerCost {
  tool: string;
  /** What the call stands for (e.g. "search, English"). */
  label: string;
  args: Record<string, unknown>;
  is_error: boolean;
  /** Tokens of the text content (every block: text as is, any other block as its JSON), joined by newlines. */
  text_tokens: number;
  text_chars: number;
  /** Tokens of JSON.stringify(structuredContent); null when the answer has none. */
  json_tokens: number | null;
  ms: number;
}

/** The text a client shows for a result's content blocks: text blocks as is, other blocks as JSON. */
export function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((b) =>
      b && typeof b === "object" && (b as any).type === "text" ? String((b as any).text) : JSON.stringify(b),
    )
    .join("\n");
}

/** A tool call's raw result (structured content loosely typed). */
export type RawResult = { content?: unknown; structuredContent?: Record<string, unknown>; isError?: boolean };

/** Calls `tool` with `args` and counts its answer; returns the cost and the raw result (for ids used later). */
export async function callAndCount(
  client: Client,
  tool: string,
  label: string,
  args: Record<string, unknown>,
  timeoutMs = 120_000,
): Promise<{ cost: AnswerCost; result: RawResult }> {
  const t0 = performance.now();
  const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
    timeout: timeoutMs,
  })) as RawResult;
  const text = contentText(result.content);
  const cost: AnswerCost = {
    tool,
    label,
    args,
    is_error: Boolean(result.isError),
    text_tokens: tokens(text),
    text_chars: text.length,
    json_tokens: result.structuredContent === undefined ? null : tokens(JSON.stringify(result.structuredContent)),
    ms: Math.round(performance.now() - t0),
  };
  return { cost, result };
}

/**
 * The first number under one of `keys` anywhere in `value` (depth first, arrays in order): how the benchmark reads
 * ids from answers whose shape other work may change. Falls back to `"atom:12"`-like strings under those keys.
 */
export function findId(value: unknown, keys: string[]): number | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findId(v, keys);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const obj = value as Record<string, unknown>;
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
    if (typeof v === "string" && /^(atom:)?\d+$/.test(v)) return Number(v.replace("atom:", ""));
  }
  for (const v of Object.values(obj)) {
    const found = findId(v, keys);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Ids in a text content written as "atom 12" / "atom:12" / "#12" (the last resort of {@link findId}). */
export function idInText(text: string): number | undefined {
  const m = /\batom[ :#]?(\d+)/i.exec(text) ?? /#(\d+)\b/.exec(text);
  return m ? Number(m[1]) : undefined;
}
