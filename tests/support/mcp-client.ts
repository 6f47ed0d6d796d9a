/** An MCP SDK client connected in memory to our tool registry over given services (no stdio, no executable). */
import { afterAll, beforeAll } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectRegistry } from "../../bench/lib/mcp-inproc.ts";
import type { Services } from "../../src/core/services.ts";

export { connectRegistry };

/** A client of a test file over `t`'s services: connected in a beforeAll hook, closed in afterAll. */
export function suiteMcpClient(t: { readonly services: Services }): { readonly client: Client } {
  let c: { client: Client; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    c = await connectRegistry(t.services);
  }, 30_000);
  afterAll(async () => {
    await c?.close();
  });
  return {
    get client() {
      if (!c) throw new Error("the MCP client is not connected");
      return c.client;
    },
  };
}

/** A tool's structured result, loosely typed for assertions. */
export type ToolOut = Record<string, any>;
/** A tool call's raw result. */
export type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/**
 * Call helpers over a suite client: `call` returns the raw result, `ok` the structured content (throwing with the
 * tool's error text when it is an isError result), `text` the first text block of a result.
 */
export function toolCalls(mcp: { readonly client: Client }, timeoutMs = 60_000) {
  const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    mcp.client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
  const text = (r: ToolResult): string => (r.content as Array<{ text: string }>)[0].text;
  const ok = async (name: string, args: Record<string, unknown>): Promise<ToolOut> => {
    const r = await call(name, args);
    if (r.isError) throw new Error(`${name}: ${text(r)}`);
    return r.structuredContent as ToolOut;
  };
  return { call, ok, text };
}
