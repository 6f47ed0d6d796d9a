/**
 * An MCP SDK client connected in memory to the tool registry over in-process services: benchmarks call the tools
 * as a client would (text content and structured content as the registry renders them), without an executable.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Services } from "../../src/core/services.ts";
import { CallTracker } from "../../src/mcp/calls.ts";
import { registerTools } from "../../src/mcp/registry.ts";

/** What a tool call gave the client: the first text block and the structured content (undefined when absent). */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown> | undefined;
}

/** A connected in-memory client: `call` returns a tool's answer (throws with the tool's text on an error result). */
export interface InProcessClient {
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

/**
 * Registers every tool over `services` on a fresh McpServer and connects an SDK client to it in memory (no stdio, no
 * executable); `close` ends both. The tests' client (tests/support/mcp-client.ts) is this one.
 */
export async function connectRegistry(services: Services): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new McpServer({ name: "pegas-memory", version: "1" }, { capabilities: { tools: {} } });
  registerTools(server, async () => services, new CallTracker());
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "in-process", version: "1" });
  await client.connect(b);
  return { client, close: () => client.close() };
}

/** {@link connectRegistry} with a `call` that returns a tool's answer as text and structured content. */
export async function inProcessClient(services: Services): Promise<InProcessClient> {
  const { client } = await connectRegistry(services);
  return {
    async call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      const text = ((r.content as Array<{ type: string; text?: string }>) ?? []).find((c) => c.type === "text")?.text;
      if (r.isError) throw new Error(`${name}: ${text ?? "error"}`);
      return { text: text ?? "", structured: r.structuredContent as Record<string, unknown> | undefined };
    },
    close: () => client.close(),
  };
}
