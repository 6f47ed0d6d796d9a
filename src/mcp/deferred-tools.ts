/**
 * Tools served from their first use: `initialize` is answered before the tool modules (and with them the core,
 * the domain tables and every schema of every tool) are loaded; the first `tools/list` or `tools/call` loads them
 * once and every later request uses the same handlers (the registry's, src/mcp/registry.ts).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { setToolCallHandler, type ToolCallHandler } from "./call-tool.ts";

/** The two request handlers of the tools: the listing and the call (call-tool.ts). */
export interface ToolRequestHandlers {
  list: () => { tools: Tool[] };
  call: ToolCallHandler;
}

/**
 * Declares the tools capability of `server` (a list that never changes: `listChanged` false) and answers
 * `tools/list` and `tools/call` with the handlers `load` resolves to, called on the first of them. A failed load
 * fails that request and is tried again on the next. `onCallBeforeLoad` runs when a `tools/call` arrives before the
 * handlers are loaded (the server starts opening its services then, while the tool modules load). Call it before
 * `connect`.
 */
export function serveToolsOnFirstUse(
  server: McpServer,
  load: () => Promise<ToolRequestHandlers>,
  onCallBeforeLoad?: () => void,
): void {
  server.server.registerCapabilities({ tools: { listChanged: false } });
  let loading: Promise<ToolRequestHandlers> | null = null;
  let loaded = false;
  const handlers = (): Promise<ToolRequestHandlers> => {
    if (!loading) {
      const l = load();
      l.then(
        () => (loaded = true),
        () => {
          if (loading === l) loading = null;
        },
      );
      loading = l;
    }
    return loading;
  };
  server.server.setRequestHandler(ListToolsRequestSchema, async () => (await handlers()).list());
  setToolCallHandler(server, async (request, extra) => {
    if (!loaded) onCallBeforeLoad?.();
    return (await handlers()).call(request, extra);
  });
}
