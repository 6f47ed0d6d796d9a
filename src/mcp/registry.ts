/**
 * The tools of this build and their registration on an McpServer: opens the services lazily on the first call, maps
 * PegasError to an `isError` result with an actionable message (never a stack or SQL), bounds the result size and
 * wires cancellation and progress.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolsetName } from "../config.ts";
import type { Services } from "../core/services.ts";
import { PegasError, toPegasError } from "../errors.ts";
import { recordToolCall, type ToolOutcome } from "./metrics.ts";
import { log } from "../log.ts";
import type { CallTracker } from "./calls.ts";
import { type CallableTool, type ToolHandler, serveToolCalls, toolCallHandler } from "./call-tool.ts";
import type { ToolRequestHandlers } from "./deferred-tools.ts";
import { serveToolList, toolListHandler } from "./listing.ts";
import { dropNulls, portableOutput } from "./portable-output.ts";
import type { ResponseFormat, ToolContext, ToolDef } from "./tool.ts";
import { memoryAddGap } from "./tools/research/memory-add-gap.ts";
import { memoryForget } from "./tools/knowledge/memory-forget.ts";
import { memoryGet } from "./tools/knowledge/memory-get.ts";
import { memoryGetContext } from "./tools/search/memory-get-context.ts";
import { memoryLink } from "./tools/knowledge/memory-link.ts";
import { memoryIngest } from "./tools/knowledge/memory-ingest.ts";
import { memoryListGaps } from "./tools/research/memory-list-gaps.ts";
import { memoryInfer } from "./tools/research/memory-infer.ts";
import { memoryRefresh } from "./tools/knowledge/memory-refresh.ts";
import { memoryQueryGraph } from "./tools/search/memory-query-graph.ts";
import { memorySearch } from "./tools/search/memory-search.ts";
import { memoryStats } from "./tools/knowledge/memory-stats.ts";
import { memoryStore } from "./tools/knowledge/memory-store.ts";
import { memoryTraceAdd } from "./tools/traces/memory-trace-add.ts";
import { memoryTraceSearch } from "./tools/traces/memory-trace-search.ts";
import { memoryUnmerge } from "./tools/knowledge/memory-unmerge.ts";
import { memoryVerify } from "./tools/research/memory-verify.ts";
import { memoryCodeGraph } from "./tools/code/memory-code-graph.ts";
import { memorySearchCode } from "./tools/code/memory-search-code.ts";
import { memoryStoreCode } from "./tools/code/memory-store-code.ts";

/** Every tool of this build, in listing order. */
export const TOOLS: readonly ToolDef[] = [
  memorySearch,
  memoryGetContext,
  memoryGet,
  memoryLink,
  memoryForget,
  memoryStore,
  memoryIngest,
  memoryRefresh,
  memoryStats,
  memoryTraceAdd,
  memoryTraceSearch,
  memoryVerify,
  memoryUnmerge,
  memoryStoreCode,
  memorySearchCode,
  memoryCodeGraph,
  memoryQueryGraph,
  memoryInfer,
  memoryAddGap,
  memoryListGaps,
];

/** The tools of each toolset (config `toolsets`): a toolset is the folder of src/mcp/tools/ its tools live in. */
export const TOOLSETS: Readonly<Record<ToolsetName, readonly ToolDef[]>> = {
  knowledge: [
    memoryGet,
    memoryLink,
    memoryForget,
    memoryStore,
    memoryIngest,
    memoryRefresh,
    memoryStats,
    memoryUnmerge,
  ],
  search: [memorySearch, memoryGetContext, memoryQueryGraph],
  code: [memoryStoreCode, memorySearchCode, memoryCodeGraph],
  research: [memoryVerify, memoryInfer, memoryAddGap, memoryListGaps],
  traces: [memoryTraceAdd, memoryTraceSearch],
};

/** The tools of `toolsets`, in listing order ({@link TOOLS}). */
export function toolsOf(toolsets: readonly ToolsetName[]): ToolDef[] {
  const on = new Set(toolsets.flatMap((s) => TOOLSETS[s]));
  return TOOLS.filter((t) => on.has(t));
}

/** Largest serialized result (bytes); far below the 10 MiB a stdio client reads. */
export const MAX_RESULT_BYTES = 1024 * 1024;

/** Converts an error into the `isError` result the agent reads. */
export function errorResult(err: unknown): CallToolResult {
  const e = toPegasError(err);
  if (e.code === "INTERNAL") log.error("tool failed", { err: e.cause instanceof Error ? e.cause : e });
  return { isError: true, content: [{ type: "text", text: `${e.code}: ${e.userMessage}` }] };
}

/**
 * How tools answer and take arguments: `structuredContent` off = no output schemas and no structured content (text
 * only); `textFormat` "json" = the text content is the JSON of the structured content (as the MCP spec suggests for
 * clients older than structured content) instead of the tool's rendering for a model; `strictArguments` false =
 * arguments a tool does not take are ignored instead of refused (config `strict_arguments`).
 */
export interface ToolOptions {
  structuredContent: boolean;
  textFormat: "markdown" | "json";
  strictArguments?: boolean;
}

