/**
 * The shape of one MCP tool of pegas-memory: zod input and output shapes, annotations, a `run` over the services and
 * the two readings of its answer: the text content a model reads (`render`) and the structured content (`concise`,
 * or the whole result when `response_format` is "detailed"). The registry (registry.ts) turns thrown PegasErrors
 * into `isError` results.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ZodRawShape } from "zod";
import type { Services } from "../core/services.ts";

/** Per-call context: cancellation and progress notifications. */
export interface ToolContext {
  signal: AbortSignal;
  /** Sends a progress notification when the client asked for them (progressToken); otherwise a no-op. */
  progress(progress: number, total: number | undefined, message: string): void;
}

/**
 * How much of the result the structured content carries: "concise" (the default) what the text content says, for
 * clients that hand the model only the structured content; "detailed" also scores, ranks and per-item data, for
 * programs. A tool whose input has `response_format` reads it from its arguments; the others are always concise.
 */
export type ResponseFormat = "concise" | "detailed";

/** One tool. */
export interface ToolDef {
  name: string;
  title: string;
  /** What `tools/list` shows: what a model needs to choose and call the tool, in one or two sentences. */
  description: string;
  /** The behaviour in full, for docs/tools.md only (never sent to clients: it would cost tokens on every request). */
  details?: string;
  /** Words for input fields whose schema leaves them undescribed (obvious to a model), for docs and CLI help only. */
  fieldDetails?: Record<string, string>;
  inputSchema: ZodRawShape;
  /** Shape of the structured content in both formats (fields only "detailed" has are optional). */
  outputSchema: ZodRawShape;
  annotations: ToolAnnotations;
  /** The whole result (the "detailed" structured content). */
  run(services: Services, args: any, ctx: ToolContext): Promise<Record<string, unknown>>;
  /**
   * The text content, written for a model: compact Markdown or lines with ids, claims, status, numbered citations
   * and what was left out with how to get it; no JSON keys, nulls or internal scores. Missing = the JSON of the
   * structured content (a tool not yet given a rendering).
   */
  render?(out: Record<string, unknown>, args: any): string;
  /** The "concise" structured content: what the text content holds, compactly. Missing = the whole result. */
  concise?(out: Record<string, unknown>, args: any): Record<string, unknown>;
}
