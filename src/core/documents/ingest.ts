/**
 * memory_ingest: `{text}` | `{url, snippet?}` | `{path}` (a file, or a directory of files) → parsed documents →
 * {@link ingestParsed} each, one transaction per document. A directory goes on past a file that fails and reports
 * it; cancellation stops before the next document and leaves no partial one.
 */
import { statSync } from "node:fs";
import type { DocumentKind } from "../../domain/locator.ts";
import type { ProgressFn, ProgressSpan } from "../../domain/progress.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import { sanitizeText } from "../../domain/text.ts";
import { PegasError, invalidInput, toPegasError } from "../../errors.ts";
import {
  type DocumentIngestServices,
  type DocumentResult,
  type IngestCounts,
  ingestParsed,
} from "./ingest-document.ts";
import { DIRECTORY_PHASE_EVERY_MS, DOCUMENT_UNITS, documentPhases, reporterOf, singleSpan } from "./progress.ts";
import type { Services } from "../services.ts";
import {
  type RawSource,
  type SkippedEntry,
  listDirectory,
  rawTextSource,
  readFileSource,
  resolveReadable,
} from "./source.ts";

/** What an ingest runs on: storing a document ({@link DocumentIngestServices}) plus fetching, parsing and listing. */
export type IngestServices = DocumentIngestServices & Pick<Services, "fetcher" | "parse" | "supportedExtensions">;

/** Input of an ingest: exactly one of `text`, `url`, `path`. */
export interface IngestInput {
  text?: string;
  url?: string;
  /** With `url`: text stored instead when the page is blocked or empty (e.g. the search result's snippet). */
  snippet?: string;
  path?: string;
  title?: string;
  kind?: DocumentKind;
}

/** A source of a directory ingest that failed. */
export interface IngestError {
  source: string;
  code: string;
  message: string;
}

/** Outcome: totals over every document, each document's result, and the failures of a directory ingest. */
export interface IngestResult extends IngestCounts {
  /** The document, when exactly one source was ingested (else null). */
  doc_id: number | null;
  uri: string | null;
  version: number | null;
  unchanged: boolean;
  /** Documents, at most {@link MAX_LISTED} (see `documents_total`). */
  documents: DocumentResult[];
  documents_total: number;
  errors: IngestError[];
  /** Entries of a directory that were passed over, at most {@link MAX_LISTED}. */
  skipped: SkippedEntry[];
  took_ms: number;
}

/** Longest list of documents, errors or skipped entries in a result (the totals count everything). */
export const MAX_LISTED = 100;

export type { ProgressFn } from "../../domain/progress.ts";

/**
 * Options: where paths may be read from (the configured roots over MCP, anywhere for the CLI, where the user names
 * the path), cancellation, and progress. `onProgress` hears one strictly increasing count over the whole ingest
 * (domain/progress.ts): {@link DOCUMENT_UNITS} per document, split over its phases, and for a directory one unit for
 * the listing first; `total` is absent until the files are listed (a directory) and never lowered; the last
 * notification has progress = total. `progress` instead reports into a caller's span (the research runner).
 */
export interface IngestOptions {
  trustedPath?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
  /** Least time between two unforced notifications (ms; default 200). */
  progressEveryMs?: number;
  progress?: ProgressSpan;
}

const EMPTY: ParsedDocument = { kind: "web", mediaType: "", title: null, sections: [], metadata: {}, warnings: [] };

/** Raw text from the caller: stored as given (NUL and lone surrogates repaired, with warnings). */
function textDocument(text: string): ParsedDocument {
  const clean = sanitizeText(text, "text");
  return {
    kind: "text",
    mediaType: "text/plain",
    title: null,
    sections: [{ text: clean.text, locator: {} }],
    metadata: {},
    warnings: clean.warnings,
  };
}