/** Default: structured content on, text content rendered for a model, unknown arguments refused. */
export const DEFAULT_TOOL_OPTIONS: ToolOptions = {
  structuredContent: true,
  textFormat: "markdown",
  strictArguments: true,
};

/**
 * Builds a tool's answer from its whole result: the structured content in the asked `response_format` (its null
 * fields left out, as the listed output schema declares them optional: portable-output.ts), and the
 * text content (the tool's rendering, or JSON when configured). Exported for tests and benchmarks.
 * @throws PegasError LIMIT_EXCEEDED when either part is over {@link MAX_RESULT_BYTES}.
 */
export function toolResult(
  tool: ToolDef,
  out: Record<string, unknown>,
  args: Record<string, unknown>,
  options: ToolOptions = DEFAULT_TOOL_OPTIONS,
): CallToolResult {
  const format: ResponseFormat = args.response_format === "detailed" ? "detailed" : "concise";
  const structured = dropNulls(format === "detailed" || !tool.concise ? out : tool.concise(out, args));
  const text = options.textFormat === "json" || !tool.render ? JSON.stringify(structured) : tool.render(out, args);
  const bytes =
    Buffer.byteLength(text) + (options.structuredContent ? Buffer.byteLength(JSON.stringify(structured)) : 0);
  if (bytes > MAX_RESULT_BYTES) {
    throw new PegasError("LIMIT_EXCEEDED", `${tool.name} result exceeds ${MAX_RESULT_BYTES} bytes`, {
      hint: "ask for less (a smaller k, a narrower filter)",
    });
  }
  const content: CallToolResult["content"] = [{ type: "text", text }];
  return options.structuredContent ? { content, structuredContent: structured } : { content };
}

/**
 * Serves `tools` (default every tool) on `server`: `tools/call` through call-tool.ts, the portable listing through
 * listing.ts; `tools.listChanged` is declared false (the tools of a server never change while it runs). Call it
 * before `connect`. `getServices` opens the database on first use.
 */
export function registerTools(
  server: McpServer,
  getServices: () => Promise<Services>,
  calls: CallTracker,
  options: ToolOptions = DEFAULT_TOOL_OPTIONS,
  tools: readonly ToolDef[] = TOOLS,
): void {
  // McpServer declares listChanged true as soon as it has tools; a static list must not (clients would wait for it).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  serveToolCalls(server, callableTools(getServices, calls, options, tools), options.strictArguments !== false);
  serveToolList(server, tools, options.structuredContent);
}

/**
 * The `tools/list` and `tools/call` handlers of `tools` over `getServices`, as {@link registerTools} installs them:
 * for a server that loads its tools on first use (deferred-tools.ts).
 */
export function toolRequestHandlers(
  getServices: () => Promise<Services>,
  calls: CallTracker,
  options: ToolOptions = DEFAULT_TOOL_OPTIONS,
  tools: readonly ToolDef[] = TOOLS,
): ToolRequestHandlers {
  return {
    list: toolListHandler(tools, options.structuredContent),
    call: toolCallHandler(callableTools(getServices, calls, options, tools), options.strictArguments !== false),
  };
}

function callableTools(
  getServices: () => Promise<Services>,
  calls: CallTracker,
  options: ToolOptions,
  tools: readonly ToolDef[],
): CallableTool[] {
  return tools.map((tool) => ({
    tool,
    handler: toolHandler(tool, getServices, calls, options),
    outputShape: options.structuredContent ? portableOutput(tool) : null,
  }));
}

/** The handler of one tool: opens the services, runs it with cancellation and progress, records the call. */
function toolHandler(
  tool: ToolDef,
  getServices: () => Promise<Services>,
  calls: CallTracker,
  options: ToolOptions,
): ToolHandler {
  return async (input, extra) => {
    const ac = new AbortController();
    const onAbort = () => ac.abort(extra.signal.reason);
    extra.signal.addEventListener("abort", onAbort);
    calls.add(ac);
    const token = extra._meta?.progressToken;
    const ctx: ToolContext = {
      signal: ac.signal,
      progress: (progress, total, message) => {
        if (token === undefined) return;
        extra
          .sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total, message },
          })
          .catch(() => {});
      },
    };
    const started = performance.now();
    let outcome: ToolOutcome = "error";
    let out: Record<string, unknown> | undefined;
    try {
      const services = await getServices();
      out = await tool.run(services, input, ctx);
      const result = toolResult(tool, out, input, options);
      outcome = "ok";
      return result;
    } catch (err) {
      // Shutdown aborts calls and closes the database under them: whatever they fail with, they were cancelled.
      if ((ac.signal.aborted || calls.stopping) && !extra.signal.aborted) {
        outcome = "cancelled";
        return errorResult(
          new PegasError(
            "CANCELLED",
            `${tool.name} was cancelled because the server is shutting down; what it had not finished was not stored`,
            { hint: "call it again when the server is back" },
          ),
        );
      }
      if (extra.signal.aborted || toPegasError(err).code === "CANCELLED") outcome = "cancelled";
      return errorResult(err);
    } finally {
      recordToolCall(tool.name, outcome, (performance.now() - started) / 1000, out);
      extra.signal.removeEventListener("abort", onAbort);
      calls.delete(ac);
    }
  };
}
