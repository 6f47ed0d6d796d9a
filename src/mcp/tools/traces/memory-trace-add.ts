/** memory_trace_add tool. */
import { z } from "zod";
import { MAX_SESSION_CHARS, MAX_TRACE_CHARS, TRACE_KINDS, addTrace } from "../../../core/traces/traces.ts";
import { id } from "../../schemas.ts";
import { withoutNulls } from "../../render.ts";
import type { ToolDef } from "../../tool.ts";
import { renderTraceAdd } from "./render.ts";

/** Record one episodic trace of the agent's own work. */
export const memoryTraceAdd: ToolDef = {
  name: "memory_trace_add",
  title: "Record a trace",
  description: "Record your own plan, action, observation or reflection, apart from knowledge.",
  details:
    "Record one step of your own work as an episodic trace: a plan, an action you took, an observation (a tool result, " +
    "an error) or a reflection (what worked, what to do differently). Traces are your diary, kept apart from knowledge: " +
    "memory_search never returns them; find them again with memory_trace_search. Use memory_store instead for facts " +
    "about the world that should be cited and verified. Give `session` (your run id) to group the steps of one run. " +
    "Every call stores a new trace.",
  fieldDetails: {
    kind: "plan | action | observation | reflection",
    content: "what was planned, done, observed or concluded (≤ 100000 characters, any language)",
    metadata: "a JSON object (tool name, urls, ids…), ≤ 16384 bytes",
  },
  inputSchema: {
    kind: z.enum(TRACE_KINDS),
    content: z.string().min(1).max(MAX_TRACE_CHARS),
    session: z.string().min(1).max(MAX_SESSION_CHARS).optional().describe("groups a run's traces"),
    metadata: z.record(z.string(), z.unknown()).optional(),
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
