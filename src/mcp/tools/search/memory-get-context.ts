/** memory_get_context tool: cited context for a question, packed to a token budget. */
import { z } from "zod";
import {
  CONTEXT_LIMITS,
  type ContextInput,
  type ContextResult,
  conciseContext,
  getContext,
  TOKENIZER,
} from "../../../core/context/context.ts";
import { id, readTime, responseFormat } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";

/** Context for an answer. */
export const memoryGetContext: ToolDef = {
  name: "memory_get_context",
  title: "Context for a question",
  description: "Cited context for a question, within budget_tokens.",
  details:
    "What memory knows about a question, ready to read before answering: a hybrid search (k hits), then 1–2 hops " +
    "over the strongest links to related atoms, then the next hits while the budget has room, deduplicated, contested " +
    "atoms flagged with the atom that contradicts them, packed in rank order into at most `budget_tokens` tokens (counted with " +
    TOKENIZER +
    "). Returns a " +
    "compact Markdown block — one line per atom with numbered citations, then `Sources: [n] title — locator (uri)` — " +
    "and, as structured data, that block with its citations. Quote the numbered sources when you use them. Retracted and stale atoms are " +
    "never included, superseded ones only at `valid_at`/`known_at`. response_format detailed adds every packed " +
    "item with its scores to the structured content, beyond the budget (for programs). Read-only.",
  fieldDetails: {
    question: "the question to gather context for, in any language",
    k: "search hits ranked first, and most atoms added over links; default 8",
    hops: "graph hops from each hit; default 1",
    valid_at: "what was true then (ISO 8601)",
    known_at: "what memory knew then (ISO 8601)",
  },
  inputSchema: {
    question: z.string().min(1).max(4000),
    budget_tokens: z
      .number()
      .int()
      .min(CONTEXT_LIMITS.budget.min)
      .max(CONTEXT_LIMITS.budget.max)
      .optional()
      .describe(`default ${CONTEXT_LIMITS.budget.default}`),
    k: z.number().int().min(CONTEXT_LIMITS.k.min).max(CONTEXT_LIMITS.k.max).optional(),
    hops: z.number().int().min(CONTEXT_LIMITS.hops.min).max(CONTEXT_LIMITS.hops.max).optional(),
    valid_at: readTime.optional(),
    known_at: readTime.optional(),
    response_format: responseFormat,
  },
  outputSchema: {
    question: z.string().optional(),
    markdown: z.string().describe("the context block to read"),
    items: z
      .array(
        z.object({
          atom_id: id,
          type: z.string(),
          status: z.string(),
          confidence: z.number(),
          claim: z.string(),
          shown: z.string().describe("the sentences of the atom the line shows"),
          cut: z.boolean().describe("true when the line shows less than the whole atom"),
          source: z.enum(["search", "graph"]),
          score: z.number(),
          via: z
            .object({ atom_id: id, kind: z.string(), hops: z.number().int() })
            .optional()
            .describe("for graph items: the hit it was reached from"),
          citations: z.array(z.number().int()).describe("numbers of its sources in `citations`"),
          contested_by: z.array(z.object({ atom_id: id, claim: z.string() })),
          tokens: z.number().int(),
        }),
      )
      .optional(),
    citations: z.array(
      z.object({
        n: z.number().int(),
        doc_id: id,
        title: z.string().optional(),
        uri: z.string().optional(),
        locator: z.string().optional().describe("absent: the whole document"),
        quote: z.string().optional(),
      }),
    ),
    budget_tokens: z.number().int().optional(),
    used_tokens: z.number().int().optional().describe("the larger of the block and the concise JSON"),
    tokenizer: z.string().optional(),
    omitted: z.number().int().optional().describe("atoms found but left out for the budget"),
    degraded: z.string().optional(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) => ({ ...(await getContext(services, args as ContextInput, ctx.signal)) }),
  render: (out) => (out as unknown as ContextResult).markdown,
  concise: (out) => conciseContext(out as unknown as ContextResult),
};
