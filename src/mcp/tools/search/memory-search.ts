/** memory_search tool. */
import { z } from "zod";
import { HIT_CITATIONS, HIT_CONTENT_CHARS, search } from "../../../core/search/search.ts";
import { atomStatus, atomType, citation, id, searchableStatus } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";

/** Hybrid search over atoms with citations. */
export const memorySearch: ToolDef = {
  name: "memory_search",
  title: "Search memory",
  description: "Find stored knowledge atoms with citations, in any language (Russian and English are stemmed).",
  details:
    "Hybrid search over stored knowledge atoms: BM25 over PostgreSQL full-text lexemes (Russian and English stemming, " +
    "trigram fallback for typos) fused by reciprocal rank fusion with vector kNN. Stale atoms (their source changed) " +
    "only when `status` asks for them; retracted atoms never. " +
    `Each hit has its atom (content cut to ${HIT_CONTENT_CHARS} characters), fused score, ` +
    `rank per leg and up to ${HIT_CITATIONS} citations (document uri/title, locator with lines, quote). ` +
    "Pass next_cursor back as cursor, with the same query and filters, for the next page.",
  fieldDetails: {
    query: "what to look for, in any language",
    k: "hits per page, default 10",
    types: "only these atom types",
    doc_id: "only atoms of these documents",
    mode: "hybrid (default), lexical only (exact words), vector only",
  },
  inputSchema: {
    query: z.string().min(1).max(4000),
    k: z.number().int().min(1).max(50).optional(),
    types: z.array(atomType).optional(),
    status: z.array(searchableStatus).optional().describe("default all but stale"),
    doc_id: z.union([id, z.array(id)]).optional(),
    cursor: z.string().optional().describe("next_cursor of the last page"),
    mode: z.enum(["hybrid", "lexical", "vector"]).optional(),
  },
  outputSchema: {
    query: z.string(),
    hits: z.array(
      z.object({
        atom_id: id,
        type: atomType,
        status: atomStatus,
        claim: z.string(),
        content: z.string(),
        content_truncated: z.boolean(),
        confidence: z.number(),
        lang: z.string(),
        doc_id: id.nullable(),
        score: z.number().describe("weighted reciprocal rank fusion score"),
        ranks: z.object({ lexical: z.number().int().optional(), vector: z.number().int().optional() }),
        citations: z.array(citation),
        citation_count: z.number().int(),
      }),
    ),
    next_cursor: z.string().nullable(),
    lexical_fallback: z
      .boolean()
      .describe("true when trigram matches were added because full-text search found too little"),
    degraded: z
      .string()
      .optional()
      .describe(
        "present when a configured engine was down: who answered instead (the embedded index, or the lexical leg alone)",
      ),
    took_ms: z.number(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) => ({ ...(await search(services, args, ctx.signal)) }),
};
