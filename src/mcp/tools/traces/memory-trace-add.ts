/** memory_trace_add tool. */
import { z } from "zod";
import { MAX_SESSION_CHARS, MAX_TRACE_CHARS, TRACE_KINDS, addTrace } from "../../../core/traces/traces.ts";
import { MAX_METADATA_BYTES } from "../../../core/traces/metadata.ts";
import { id } from "../../schemas.ts";
import { withoutNulls } from "../../render.ts";
import type { ToolDef } from "../../tool.ts";
import { renderTraceAdd } from "./render.ts";

/** Record one episodic trace of the agent's own work. */
export const memoryTraceAdd: ToolDef = {
  name: "memory_trace_add",
  title: "Record a trace",
  description:
    "Record one step of your own work as an episodic trace: a plan, an action you took, an observation (a tool result, " +
    "an error) or a reflection (what worked, what to do differently). Traces are your diary, kept apart from knowledge: " +
    "memory_search never returns them; find them again with memory_trace_search. Use memory_store instead for facts " +
    "about the world that should be cited and verified. Give `session` (your run id) to group the steps of one run. " +
    "Every call stores a new trace.",
  inputSchema: {
    kind: z.enum(TRACE_KINDS).describe("plan | action | observation | reflection"),
    content: z
      .string()
      .min(1)
      .max(MAX_TRACE_CHARS)
      .describe(`what was planned, done, observed or concluded (≤ ${MAX_TRACE_CHARS} characters, any language)`),
    session: z
      .string()
      .min(1)
      .max(MAX_SESSION_CHARS)
      .optional()
      .describe("id of the agent's run or conversation, to group its traces"),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(`a JSON object (tool name, urls, ids…), ≤ ${MAX_METADATA_BYTES} bytes`),
  },
  outputSchema: {
    trace_id: id,
    kind: z.enum(TRACE_KINDS),
    session: z.string().optional(),
    created_at: z.string().describe("ISO 8601 UTC"),
    content_chars: z.number().int().describe("length of the stored content in code points"),
    warnings: z.array(z.string()).describe("what sanitizing changed (NUL characters, lone surrogates)"),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (services, args) => withoutNulls({ ...(await addTrace(services, args)) }),
  render: renderTraceAdd,
};
