/**
 * A strict, honest protocol on the tools side (issue 21, item 5), through an SDK client in memory against the server
 * `serve` builds: malformed `tools/call` params are JSON-RPC -32602; an unknown tool is -32602 naming the nearest;
 * an unknown argument is an `isError` result naming it, the nearest allowed name and the allowed names, unless
 * `strict_arguments` is off; the capabilities are only what the server does (no `logging`, `listChanged` false).
 * Every call here is refused before the database would open, so no store is made.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { loadConfig } from "../../src/config.ts";
import { editDistance, nearestName, unknownArgumentsMessage } from "../../src/mcp/arguments.ts";
import { CallTracker } from "../../src/mcp/calls.ts";
import { TOOLS } from "../../src/mcp/registry.ts";
import { createMcpServer } from "../../src/mcp/server.ts";
import { LazyServices } from "../../src/wiring/lazy-services.ts";

/** A client of a server made from the configuration `flags` (its services are never opened by these tests). */
async function connect(flags: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<Client> {
  const cfg = loadConfig({ flags, env: { HOME: "/nonexistent", ...env }, configPath: "/dev/null" });
  const server = createMcpServer(new LazyServices(cfg), new CallTracker(), cfg);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "strict-protocol", version: "1" });
  await client.connect(b);
  return client;
}

const textOf = (r: object): string => (r as { content: Array<{ text: string }> }).content[0]!.text;

/** The JSON-RPC error of a request that must fail, or a failure of the test when it answered. */
async function rpcError(p: Promise<unknown>): Promise<McpError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof McpError) return err;
    throw err;
  }
  throw new Error("the request was answered instead of refused");
}

describe("tools/call: codes and unknown arguments", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  test("arguments that are not an object are -32602 Invalid params of one line saying what to send", async () => {
    const cases: Array<[unknown, string]> = [
      [[1, 2], "an array"],
      ["query", "a string"],
      [42, "a number"],
      [null, "null"],
      [true, "a boolean"],
    ];
    for (const [args, what] of cases) {
      const err = await rpcError(
        client.request(
          { method: "tools/call", params: { name: "memory_search", arguments: args as never } },
          CallToolResultSchema,
        ),
      );
      expect(err.code).toBe(ErrorCode.InvalidParams);
      // Not the SDK's multi-line dump of zod issues.
      expect(err.message).toBe(
        `MCP error -32602: arguments must be a JSON object of the tool's arguments by name (or left out), not ${what}`,
      );
    }
  });

  test("params without a tool name, or no params, are -32602 of one line", async () => {
    const err = await rpcError(
      client.request({ method: "tools/call", params: { arguments: {} } as never }, CallToolResultSchema),
    );
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toBe('MCP error -32602: tools/call params need "name", the tool to call, as a string');
    const none = await rpcError(client.request({ method: "tools/call" } as never, CallToolResultSchema));
    expect(none.code).toBe(ErrorCode.InvalidParams);
    expect(none.message).not.toContain("\n");
    expect(none.message).toContain('tools/call needs params {"name": <tool>');
  });

  test("an unknown tool is -32602 naming the nearest tool", async () => {
    const err = await rpcError(client.callTool({ name: "memory_serch", arguments: { query: "x" } }));
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toContain("unknown tool 'memory_serch'; did you mean 'memory_search'?");
  });

  test("an unknown argument is an isError result naming it, the nearest allowed name and all of them", async () => {
    const r = await client.callTool({ name: "memory_search", arguments: { query: "палата", limit: 3 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      "INVALID_INPUT: unknown argument 'limit'; did you mean 'k'? " +
        "allowed: query, k, types, status, doc_id, cursor, mode, valid_at, known_at, max_tokens, response_format",
    );
  });

  test("several unknown arguments are named together, each with its nearest name when one is near", async () => {
    const r = await client.callTool({ name: "memory_get", arguments: { atomId: 1, limit: 2, zzzz: 3 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      "INVALID_INPUT: unknown arguments 'atomId' (did you mean 'atom_id'?), 'limit' (did you mean 'max_links'?), " +
        "'zzzz'; allowed: atom_id, entity, max_tokens, max_links, links_offset, response_format",
    );
  });

  test("a tool without arguments says so", async () => {
    const r = await client.callTool({ name: "memory_stats", arguments: { verbose: true } });
    expect(textOf(r)).toBe("INVALID_INPUT: unknown argument 'verbose'; this tool takes no arguments");
  });

  test("an argument of the wrong type is an isError result naming the field", async () => {
    const r = await client.callTool({ name: "memory_search", arguments: { query: "x", k: "десять" } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toStartWith("INVALID_INPUT: invalid arguments for memory_search: ");
    expect(textOf(r)).toContain("at k");
  });
});

describe("strict_arguments off", () => {
  for (const [how, flags, env] of [
    ["config", { strict_arguments: false }, {}],
    ["environment", {}, { PEGAS_STRICT_ARGUMENTS: "false" }],
  ] as const) {
    test(`an unknown argument is ignored (${how}): the call goes on to the schema check`, async () => {
      const client = await connect(flags, env);
      // query "" fails the schema after `limit` was ignored, before the database would open.
      const r = await client.callTool({ name: "memory_search", arguments: { query: "", limit: 3 } });
      await client.close();
      expect(r.isError).toBe(true);
      expect(textOf(r)).not.toContain("unknown argument");
      expect(textOf(r)).toContain("invalid arguments for memory_search");
    });
  }
});

describe("capabilities only when used", () => {
  test("tools without listChanged, and no logging (the server sends no log messages)", async () => {
    const client = await connect();
    const caps = client.getServerCapabilities();
    await client.close();
    expect(caps).toEqual({ tools: { listChanged: false } });
  });
});

describe("the nearest name", () => {
  test("edit distance counts an adjacent transposition as one edit", () => {
    expect(editDistance("query", "qeury")).toBe(1);
    expect(editDistance("query", "qury")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  test("synonyms, spellings and typos find the tool's own names; far names find none", () => {
    const search = Object.keys(TOOLS.find((t) => t.name === "memory_search")!.inputSchema);
    const gaps = Object.keys(TOOLS.find((t) => t.name === "memory_list_gaps")!.inputSchema);
    expect(nearestName("limit", search)).toBe("k");
    expect(nearestName("top_k", search)).toBe("k");
    expect(nearestName("q", search)).toBe("query");
    expect(nearestName("offset", search)).toBe("cursor");
    expect(nearestName("cursor", gaps)).toBe("offset");
    expect(nearestName("k", gaps)).toBe("limit");
    expect(nearestName("docId", search)).toBe("doc_id");
    expect(nearestName("respone_format", search)).toBe("response_format");
    expect(nearestName("stauts", search)).toBe("status");
    expect(nearestName("запрос", search)).toBeUndefined();
    expect(nearestName("🙂".repeat(500), search)).toBeUndefined();
  });

  test("a long unknown name is quoted cut, and more than five are counted", () => {
    const args = Object.fromEntries(["x".repeat(100), "a", "b", "c", "d", "e", "f"].map((k) => [k, 1]));
    const msg = unknownArgumentsMessage(args, ["query"])!;
    expect(msg).toContain(`'${"x".repeat(40)}…'`);
    expect(msg).toContain("and 2 more; allowed: query");
    expect(unknownArgumentsMessage({ query: "x" }, ["query"])).toBeNull();
  });
});