async function parseRaw(
  services: Pick<Services, "parse">,
  raw: RawSource,
  signal?: AbortSignal,
  progress?: ProgressSpan,
): Promise<ParsedDocument> {
  if (raw.text !== undefined) return textDocument(raw.text);
  progress?.at(0.5, 1, `parse: ${raw.uri}`, true);
  return services.parse({
    bytes: raw.bytes,
    uri: raw.uri,
    name: raw.name,
    mediaType: raw.mediaType,
    charset: raw.charset,
    signal,
  });
}

/** Fetches a URL; when it fails or is blocked and a snippet was given, the snippet is stored instead. */
async function ingestUrl(
  services: IngestServices,
  input: IngestInput,
  opts: IngestOptions,
  span: ProgressSpan,
): Promise<DocumentResult> {
  let requested: URL;
  try {
    requested = new URL(input.url!);
  } catch {
    throw invalidInput(`url '${input.url!.slice(0, 200)}' is not an absolute URL`, "give an http(s) URL");
  }
  requested.hash = "";
  const uri = requested.href;
  let raw: RawSource;
  try {
    documentPhases(span).parse.start(`parse: fetching ${uri}`);
    const r = await services.fetcher.fetch(uri, opts.signal);
    raw = {
      uri,
      name: r.url,
      bytes: r.bytes,
      mediaType: r.mediaType || undefined,
      charset: r.charset,
      title: input.title,
      metadata: { final_url: r.url, http_status: r.status, fetched_at: new Date().toISOString() },
    };
  } catch (err) {
    const e = toPegasError(err);
    if (!input.snippet?.trim() || !["NETWORK_FAILED", "NOT_FOUND"].includes(e.code)) throw e;
    const raw0: RawSource = {
      uri,
      name: uri,
      bytes: new Uint8Array(),
      title: input.title,
      metadata: { fetch_error: e.message },
    };
    return ingestParsed(
      services,
      raw0,
      { ...EMPTY, warnings: [`fetch failed: ${e.message}`] },
      { signal: opts.signal, progress: span, kind: "web", snippet: input.snippet },
    );
  }
  const parsed = await parseRaw(services, raw, opts.signal, documentPhases(span).parse);
  return ingestParsed(services, raw, parsed, {
    signal: opts.signal,
    progress: span,
    kind: input.kind,
    snippet: input.snippet,
  });
}

async function ingestFile(
  services: IngestServices,
  real: string,
  input: IngestInput,
  opts: IngestOptions,
  span: ProgressSpan,
): Promise<DocumentResult> {
  const phases = documentPhases(span);
  phases.parse.start(`parse: reading ${real}`);
  const raw = readFileSource(real, services.config.max_input_bytes, input.title);
  const parsed = await parseRaw(services, raw, opts.signal, phases.parse);
  return ingestParsed(services, raw, parsed, { signal: opts.signal, progress: span, kind: input.kind });
}

async function ingestPath(
  services: IngestServices,
  input: IngestInput,
  opts: IngestOptions,
): Promise<{ docs: DocumentResult[]; errors: IngestError[]; skipped: SkippedEntry[] }> {
  const roots = opts.trustedPath ? null : services.config.ingest_roots;
  const real = resolveReadable(input.path!, roots);
  if (!statSync(real).isDirectory()) {
    const span = singleSpan(opts);
    const doc = await ingestFile(services, real, input, opts, span);
    span.end(`done: ${real}`);
    return { docs: [doc], errors: [], skipped: [] };
  }
  // A directory: the listing first (no total yet), then one equal part per file.
  const reporter = opts.progress ? null : reporterOf(opts, DIRECTORY_PHASE_EVERY_MS);
  reporter?.report(0, `list: listing ${real}`, true);
  opts.progress?.start(`list: listing ${real}`);
  const { files, skipped } = await listDirectory(real, services.supportedExtensions, roots);
  reporter?.setTotal(1 + files.length * DOCUMENT_UNITS);
  const span = opts.progress ?? reporter!.span(1, 1 + files.length * DOCUMENT_UNITS);
  span.start(`list: ${files.length} file(s) to ingest in ${real}`);
  const docs: DocumentResult[] = [];
  const errors: IngestError[] = [];
  for (const [i, file] of files.entries()) {
    if (opts.signal?.aborted)
      throw new PegasError(
        "CANCELLED",
        `ingest cancelled after ${i} of ${files.length} files; each stored file is whole`,
      );
    const part = span.part(i, files.length);
    try {
      docs.push(await ingestFile(services, file, { kind: input.kind }, opts, part));
    } catch (err) {
      const e = toPegasError(err);
      if (e.code === "CANCELLED") throw e;
      errors.push({ source: file, code: e.code, message: e.userMessage });
    }
    part.end(`file ${i + 1} of ${files.length} done: ${file}`);
  }
  span.end(`done: ${docs.length} of ${files.length} file(s) ingested`);
  return { docs, errors, skipped };
}

