/**
 * memory_ingest: `{text}` | `{url, snippet?}` | `{path}` (a file, or a directory of files) → parsed documents →
 * {@link ingestParsed} each, one transaction per document. A URL is fetched only when its site's robots.txt allows it
 * (robots-txt.ts; `respect_robots`). A directory goes on past a file that fails and reports
 * it; cancellation stops before the next document and leaves no partial one.
 */
import { statSync } from "node:fs";
import type { DocumentKind } from "../../domain/locator.ts";
import type { ProgressFn, ProgressSpan } from "../../domain/progress.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import { invalidInput, toPegasError } from "../../errors.ts";
import {
  type DocumentIngestServices,
  type DocumentResult,
  ingestParsed,
  type PreparedDocument,
  prepareParsed,
  storePrepared,
} from "./ingest-document.ts";
import { checkObservedAt } from "../knowledge/atom-time.ts";
import { documentPhases, singleSpan } from "./progress.ts";
import type { Services } from "../services.ts";
import { fetchedSource, parseRaw } from "./parse-source.ts";
import { checkRobotsForIngest } from "./robots-txt.ts";
import { type RawSource, rawTextSource, readFileSource, resolveReadable } from "./source.ts";
import { type DirectoryJob, ingestDirectory } from "./directory.ts";
import { type IngestResult, IngestTally } from "./tally.ts";
import { JobRegistry, type JobState } from "./jobs.ts";

/** What an ingest runs on: storing a document ({@link DocumentIngestServices}) plus fetching, parsing and listing. */
export type IngestServices = DocumentIngestServices &
  Pick<Services, "fetcher" | "parse" | "supportedExtensions" | "freshness">;

/** Input of an ingest: exactly one of `text`, `url`, `path`. */
export interface IngestInput {
  text?: string;
  url?: string;
  /** With `url`: text stored instead when the page is blocked or empty (e.g. the search result's snippet). */
  snippet?: string;
  path?: string;
  title?: string;
  kind?: DocumentKind;
  /** When the source said it (ISO 8601); wins over the document's own date. */
  observed_at?: string;
}

export { type IngestError, type IngestResult, MAX_LISTED } from "./tally.ts";

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
  /** Internal (tests): chunk text per part of a large document (ingest-parts.ts PART_CHARS). */
  partChars?: number;
}

const EMPTY: ParsedDocument = { kind: "web", mediaType: "", title: null, sections: [], metadata: {}, warnings: [] };

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
    await checkRobotsForIngest(services, requested, opts.signal);
    raw = fetchedSource(uri, await services.fetcher.fetch(uri, opts.signal), input.title);
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
      {
        signal: opts.signal,
        progress: span,
        kind: "web",
        snippet: input.snippet,
        observedAt: checkObservedAt(input.observed_at),
      },
    );
  }
  const parsed = await parseRaw(services, raw, opts.signal, documentPhases(span).parse);
  const out = await ingestParsed(services, raw, parsed, {
    signal: opts.signal,
    progress: span,
    kind: input.kind,
    snippet: input.snippet,
    observedAt: checkObservedAt(input.observed_at),
  });
  // The page answered: if a refresh had found it gone, it is back, and its atoms lose the gone flag (a changed text
  // clears the document's mark in the new version's write, not the flags of the atoms it still holds).
  if (out.stored && !out.snippet && typeof out.doc_id === "number") await services.freshness.markBack(out.doc_id);
  return out;
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
  return ingestParsed(services, raw, parsed, {
    signal: opts.signal,
    progress: span,
    kind: input.kind,
    observedAt: checkObservedAt(input.observed_at),
    partChars: opts.partChars,
  });
}

/** A directory's file up to its store: read, parsed, distilled and embedded (see directory.ts). */
async function prepareFile(
  services: IngestServices,
  real: string,
  input: Pick<IngestInput, "kind" | "observed_at">,
  opts: IngestOptions,
  span: ProgressSpan,
): Promise<DocumentResult | PreparedDocument> {
  const phases = documentPhases(span);
  phases.parse.start(`parse: reading ${real}`);
  const raw = readFileSource(real, services.config.max_input_bytes);
  const parsed = await parseRaw(services, raw, opts.signal, phases.parse);
  return prepareParsed(services, raw, parsed, {
    signal: opts.signal,
    progress: span,
    kind: input.kind,
    observedAt: checkObservedAt(input.observed_at),
  });
}

async function ingestPath(services: IngestServices, input: IngestInput, opts: IngestOptions, started: number) {
  const roots = opts.trustedPath ? null : services.config.ingest_roots;
  const real = resolveReadable(input.path!, roots);
  if (!statSync(real).isDirectory()) {
    const span = singleSpan(opts);
    const doc = await ingestFile(services, real, input, opts, span);
    span.end(`done: ${real}`);
    return IngestTally.of(doc, started);
  }
  const job: DirectoryJob = {
    dir: real,
    supported: services.supportedExtensions,
    roots,
    maxFiles: services.config.max_directory_files,
    prepareFile: (file, span) => prepareFile(services, file, input, opts, span),
    storeBatch: (docs, signal) => storePrepared(services, docs, signal),
  };
  return ingestDirectory(job, opts, started);
}

function checkInput(input: IngestInput): void {
  const given = [input.text, input.path, input.url].filter((x) => x !== undefined);
  if (given.length !== 1) throw invalidInput("give exactly one of text, path or url");
  // An empty path would resolve to the working directory and ingest all of it.
  if (input.path !== undefined && !input.path.trim()) throw invalidInput("path is empty", "give a file or directory");
  if (input.snippet !== undefined && input.url === undefined) throw invalidInput("snippet goes with url");
  checkObservedAt(input.observed_at);
}

/** The background ingest jobs of this process (memory_ingest `{background: true}`, read back by `{job}`). */
export const ingestJobs = new JobRegistry<IngestResult>();

/**
 * Starts {@link ingest} as a background job (jobs.ts) and returns its first state at once; progress and the result
 * are read with `ingestJobs.get(id)`. @throws PegasError INVALID_INPUT for input that no ingest could take, or a
 * path outside the ingest roots or hidden, NOT_FOUND for a path that does not exist (checked before the job starts,
 * so that the caller learns it from this call); every later error ends the job as "failed".
 */
export function startIngestJob(
  services: IngestServices,
  input: IngestInput,
  opts: Pick<IngestOptions, "trustedPath"> = {},
): JobState {
  checkInput(input);
  if (input.path !== undefined) resolveReadable(input.path, opts.trustedPath ? null : services.config.ingest_roots);
  return ingestJobs.start((onProgress) => ingest(services, input, { ...opts, onProgress }));
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
  checkInput(input);
  if (input.url !== undefined) {
    const span = singleSpan(opts);
    const doc = await ingestUrl(services, input, opts, span);
    span.end(`done: ${doc.uri}`);
    return IngestTally.of(doc, started);
  }
  if (input.path !== undefined) return ingestPath(services, input, opts, started);
  const raw = rawTextSource(input.text!, { maxBytes: services.config.max_input_bytes, title: input.title });
  const span = singleSpan(opts);
  const parsed = await parseRaw(services, raw, opts.signal);
  documentPhases(span).parse.end(`parse: ${raw.uri}`);
  const doc = await ingestParsed(services, raw, parsed, {
    signal: opts.signal,
    progress: span,
    kind: input.kind,
    observedAt: checkObservedAt(input.observed_at),
    partChars: opts.partChars,
  });
  span.end(`done: ${doc.uri}`);
  return IngestTally.of(doc, started);
}
