/**
 * The shape of one MCP tool of pegas-memory: zod input and output shapes, annotations and a `run` over the
 * services. The registry (registry.ts) turns thrown PegasErrors into `isError` results.
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

/** One tool. `run` returns the structured result (validated against `outputSchema` by the SDK). */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: ZodRawShape;
  outputSchema: ZodRawShape;
  annotations: ToolAnnotations;
  run(services: Services, args: any, ctx: ToolContext): Promise<Record<string, unknown>>;
}
