/** memory_search tool. */
import { z } from "zod";
import { HIT_CITATIONS, HIT_CONTENT_CHARS, type SearchResult, search } from "../../../core/search/search.ts";
import { atomStatus, atomType, citation, id, readTime, responseFormat, searchableStatus } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { packSearch, prepareSearchCounter, SEARCH_TOKENS } from "./search-render.ts";

/** Hybrid search over atoms with citations. */
export const memorySearch: ToolDef = {
  name: "memory_search",
  title: "Search memory",
  description: "Find cited knowledge atoms (any language); `x < 2 s` filters by value.",
  details:
    "Hybrid search over stored knowledge atoms: BM25 over PostgreSQL full-text lexemes (Russian and English stemming, " +
    "trigram fallback for typos) fused by reciprocal rank fusion with vector kNN. Stale atoms (their source changed) " +
    "and superseded ones only when `status` asks for them (superseded ones also at `valid_at`/`known_at`); retracted never. " +
    "Each hit: atom id, type, claim, a snippet (query terms in bold) and numbered citations, within max_tokens; " +
    `response_format detailed adds content (up to ${HIT_CONTENT_CHARS} characters), scores, ranks and up to ` +
    `${HIT_CITATIONS} citations with quotes, for programs: its structured content holds every hit of the page ` +
    "(max_tokens bounds the text and the concise answer only). " +
    "Pass next_cursor back as cursor, with the same query and filters, for the next page. " +
    "A comparison with a value and a unit in the query (`cold start < 1.5 s`, `heap >= 512 MiB`, `latency between 1 and 2 s`, " +
    "«время запуска меньше 200 мс», «от 1 до 2 с») returns the atoms whose stored measurement lies in that range in any unit " +
    "of the dimension, ranked by the query's other words against what was measured (docs/quantities.md).",
  fieldDetails: {
    query: "what to look for, in any language; may hold one measurement filter (`startup < 200 ms`)",
    k: "hits per page, default 10",
    cursor: "the last answer's next_cursor",
    types: "only these atom types",
    doc_id: "only atoms of these documents",
    mode: "hybrid (default), lexical only (exact words), vector only",
    valid_at: "what was true then (ISO 8601)",
    known_at: "what memory knew then (ISO 8601)",
  },
  inputSchema: {
    query: z.string().min(1).max(4000),
    k: z.number().int().min(1).max(50).optional(),
    types: z.array(atomType).optional(),
    status: z.array(searchableStatus).optional().describe("default: current ones"),
    doc_id: z.union([id, z.array(id)]).optional(),
    cursor: z.string().optional(),
    mode: z.enum(["hybrid", "lexical", "vector"]).optional(),
    valid_at: readTime.optional(),
    known_at: readTime.optional(),
    max_tokens: z
      .number()
      .int()
      .min(SEARCH_TOKENS.min)
      .max(SEARCH_TOKENS.max)
      .optional()
      .describe(`size cap; default ${SEARCH_TOKENS.default}`),
    response_format: responseFormat,
  },
  outputSchema: {
    query: z.string().optional(),
    hits: z.array(
      z.object({
        atom_id: id,
        type: atomType,
        status: atomStatus.optional().describe("concise: only when not candidate"),
        claim: z.string(),
        snippet: z.string().optional().describe("its sentences that match best, query terms in **bold**"),
        cited: z
          .array(z.object({ n: z.number().int(), locator: z.string().optional() }))
          .optional()
          .describe("concise: its sources by number, with locators"),
        more_citations: z.number().int().optional(),
        content: z.string().optional(),
        content_truncated: z.boolean().optional(),
        confidence: z.number().optional(),
        lang: z.string().optional(),
        doc_id: id.nullable().optional(),
        score: z.number().optional().describe("weighted reciprocal rank fusion score"),
        ranks: z
          .object({
            lexical: z.number().int().optional(),
            vector: z.number().int().optional(),
            dated: z.number().int().optional(),
          })
          .optional(),
        citations: z.array(citation).optional(),
        citation_count: z.number().int().optional(),
      }),
    ),
    sources: z
      .array(z.object({ n: z.number().int(), doc_id: id, title: z.string().optional(), uri: z.string() }))
      .optional(),
    next_cursor: z.string().nullable().optional(),
    lexical_fallback: z
      .boolean()
      .optional()
      .describe("true when trigram matches were added because full-text search found too little"),
    degraded: z
      .string()
      .optional()
      .describe(
        "present when a configured engine was down: who answered instead (the embedded index, or the lexical leg alone)",
      ),
    took_ms: z.number().optional(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) => {
    const out = await search(services, args, ctx.signal);
    await prepareSearchCounter(out, args);
    return { ...out };
  },
  render: (out, args) => packSearch(out as unknown as SearchResult, args).text,
  concise: (out, args) => packSearch(out as unknown as SearchResult, args).concise,
};
