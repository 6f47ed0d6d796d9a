/** memory_ingest tool. */
import { z } from "zod";
import { ingest, ingestJobs, startIngestJob } from "../../../core/documents/ingest.ts";
import { IngestTally } from "../../../core/documents/tally.ts";
import { invalidInput } from "../../../errors.ts";
import { id, responseFormat } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { conciseIngest, renderIngest } from "./render-writes.ts";

const documentKind = z.enum(["web", "pdf", "epub", "text", "code_repo"]);
const counts = {
  chunks: z.number().int(),
  atoms_distilled: z
    .number()
    .int()
    .describe(
      "atoms planned: one passage per chunk plus the distiller's typed atoms whose quote is in the chunk (= created + existing + near-duplicate)",
    ),
  atoms_created: z.number().int(),
  atoms_existing: z
    .number()
    .int()
    .describe("distilled atoms that already existed (same type and content): a citation was added"),
  atoms_near_duplicate: z
    .number()
    .int()
    .describe("distilled atoms merged into a stored atom of the same meaning (undoable)"),
  atoms_contradicting: z
    .number()
    .int()
    .describe(
      "new atoms linked `contradicts` to a stored one (negation or another number/date); memory_verify settles them",
    ),
  atoms_superseded: z.number().int().describe("atoms a newer statement superseded (memory_get shows by which)"),
  citations_added: z.number().int(),
  links_added: z
    .number()
    .int()
    .describe("atom links written (between atoms of a chunk, contradictions, related atoms)"),
  chunks_quarantined: z
    .number()
    .int()
    .describe("chunks the distiller failed on: recorded for a retry, none of their atoms stored"),
  atoms_staled: z.number().int().describe("atoms of the previous version that this one no longer contains"),
  atoms_revived: z.number().int().describe("stale atoms that this version contains again"),
  warnings: z.array(z.string()),
};

/** The counts of one document: absent from the concise answer but for atoms_created. */
const optionalCounts = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v.optional()]));

/** Ingest text, a URL, a file or a directory into documents, chunks and atoms. */
export const memoryIngest: ToolDef = {
  name: "memory_ingest",
  title: "Ingest a source",
  description:
    "Store a text, URL, file or directory (Markdown, HTML, PDF, EPUB) as cited atoms; give one of text, url, path.",
  details:
    "Ingest a source into memory: exactly one of `text` (raw text), `url` (an http(s) page, PDF or EPUB; give " +
    "`snippet`, e.g. the search result's text, to be stored if the page is blocked or empty), or `path` (a text, " +
    "Markdown, HTML, PDF or EPUB file, or a directory of them, inside the server's PEGAS_INGEST_ROOTS). Each " +
    "document becomes a version with chunks (the evidence) and typed knowledge atoms distilled from them " +
    "(text, definition, fact, table, code, logical_rule), each citing its verbatim quote with a locator (page for " +
    "PDFs, chapter for EPUBs, lines and characters), deduplicated by meaning (a negated claim or another number is " +
    "kept and linked `contradicts`, never merged), in one transaction. Unchanged content changes nothing; " +
    "text that cannot be extracted (a scanned PDF, a cookie wall) is reported in warnings, never stored as empty. " +
    "Atoms keep `observed_at` (else the document's own date or fetch time) and dates from their text. " +
    "Sends progress notifications; cancellation leaves no partial document. With `background: true` the call " +
    "answers at once with a job (id, state); `{job: id}` then answers its state and progress, and once it is done its " +
    "result. A job does not stop when the client's request times out or its connection drops; it lives in the " +
    "server process (finished jobs for an hour), and a job cut short is resumed by the same ingest (stored files are " +
    "skipped).",
  fieldDetails: {
    observed_at: "when the source said it, ISO 8601",
    text: "raw text to ingest",
    url: "http(s) URL to fetch",
    title: "document title; default: the document's own or its first line",
    kind: "document kind, if not the parser's (web, pdf, epub, text)",
  },
  inputSchema: {
    text: z.string().optional(),
    url: z.string().optional(),
    snippet: z.string().max(20_000).optional().describe("stored if the url cannot be read"),
    path: z.string().optional().describe("file or directory"),
    title: z.string().max(500).optional(),
    kind: documentKind.optional(),
    observed_at: z.string().optional(),
    background: z.boolean().optional().describe("answer at once with a job id; long ingests"),
    job: z.string().max(100).optional().describe("a job's id: its state, then its result"),
    response_format: responseFormat,
  },
  outputSchema: {
    doc_id: id.nullable().describe("the document, when one source was ingested"),
    uri: z.string().nullable(),
    version: z.number().int().nullable(),
    unchanged: z.boolean(),
    ...counts,
    documents: z.array(
      z.object({
        doc_id: id.nullable(),
        uri: z.string(),
        kind: documentKind,
        title: z.string().nullable(),
        version: z.number().int(),
        stored: z.boolean().describe("false when no text could be extracted (see warnings)"),
        unchanged: z.boolean(),
        snippet: z.boolean().optional().describe("true when the caller's snippet was stored instead of the page"),
        sections: z.number().int().optional().describe("pages, chapters or 1"),
        merges: z
          .array(z.object({ merge_id: id, kept_atom_id: id, absorbed_atom_id: id }))
          .optional()
          .describe("near-duplicate merges of this document (at most 20); memory_unmerge undoes one"),
        ...optionalCounts,
      }),
    ),
    documents_total: z.number().int().describe("documents ingested (the list shows at most 100)"),
    errors: z
      .array(z.object({ source: z.string(), code: z.string(), message: z.string() }))
      .describe("files of a directory that failed (at most 100)"),
    skipped: z
      .array(z.object({ source: z.string(), reason: z.string() }))
      .describe("directory entries passed over (hidden, unsupported, outside the roots…; at most 100)"),
    errors_total: z.number().int().optional().describe("concise: failed files in all"),
    skipped_total: z.number().int().optional().describe("concise: skipped entries in all"),
    took_ms: z.number(),
    job: z
      .object({
        id: z.string(),
        state: z.enum(["running", "done", "failed"]),
        progress: z.number(),
        total: z.number().nullable(),
        message: z.string(),
        started_at: z.string(),
        finished_at: z.string().nullable(),
        error: z.object({ code: z.string(), message: z.string() }).nullable(),
      })
      .optional()
      .describe("the background job (`background` or `job` given): the counts are its result once done, else 0"),
  },
  // Not idempotent: the same URL or file can have changed and then makes a new version.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (services, args, ctx) => {
    const { background, job, response_format: _, ...input } = args;
    const none = () => IngestTally.empty();
    if (job !== undefined) {
      if (Object.values(input).some((v) => v !== undefined) || background)
        throw invalidInput("job goes alone: it reads a job that memory_ingest {background: true} started");
      const read = ingestJobs.get(job);
      return { ...(read.result ?? none()), job: read.job };
    }
    if (background) return { ...none(), job: startIngestJob(services, input) };
    return {
      ...(await ingest(services, input, { signal: ctx.signal, onProgress: (p, t, m) => ctx.progress(p, t, m) })),
    };
  },
  render: renderIngest,
  concise: conciseIngest,
};
