/**
 * The `tools/list` answer, built here instead of by the SDK so that it is portable and cheap to carry on every
 * request: schemas in JSON Schema 2020-12 (the MCP default dialect, so without `$schema`), no numeric bound at or
 * beyond 2^53−1 (zod's `int()` emits ±(2^53−1), which stricter clients such as Gemini refuse), no `execution` (its
 * default: no task support), and only the annotations that differ from the spec's defaults. Input schemas leave out
 * what a model never needs to call well (see {@link compactInput}); calls still go through the SDK's handler, which
 * validates the arguments against the tools' whole zod shapes and answers what is out of bounds with an error.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { type ZodRawShape, z } from "zod";
import { portableOutput } from "./portable-output.ts";
import type { ToolDef } from "./tool.ts";

/** A JSON Schema node, loosely typed. */
type Json = Record<string, unknown>;

const BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/**
 * A copy of a JSON Schema without `$schema` and without numeric bounds whose magnitude is ≥ 2^53−1
 * (`Number.MAX_SAFE_INTEGER`); everything else is kept as is.
 */
export function portableSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s) => portableSchema(s)) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === "$schema") continue;
    if (BOUNDS.includes(key) && typeof value === "number" && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    out[key] = portableSchema(value);
  }
  return out as T;
}

/** Size limits a model never meets in practice: strings and arrays this long are not worth their tokens. */
const UNREACHED_LENGTH = 200;

/**
 * An input JSON Schema cut to what a model needs: `minLength`/`minItems` of 1, `maxLength`/`maxItems` of
 * {@link UNREACHED_LENGTH} or more, patterns (a description says the form), a lower bound of 0 or 1 on integers
 * (counts and ids) and the string keys and open values of a record are left out, and "one value or an array of
 * them" (`anyOf: [S, array of S]`) is listed as the array alone.
 * Everything listed is still accepted; the server still checks the rest.
 */
export function compactInput<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s) => compactInput(s)) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Json;
  const any = node.anyOf as Json[] | undefined;
  if (any?.length === 2 && any[1]?.type === "array" && JSON.stringify(any[1].items) === JSON.stringify(any[0])) {
    const { anyOf: _, ...rest } = node;
    return compactInput({ ...rest, ...any[1] }) as T;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "minLength" || key === "minItems") && value === 1) continue;
    if ((key === "maxLength" || key === "maxItems") && typeof value === "number" && value >= UNREACHED_LENGTH) continue;
    if ((key === "exclusiveMinimum" || key === "minimum") && (value === 0 || value === 1) && node.type === "integer") {
      continue;
    }
    if (key === "pattern") continue;
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') continue;
    if (key === "additionalProperties" && JSON.stringify(value) === "{}") continue;
    out[key] = compactInput(value);
  }
  return out as T;
}

/** The hints' values the MCP spec assumes when a hint is absent. */
const HINT_DEFAULTS: Record<string, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * The annotations worth sending: a hint equal to the spec's default is left out, and so are `destructiveHint` and
 * `idempotentHint` of a read-only tool (the spec reads them only for tools that write).
 */
export function listedAnnotations(a: ToolAnnotations): ToolAnnotations {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(a)) {
    if (HINT_DEFAULTS[key] === value) continue;
    if (a.readOnlyHint && (key === "destructiveHint" || key === "idempotentHint")) continue;
    out[key] = value;
  }
  return out as ToolAnnotations;
}

/** The hints as a client reads them: what is absent takes the spec's default. */
export function effectiveHints(a: ToolAnnotations | undefined): Required<Omit<ToolAnnotations, "title">> {
  return { ...(HINT_DEFAULTS as Required<Omit<ToolAnnotations, "title">>), ...a };
}

/** The JSON Schema of a zod shape as one direction of a call sees it ("input": arguments, "output": results). */
export function shapeJsonSchema(shape: ZodRawShape, io: "input" | "output"): Tool["inputSchema"] {
  return portableSchema(z.toJSONSchema(z.object(shape), { io, target: "draft-2020-12" })) as Tool["inputSchema"];
}

/** One tool as `tools/list` shows it; `withOutput` adds its output schema. */
export function listedTool(tool: ToolDef, withOutput: boolean): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactInput(shapeJsonSchema(tool.inputSchema, "input")),
    ...(withOutput ? { outputSchema: shapeJsonSchema(portableOutput(tool), "output") } : {}),
    annotations: listedAnnotations(tool.annotations),
  };
}

/** Listed tools, computed once per process (an HTTP server makes a server per session). */
const LISTED = { with: new WeakMap<ToolDef, Tool>(), without: new WeakMap<ToolDef, Tool>() };

/**
 * Makes `server` answer `tools/list` with {@link listedTool} of each of `tools`. Call it after the tools are
 * registered: it replaces the SDK's own listing.
 */
export function serveToolList(server: McpServer, tools: readonly ToolDef[], withOutput: boolean): void {
  server.server.setRequestHandler(ListToolsRequestSchema, toolListHandler(tools, withOutput));
}

/** The `tools/list` handler for `tools` (see {@link serveToolList}): each tool listed once per process. */
export function toolListHandler(tools: readonly ToolDef[], withOutput: boolean): () => { tools: Tool[] } {
  const cache = withOutput ? LISTED.with : LISTED.without;
  return () => ({
    tools: tools.map((t) => {
      let listed = cache.get(t);
      if (!listed) cache.set(t, (listed = listedTool(t, withOutput)));
      return listed;
    }),
  });
}