function summarize(
  docs: DocumentResult[],
  errors: IngestError[],
  started: number,
  skipped: SkippedEntry[] = [],
): IngestResult {
  const sum = (k: keyof DocumentResult) => docs.reduce((n, d) => n + (d[k] as number), 0);
  const one = docs.length === 1 && errors.length === 0 ? docs[0] : null;
  return {
    doc_id: one?.doc_id ?? null,
    uri: one?.uri ?? null,
    version: one ? one.version : null,
    unchanged: docs.length > 0 && docs.every((d) => d.unchanged),
    documents: docs.slice(0, MAX_LISTED),
    documents_total: docs.length,
    errors: errors.slice(0, MAX_LISTED),
    skipped: skipped.slice(0, MAX_LISTED),
    chunks: sum("chunks"),
    atoms_distilled: sum("atoms_distilled"),
    atoms_created: sum("atoms_created"),
    atoms_existing: sum("atoms_existing"),
    atoms_near_duplicate: sum("atoms_near_duplicate"),
    atoms_contradicting: sum("atoms_contradicting"),
    citations_added: sum("citations_added"),
    links_added: sum("links_added"),
    atoms_staled: sum("atoms_staled"),
    atoms_revived: sum("atoms_revived"),
    chunks_quarantined: sum("chunks_quarantined"),
    warnings: docs
      .flatMap((d) => (docs.length > 1 ? d.warnings.map((w) => `${d.uri}: ${w}`) : d.warnings))
      .slice(0, MAX_LISTED),
    took_ms: Math.round(performance.now() - started),
  };
}

/**
 * Ingests one source. @throws PegasError INVALID_INPUT, NOT_FOUND, UNSUPPORTED_MEDIA, LIMIT_EXCEEDED,
 * NETWORK_FAILED, CANCELLED, LLM_FAILED, STORE_UNAVAILABLE; a document is stored whole or not at all.
 */
export async function ingest(
  services: IngestServices,
  input: IngestInput,
  opts: IngestOptions = {},
): Promise<IngestResult> {
  const started = performance.now();
  const given = [input.text, input.path, input.url].filter((x) => x !== undefined);
  if (given.length !== 1) throw invalidInput("give exactly one of text, path or url");
  if (input.snippet !== undefined && input.url === undefined) throw invalidInput("snippet goes with url");
  if (input.url !== undefined) {
    const span = singleSpan(opts);
    const doc = await ingestUrl(services, input, opts, span);
    span.end(`done: ${doc.uri}`);
    return summarize([doc], [], started);
  }
  if (input.path !== undefined) {
    const { docs, errors, skipped } = await ingestPath(services, input, opts);
    return summarize(docs, errors, started, skipped);
  }
  const raw = rawTextSource(input.text!, { maxBytes: services.config.max_input_bytes, title: input.title });
  const span = singleSpan(opts);
  const parsed = await parseRaw(services, raw, opts.signal);
  documentPhases(span).parse.end(`parse: ${raw.uri}`);
  const doc = await ingestParsed(services, raw, parsed, { signal: opts.signal, progress: span, kind: input.kind });
  span.end(`done: ${doc.uri}`);
  return summarize([doc], [], started);
}
