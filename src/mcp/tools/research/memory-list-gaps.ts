/** memory_list_gaps tool: research gaps by priority, and repeated search misses offered as gaps. */
import { z } from "zod";
import { GAP_LIST_DEFAULT, GAP_LIST_MAX, listGaps } from "../../../core/gaps/gaps.ts";
import { responseFormat } from "../../schemas.ts";
import { withoutNulls } from "../../render.ts";
import type { ToolDef } from "../../tool.ts";
import { gapSchema } from "./memory-add-gap.ts";
import { conciseListGaps, renderListGaps } from "./render.ts";

/** memory_list_gaps: gaps most urgent first (then oldest), plus suggested gaps from repeated search misses. */
export const memoryListGaps: ToolDef = {
  name: "memory_list_gaps",
  title: "List research gaps",
  description: "List research gaps, most urgent first, and searches that missed repeatedly.",
  details:
    "List research gaps, most urgent first (priority 5 → 1), then oldest first: `open` ones by default, or `answered` " +
    "(with the atoms that answered them in metadata.answer), `dismissed`, or `all`. Also returns `suggested`: searches " +
    "that missed (their best hit held less than half of the query's terms, or there was none) at least twice, with the " +
    "same words up to case, punctuation and word endings, and that no gap asks yet — candidates for memory_add_gap.",
  fieldDetails: {
    limit: `most gaps listed (default ${GAP_LIST_DEFAULT})`,
    offset: "gaps to skip, for the next page (default 0)",
  },
  inputSchema: {
    status: z.enum(["open", "answered", "dismissed", "all"]).optional().describe("default open"),
    limit: z.number().int().min(1).max(GAP_LIST_MAX).optional(),
    offset: z.number().int().min(0).optional(),
    response_format: responseFormat,
  },
  outputSchema: {
    gaps: z.array(gapSchema),
    total: z.number().int().describe("gaps of that status (the list holds at most `limit`, from `offset`)"),
    suggested: z
      .array(
        z.object({
          query: z.string().describe("the latest wording of the missed search"),
          misses: z.number().int(),
          best_score: z.number().optional().describe("best share (0..1) of the query's terms that a hit contained"),
          first_at: z.string().optional(),
          last_at: z.string(),
        }),
      )
      .describe("repeated search misses no gap asks yet, most missed first (at most 20)"),
    suggested_total: z.number().int(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const r = await listGaps(services, args);
    return { ...r, gaps: r.gaps.map((g) => withoutNulls({ ...g })) };
  },
  render: renderListGaps,
  concise: conciseListGaps,
};
