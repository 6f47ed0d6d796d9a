/**
 * Helpers of the HTTP endpoint tests: a server runtime over a fresh embedded database (a copy of the migrated
 * template data dir), an in-process HTTP server on a free port, and an MCP SDK client over Streamable HTTP.
 */
import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Config } from "../../src/config.ts";
import { serveHttp } from "../../src/http/serve.ts";
import type { HttpAppOptions } from "../../src/http/app.ts";
import type { ReplayBudget } from "../../src/http/event-store.ts";
import { McpSessions } from "../../src/http/sessions.ts";
import { ServerRuntime } from "../../src/mcp/server.ts";
import type { HttpListener } from "../../src/platform/http-server.ts";
import { openTestServices, testConfig } from "../support/services.ts";

/** A runtime over its own data dir; `dispose` stops it (if not yet) and removes the dir. */
export interface TestRuntime {
  runtime: ServerRuntime;
  config: Config;
  dispose(): Promise<void>;
}

/** A runtime on a fresh PGlite data dir (migrated), with `flags` on top of the test config. */
export async function pgliteRuntime(flags: Record<string, unknown> = {}): Promise<TestRuntime> {
  const t = await openTestServices("pglite", flags);
  if (typeof t === "string") throw new Error(t);
  await t.services.close(0);
  const runtime = new ServerRuntime(t.config);
  return {
    runtime,
    config: t.config,
    dispose: async () => {
      await runtime.stop("test done");
      rmSync(t.config.data_dir, { recursive: true, force: true });
    },
  };
}

/** A runtime over a config that needs no data dir of its own (e.g. a PostgreSQL URL). */
export function runtimeOf(flags: Record<string, unknown>): TestRuntime {
  const config = testConfig({ log_level: "warn", ...flags });
  const runtime = new ServerRuntime(config);
  return { runtime, config, dispose: () => runtime.stop("test done") };
}

/** A runtime on a fresh PGlite data dir serving HTTP on 127.0.0.1 at a free port. */
export async function httpServer(
  flags: Record<string, unknown> = {},
  opts: Pick<HttpAppOptions, "sessions"> = {},
): Promise<TestRuntime & { listener: HttpListener }> {
  const t = await pgliteRuntime({ http: "127.0.0.1:0", ...flags });
  const listener = await serveHttp(t.config, t.runtime, opts);
  return { ...t, listener };
}

/** An MCP client connected over Streamable HTTP to `url`/mcp, sending `headers` with every request. */
export async function httpClient(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "http-test", version: "1" });
  await client.connect(transport);
  return { client, transport };
}

/** An initialize request body for raw fetches. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** Headers of a raw MCP POST. */
export const MCP_POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/**
 * A session map (no HTTP listener) whose servers have one tool, `wait`, that answers only once the test calls
 * `open`: a call is surely in flight while the test drops its connection or fills the session cap. `send` makes a
 * request as a client would, with the session id (and `protocolVersion`, when given) once there is a session.
 */
export function gatedSessions(opts: { maxSessions: number; replay?: ReplayBudget; protocolVersion?: string }) {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const sessions = new McpSessions({
    replay: opts.replay,
    createServer: () => {
      const server = new McpServer({ name: "gated", version: "1" });
      server.registerTool("wait", { description: "answers when the test opens the gate" }, async () => {
        await gate;
        return { content: [{ type: "text", text: "released" }] };
      });
      return server;
    },
    maxSessions: opts.maxSessions,
    idleMs: 60_000,
    maxBodyBytes: 1 << 20,
    allowedHosts: () => undefined,
  });
  const version: Record<string, string> = opts.protocolVersion ? { "mcp-protocol-version": opts.protocolVersion } : {};
  const send = (method: string, sid: string | null, body?: string, headers: Record<string, string> = {}) =>
    sessions.handle(
      new Request("http://127.0.0.1/mcp", {
        method,
        headers: { ...MCP_POST_HEADERS, ...(sid ? { "mcp-session-id": sid, ...version } : {}), ...headers },
        body,
      }),
    );
  return { sessions, send, open };
}
