/** memory_add_gap tool: record an open research question, or raise the priority of the open gap it repeats. */
import { z } from "zod";
import { addGap, MAX_GAP_TEXT } from "../../../core/gaps/gaps.ts";
import { id } from "../../schemas.ts";
import { withoutNulls } from "../../render.ts";
import type { ToolDef } from "../../tool.ts";
import { conciseGap, renderAddGap } from "./render.ts";
import { GAP_STATUSES } from "../../../core/services.ts";

/** A research gap as tools return it (shared with memory_list_gaps). */
export const gapSchema = z.object({
  id,
  question: z.string(),
  reason: z.string().optional(),
  priority: z.number().int().min(1).max(5).describe("1 least .. 5 most urgent"),
  status: z.enum(GAP_STATUSES as [string, ...string[]]),
  metadata: z
    .record(z.string(), z.unknown())
    .describe(
      "repeats (rewordings that raised the priority) and repeat_count; attempts of the research runner and attempt_count; " +
        "answer {atom_ids, decided_by, ranks, reasons, checked_at} once answered",
    ),
  created_at: z.string(),
  updated_at: z.string().optional(),
});

/** memory_add_gap: a near-duplicate of an open gap raises its priority instead of adding a gap. */
export const memoryAddGap: ToolDef = {
  name: "memory_add_gap",
  title: "Add a research gap",
  description: "Record a question memory cannot answer yet; repeating one raises its priority.",
  details:
    "Record a question the memory cannot answer yet (a research gap), with why it matters and a priority from 1 (least) " +
    "to 5 (most urgent, default 3). When the question repeats an open gap — the same question in other words, English " +
    "or Russian, with no negation, number, date or name that differs — no gap is added: that gap's priority rises by one " +
    "(or to the given priority when higher, at most 5) and the repeat is recorded in its metadata; `duplicate_of` names it. " +
    "A gap becomes `answered` when memory_verify makes an atom that answers it `verified`; `pegas-memory research` looks " +
    "for answers on the web.",
  fieldDetails: {
    question: "the open question, one sentence",
    reason: "why the answer is needed",
    priority: "1 least .. 5 most urgent (default 3)",
  },
  inputSchema: {
    question: z.string().min(1).max(MAX_GAP_TEXT),
    reason: z.string().max(MAX_GAP_TEXT).optional(),
    priority: z.number().int().min(1).max(5).optional(),
  },
  outputSchema: {
    gap: gapSchema,
    created: z.boolean().describe("false when the question repeated an open gap"),
    duplicate_of: id.optional().describe("the open gap the question repeats (its priority was raised)"),
    previous_priority: z.number().int().optional().describe("that gap's priority before the raise"),
    decided_by: z.string().optional().describe("why it counts as a repeat"),
  },
  // Not idempotent: the same question again raises the gap's priority.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (services, args) => {
    const r = await addGap(services, args);
    return withoutNulls({ ...r, gap: withoutNulls({ ...r.gap }) });
  },
  render: renderAddGap,
  concise: (out) => ({ ...out, gap: conciseGap(out.gap as Record<string, unknown>) }),
};
