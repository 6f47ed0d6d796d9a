/** memory_trace_search tool. */
import { z } from "zod";
import {
  MAX_SESSION_CHARS,
  MAX_TRACE_LIMIT,
  MAX_TRACE_QUERY_CHARS,
  TRACE_HIT_CHARS,
  TRACE_KINDS,
  searchTraces,
} from "../../../core/traces/traces.ts";
import { id, responseFormat } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { withoutNulls } from "../../render.ts";
import { conciseTraceSearch, renderTraceSearch } from "./render.ts";

const traceKind = z.enum(TRACE_KINDS);

/** Search the agent's episodic traces. */
export const memoryTraceSearch: ToolDef = {
  name: "memory_trace_search",
  title: "Search traces",
  description: "Search your recorded traces (any language), or list the newest without a query.",
  details:
    "Search your own episodic traces (recorded with memory_trace_add), never knowledge atoms: use it to recall what you " +
    'planned, did, observed or concluded in earlier steps or runs ("did I already try X?", "what failed last time?"). ' +
    'Full-text search with Russian and English stemming (websearch syntax: "exact phrase", or, -word), ranked, newest ' +
    "first on ties; when nothing matches, a trigram fallback for typos (match = trigram). Omit `query` to list the newest " +
    "traces. Filter by session, kind and since (ISO 8601, e.g. 2024-05-01 or 2024-05-01T12:00:00Z). " +
    `Content is cut to ${TRACE_HIT_CHARS} characters (truncated = true). Pass next_cursor back as cursor, with the same ` +
    "query and filters, for the next page.",
  fieldDetails: {
    query: "words to look for, any language; omit to list the newest traces",
    session: "only traces of this session",
    kind: "only traces of this kind (or these kinds)",
    limit: "hits per page, default 10, at most 100",
  },
  inputSchema: {
    query: z.string().max(MAX_TRACE_QUERY_CHARS).optional(),
    session: z.string().min(1).max(MAX_SESSION_CHARS).optional(),
    kind: z.union([traceKind, z.array(traceKind).min(1)]).optional(),
    since: z.string().optional().describe("ISO 8601"),
    limit: z.number().int().min(1).max(MAX_TRACE_LIMIT).optional(),
    cursor: z.string().optional().describe("next_cursor of the last page"),
    response_format: responseFormat,
  },
  outputSchema: {
    query: z.string(),
    match: z
      .enum(["fulltext", "trigram", "recent"])
      .describe("how hits were found: full-text, trigram fallback, or newest first (no query)"),
    hits: z.array(
      z.object({
        trace_id: id,
        kind: traceKind,
        session: z.string().optional(),
        content: z.string(),
        truncated: z.boolean(),
        content_chars: z.number().int().describe("length of the whole content in code points"),
        metadata: z.record(z.string(), z.unknown()).optional(),
        created_at: z.string().describe("ISO 8601 UTC"),
        score: z.number().optional().describe("ts_rank_cd (fulltext), word similarity 0..1 (trigram), 0 (recent)"),
      }),
    ),
    next_cursor: z.string().optional().describe("absent on the last page"),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const r = await searchTraces(services, args);
    return {
      query: r.query,
      match: r.match,
      hits: r.hits.map((h) => withoutNulls({ ...h })),
      ...(r.next_cursor !== null ? { next_cursor: r.next_cursor } : {}),
    };
  },
  render: renderTraceSearch,
  concise: conciseTraceSearch,
};
