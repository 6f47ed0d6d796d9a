/** memory_ingest tool. */
import { z } from "zod";
import { ingest } from "../../core/ingest.ts";
import { id } from "../schemas.ts";
import type { ToolDef } from "../tool.ts";

/** Ingest text or a file into documents, chunks and atoms. */
export const memoryIngest: ToolDef = {
  name: "memory_ingest",
  title: "Ingest a source",
  description:
    "Ingest a source into memory: exactly one of `text` (raw text) or `path` (a UTF-8 text or Markdown file inside " +
    "the server's PEGAS_INGEST_ROOTS). It becomes a document version, chunks with locators (lines, characters) and " +
    "one cited text atom per chunk, deduplicated; all in one transaction. Re-ingesting unchanged content changes " +
    "nothing (unchanged=true). Sends progress notifications; cancellation stores nothing.",
  inputSchema: {
    text: z.string().optional().describe("raw text to ingest"),
    path: z.string().optional().describe("file path (absolute, or relative to the server's working directory)"),
    url: z.string().optional().describe("not available in this version: fetch the page and pass its text"),
    title: z.string().max(500).optional().describe("document title; default: the first sentence"),
  },
  outputSchema: {
    doc_id: id,
    uri: z.string(),
    version: z.number().int(),
    unchanged: z.boolean(),
    bytes: z.number().int(),
    chunks: z.number().int(),
    atoms_created: z.number().int(),
    atoms_existing: z.number().int(),
    atoms_near_duplicate: z.number().int(),
    citations_added: z.number().int(),
    atoms_staled: z.number().int().describe("atoms of the previous version that this one no longer contains"),
    atoms_revived: z.number().int().describe("stale atoms that this version contains again"),
    warnings: z.array(z.string()),
    took_ms: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) =>
    ({ ...(await ingest(services, args, { signal: ctx.signal, onProgress: (p, t, m) => ctx.progress(p, t, m) })) }),
};
