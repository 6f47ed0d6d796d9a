/**
 * memory_trace_add and memory_trace_search through the MCP registry (SDK client and server over an in-memory
 * transport, embedded database): listed with annotations, schemas that validate real results, isError on bad input,
 * and memory_search that never returns a trace.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";

describe("trace tools through the MCP registry", () => {
  const t = suiteServices("pglite");
  const mcp = suiteMcpClient(t);

  const call = async (name: string, args: Record<string, unknown>) => mcp.client.callTool({ name, arguments: args });

  test("both tools are listed with schemas and honest annotations", async () => {
    const { tools } = await mcp.client.listTools();
    const add = tools.find((x) => x.name === "memory_trace_add");
    const find = tools.find((x) => x.name === "memory_trace_search");
    expect(effectiveHints(add?.annotations)).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(find?.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(add?.inputSchema.properties ?? {}).sort()).toEqual(["content", "kind", "metadata", "session"]);
    expect(add?.inputSchema.required).toEqual(["kind", "content"]);
    expect(Object.keys(find?.inputSchema.properties ?? {}).sort()).toEqual([
      "cursor",
      "kind",
      "limit",
      "query",
      "response_format",
      "session",
      "since",
    ]);
    expect(find?.outputSchema?.properties).toHaveProperty("hits");
  });

  test("a stored trace is found by memory_trace_search and never by memory_search", async () => {
    const added = await call("memory_trace_add", {
      kind: "reflection",
      content: "Прокси SOCKS отвалился в субботу, повторить через HTTP.",
      session: "mcp-1",
      metadata: { tool: "fetch" },
    });
    expect(added.isError).toBeFalsy();
    const id = (added.structuredContent as { trace_id: number }).trace_id;
    const found = await call("memory_trace_search", { query: "суббота прокси", session: "mcp-1" });
    expect(found.isError).toBeFalsy();
    const sc = found.structuredContent as { match: string; hits: Array<{ trace_id: number; metadata: unknown }> };
    expect(sc.match).toBe("fulltext");
    expect(sc.hits.map((h) => h.trace_id)).toEqual([id]);
    expect(sc.hits[0].metadata).toEqual({ tool: "fetch" });
    // The text is written for a model: the trace, its kind and session, its metadata; no JSON keys or scores.
    const shown = (found.content as Array<{ text: string }>)[0].text;
    expect(shown).toStartWith("1 trace(s) for “суббота прокси”, full-text:");
    expect(shown).toContain(`- trace ${id} · reflection · session mcp-1 ·`);
    expect(shown).toContain("Прокси SOCKS отвалился в субботу, повторить через HTTP.");
    expect(shown).not.toContain("score");
    expect(sc.hits[0]).not.toHaveProperty("score");
    const stored = await call("memory_store", { type: "fact", claim: "Прокси HTTP отвечает за 40 мс." });
    expect(stored.isError).toBeFalsy();
    const knowledge = await call("memory_search", { query: "прокси суббота", k: 50, response_format: "detailed" });
    const hits = (knowledge.structuredContent as { hits: Array<{ atom_id: number; content: string }> }).hits;
    expect(hits.map((h) => h.atom_id)).toContain((stored.structuredContent as { atom_id: number }).atom_id);
    expect(hits.some((h) => h.content.includes("субботу"))).toBe(false);
  });

  test("bad input comes back as an actionable isError result", async () => {
    const since = await call("memory_trace_search", { since: "last week" });
    expect(since.isError).toBe(true);
    expect(JSON.stringify(since.content)).toContain("INVALID_INPUT: since 'last week' is not an ISO 8601 timestamp");
    const kind = await call("memory_trace_add", { kind: "dream", content: "x" });
    expect(kind.isError).toBe(true);
    const blank = await call("memory_trace_add", { kind: "plan", content: "   " });
    expect(JSON.stringify(blank.content)).toContain("INVALID_INPUT: content is empty");
  });
});
