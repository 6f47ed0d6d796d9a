/**
 * The `tools/call` handler, ours instead of the McpServer's so that the protocol is strict where the SDK is lax:
 * - a request whose `params` do not match the spec's (non-object `arguments`, a missing `name`) is a JSON-RPC
 *   -32602 "Invalid params" error of one line saying what to send ("tools/call arguments must be a JSON object …"),
 *   where the SDK Server's own wrapper of a `tools/call` handler answers a multi-line dump of zod issues (the
 *   handler is installed past that wrapper: {@link setToolCallHandler});
 * - an unknown tool is -32602 naming the nearest tool;
 * - an argument the tool does not take is refused as an `isError` result naming it, the nearest allowed name and
 *   every allowed name (arguments.ts), unless `strict_arguments` is off (then it is ignored, as zod strips it);
 * - arguments that fail the tool's zod input shape are an `isError` result `INVALID_INPUT: invalid arguments …`
 *   (a model corrects its call from it: MCP 2025-11-25 asks input errors to be tool results);
 * - structured content that fails the tool's output shape is an `isError` result `INTERNAL: …` (a bug of ours).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { type ZodObject, type ZodRawShape, z } from "zod";
import { PegasError } from "../errors.ts";
import { log } from "../log.ts";
import { nearestName, unknownArgumentsMessage } from "./arguments.ts";
import type { ToolDef } from "./tool.ts";

/** What the SDK hands a request handler: cancellation signal, `_meta` (progress token) and notifications. */
export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Runs one tool on arguments that passed its input shape; returns its result (errors as `isError` results). */
export type ToolHandler = (args: Record<string, unknown>, extra: CallExtra) => Promise<CallToolResult>;

/** One callable tool: its definition, its handler, and the output shape its structured content is checked against. */
export interface CallableTool {
  tool: ToolDef;
  handler: ToolHandler;
  /** The listed output shape (portable-output.ts); null when tools answer without structured content. */
  outputShape: ZodRawShape | null;
}

/**
 * The schema the request is registered under: only the method. The whole params are checked in the handler, where a
 * failure is one line of -32602; the SDK parses the registered schema before any handler, and a failure there is
 * -32603.
 */
export const CALL_METHOD = z.object({ method: z.literal("tools/call"), params: z.unknown().optional() });

/** Most zod issues quoted in one refusal. */
const MAX_ISSUES = 5;

/**
 * A JSON-RPC -32602 "Invalid params" error whose message is the line given: the protocol layer answers any error's
 * `code` and `message`, and a client prefixes "MCP error -32602: " itself (an McpError thrown here would carry that
 * prefix twice).
 */
export class InvalidParams extends Error {
  readonly code = ErrorCode.InvalidParams;
}

/** JSON's name of a value's type: "a number", "a string", "an array", "null". */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value === "bigint" ? "number" : typeof value}`;
}

/**
 * The one-line refusal of `tools/call` params that are not the spec's: what is wrong and what to send instead.
 * `params` is the request's params as received.
 */
export function invalidCallParams(params: unknown, error: z.ZodError): string {
  if (params === undefined) return `tools/call needs params {"name": <tool>, "arguments": {…}}`;
  if (typeof params !== "object" || params === null || Array.isArray(params))
    return `tools/call params must be a JSON object {"name": <tool>, "arguments": {…}}, not ${jsonType(params)}`;
  const p = params as Record<string, unknown>;
  if (typeof p.name !== "string")
    return `tools/call params need "name", the tool to call, as a string${"name" in p ? `, not ${jsonType(p.name)}` : ""}`;
  if ("arguments" in p && (typeof p.arguments !== "object" || p.arguments === null || Array.isArray(p.arguments)))
    return `arguments must be a JSON object of the tool's arguments by name (or left out), not ${jsonType(p.arguments)}`;
  return `invalid tools/call params: ${issuesText(error)}`;
}

/** zod issues as one line: "message at path; …" (the SDK's wording, without its prefix). */
function issuesText(error: z.ZodError): string {
  const lines = error.issues
    .slice(0, MAX_ISSUES)
    .map((i) => (i.path.length ? `${i.message} at ${i.path.map(String).join(".")}` : i.message));
  const more = error.issues.length > MAX_ISSUES ? `; and ${error.issues.length - MAX_ISSUES} more` : "";
  return lines.join("; ") + more;
}

const refusal = (code: "INVALID_INPUT" | "INTERNAL", text: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: `${code}: ${text}` }],
});

/** A prepared tool: handler plus its zod input and output objects, built once per server. */
interface Prepared extends CallableTool {
  fields: string[];
  input: ZodObject;
  output: ZodObject | null;
}

/** The `tools/call` request handler: the SDK's request (checked here, see module doc) → the tool's result. */
export type ToolCallHandler = (
  request: { method: string; params?: unknown },
  extra: CallExtra,
) => Promise<CallToolResult>;

/**
 * Makes `server` answer `tools/call` for `tools` (replacing the McpServer's handler; call it before `connect`).
 * `strictArguments` false ignores unknown arguments instead of refusing them.
 */
export function serveToolCalls(server: McpServer, tools: readonly CallableTool[], strictArguments: boolean): void {
  setToolCallHandler(server, toolCallHandler(tools, strictArguments));
}

/**
 * Installs `handler` as `server`'s `tools/call` handler through the protocol layer's registration, not the SDK
 * Server's override of it: that override (SDK 1.2x) parses the params before the handler and refuses bad ones with
 * a multi-line zod dump, and parses the result again; the handler here checks both itself. The tools capability must
 * be registered first.
 */
export function setToolCallHandler(server: McpServer, handler: ToolCallHandler): void {
  Protocol.prototype.setRequestHandler.call(server.server, CALL_METHOD, handler);
}

/** The `tools/call` handler for `tools` (see {@link serveToolCalls}); the zod objects are built once, here. */
export function toolCallHandler(tools: readonly CallableTool[], strictArguments: boolean): ToolCallHandler {
  const byName = new Map<string, Prepared>();
  for (const t of tools) {
    const input = z.object(t.tool.inputSchema);
    const output = t.outputShape ? z.object(t.outputShape) : null;
    byName.set(t.tool.name, { ...t, fields: Object.keys(t.tool.inputSchema), input, output });
  }
  const names = [...byName.keys()];
  return async (request, extra): Promise<CallToolResult> => {
    const parsed = CallToolRequestSchema.safeParse(request);
    if (!parsed.success) {
      throw new InvalidParams(invalidCallParams(request.params, parsed.error));
    }
    const { name, arguments: args = {} } = parsed.data.params;
    const entry = byName.get(name);
    if (!entry) {
      const near = nearestName(name, names);
      throw new InvalidParams(`unknown tool '${name}'${near ? `; did you mean '${near}'?` : ""}`);
    }
    if (strictArguments) {
      const unknown = unknownArgumentsMessage(args, entry.fields);
      if (unknown) return refusal("INVALID_INPUT", unknown);
    }
    const input = entry.input.safeParse(args);
    if (!input.success) return refusal("INVALID_INPUT", `invalid arguments for ${name}: ${issuesText(input.error)}`);
    const result = await entry.handler(input.data, extra);
    if (result.isError || !entry.output) return result;
    const out = entry.output.safeParse(result.structuredContent);
    if (out.success) return result;
    const err = new PegasError("INTERNAL", `${name} answered outside its output schema: ${issuesText(out.error)}`);
    log.error("tool output invalid", { err });
    return refusal("INTERNAL", err.message);
  };
}
