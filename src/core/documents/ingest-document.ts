/**
 * Ingest of one document: parsed sections → chunks with locators (page / chapter + lines and characters within
 * the section) → typed atoms from the configured distiller, each citing its quote (core/documents/distill.ts) → embeddings →
 * dedup that respects meaning (core/knowledge/dedup.ts) → one transaction (chunks, atoms, citations, merges, links, quarantined
 * chunks). A document of more than 2 × PART_CHARS characters of chunk text is read and written part by part inside that one
 * transaction (ingest-parts.ts). An unchanged document (same extracted text) is detected before any distillation and
 * changes nothing.
 */
import { authorityFor } from "../../domain/authority.ts";
import { sha256Hex } from "../../domain/hash.ts";
import type { ProgressSpan } from "../../domain/progress.ts";
import { detectLang, firstSentence, sanitizeText } from "../../domain/text.ts";
import { PegasError } from "../../errors.ts";
import type { DocumentKind } from "../../domain/locator.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import { distillChunks, refuseWordless } from "./distill.ts";
import { documentObservedAt } from "./document-time.ts";
import { chunkSections } from "./plan.ts";
import { type DocumentHead, ingestInParts, writtenInParts } from "./ingest-parts.ts";
import { embedAll } from "./embed.ts";
import type { DocumentInput } from "../../ports/store/ingest.ts";
import { documentPhases } from "./progress.ts";
import type { RawSource } from "./source.ts";
import {
  type DocumentIngestServices,
  type DocumentResult,
  type PreparedDocument,
  storePrepared,
  ZERO,
} from "./store-documents.ts";

export {
  type DocumentIngestServices,
  type DocumentResult,
  type IngestCounts,
  MAX_MERGES_LISTED,
  type PreparedDocument,
  storePrepared,
} from "./store-documents.ts";

/** Per-document options. */
export interface DocumentOptions {
  signal?: AbortSignal;
  /** The document's slice of the run's progress, split into DOCUMENT_PHASES (progress.ts) (none: no progress). */
  progress?: ProgressSpan;
  /** Document kind forced by the caller (else the parser's). */
  kind?: DocumentKind;
  /** Text stored instead when the source yields no text (a blocked page); the document is marked a snippet. */
  snippet?: string;
  /** When the source said it, given by the caller (else the document's own date, document-time.ts). */
  observedAt?: Date;
  /**
   * Internal: chunk text per part (UTF-16 code units; default PART_CHARS of ingest-parts.ts); a document of more
   * than two parts' text is written in parts. Tests set it small.
   */
  partChars?: number;
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", "ingest cancelled; nothing of this document was stored");
}

/** The first non-empty line when it is short enough to be a heading, else the first sentence (≤ 120 chars). */
function defaultTitle(text: string): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim())
      ?.trim() ?? "";
  return line && line.length <= 120 ? line : firstSentence(text, 120);
}

/** Replaces an empty extraction by the caller's snippet, when one was given. */
function withSnippet(
  parsed: ParsedDocument,
  snippet: string | undefined,
): { parsed: ParsedDocument; snippet: boolean } {
  if (parsed.sections.some((s) => s.text.trim()) || !snippet?.trim()) return { parsed, snippet: false };
  const text = sanitizeText(snippet, "snippet");
  const warnings = [...parsed.warnings, ...text.warnings, "stored the snippet given by the caller instead of the page"];
  return {
    parsed: {
      ...parsed,
      kind: "web",
      sections: [{ text: text.text.trim(), locator: {} }],
      warnings,
      metadata: { ...parsed.metadata, snippet: true },
    },
    snippet: true,
  };
}

function emptyResult(raw: RawSource, parsed: ParsedDocument, kind: DocumentKind): DocumentResult {
  const warnings = parsed.warnings.length ? parsed.warnings : ["no text could be extracted"];
  return {
    doc_id: null,
    uri: raw.uri,
    kind,
    title: parsed.title,
    version: 0,
    stored: false,
    unchanged: false,
    snippet: false,
    sections: 0,
    ...ZERO,
    merges: [],
    warnings,
  };
}

/**
 * Reads one parsed document up to its chunks: resolves to a final result when there is nothing to store (no text, or
 * the stored version has this content). @throws PegasError INVALID_INPUT (a text without a letter or digit),
 * STORE_UNAVAILABLE.
 */
export async function headOf(
  services: DocumentIngestServices,
  raw: RawSource,
  parsedIn: ParsedDocument,
  opts: DocumentOptions,
): Promise<DocumentResult | DocumentHead> {
  const { parsed, snippet } = withSnippet(parsedIn, opts.snippet);
  const kind = opts.kind ?? parsed.kind;
  const chunks = chunkSections(parsed, services.config.chunk_chars);
  if (!chunks.length) return emptyResult(raw, parsed, kind);
  refuseWordless(raw.uri, chunks);
  const contentHash = sha256Hex(parsed.sections.map((s) => s.text).join("\f"));
  const base = { uri: raw.uri, kind, snippet, sections: parsed.sections.length, warnings: parsed.warnings };
  const known = await services.ingestWrites.documentByUri(raw.uri);
  if (known?.contentHash === contentHash) {
    return {
      ...base,
      doc_id: known.id,
      title: known.title,
      version: known.version,
      stored: true,
      unchanged: true,
      ...ZERO,
      merges: [],
    };
  }
  const given = sanitizeText(raw.title ?? parsed.title ?? "", "title").text.trim();
  const title = given || defaultTitle(parsed.sections[0].text);
  return { parsed, kind, base, chunks, contentHash, title, given: given !== "" };
}

/** The document row of a version (its metadata from the source and the parser) and when it said what it says. */
export function documentOf(
  services: DocumentIngestServices,
  raw: RawSource,
  head: DocumentHead,
  opts: DocumentOptions,
): { document: DocumentInput; observedAt?: Date } {
  const { parsed, kind } = head;
  const observedAt = documentObservedAt(opts.observedAt, parsed.metadata, raw.metadata);
  const document = {
    kind,
    uri: raw.uri,
    title: head.title,
    contentHash: head.contentHash,
    byteSize: raw.bytes.byteLength,
    authority: authorityFor({ kind, uri: raw.uri, snippet: head.base.snippet }, services.config.authority_rules),
    metadata: {
      ...raw.metadata,
      ...parsed.metadata,
      media_type: parsed.mediaType,
      lang: detectLang(parsed.sections[0].text),
      ...(head.given ? {} : { title_from_text: true }), // not a title to search by (migration 0013)
      ...(observedAt ? { observed_at: observedAt.toISOString() } : {}),
    },
  };
  return { document, observedAt };
}

/**
 * Reads one parsed document up to its plan's inputs: chunks, distilled drafts and their vectors, reporting the distill
 * and embed phases into `opts.progress`. Resolves to a final result when there is nothing to store (no text, or the
 * stored version has this content). @throws PegasError INVALID_INPUT (a text without a letter or digit), CANCELLED,
 * LLM_FAILED (embedding), STORE_UNAVAILABLE.
 */
export async function prepareParsed(
  services: DocumentIngestServices,
  raw: RawSource,
  parsedIn: ParsedDocument,
  opts: DocumentOptions,
): Promise<DocumentResult | PreparedDocument> {
  const head = await headOf(services, raw, parsedIn, opts);
  return "contentHash" in head ? prepareHead(services, raw, head, opts) : head;
}

/** {@link prepareParsed} from a document's head. */
async function prepareHead(
  services: DocumentIngestServices,
  raw: RawSource,
  head: DocumentHead,
  opts: DocumentOptions,
): Promise<PreparedDocument> {
  const { chunks, title } = head;
  const phases = documentPhases(opts.progress);
  phases.distill.start(`distill: ${chunks.length} chunks of ${raw.uri}`);
  const distilled = await distillChunks(services.distiller, chunks, {
    title,
    signal: opts.signal,
    progress: phases.distill,
  });
  phases.embed.start(`embed: ${distilled.drafts.length} atoms`);
  const vectors = await embedAll(services, distilled, opts, phases.embed);
  checkAborted(opts.signal);
  const { document, observedAt } = documentOf(services, raw, head, opts);
  const warnings = [...head.parsed.warnings, ...distilled.warnings];
  return { base: head.base, document, chunks, distilled, vectors, warnings, observedAt };
}

/**
 * Stores one parsed document, reporting its distill, embed and write phases into `opts.progress` (the caller reports
 * parse and ends the span). @throws PegasError INVALID_INPUT (a text without a letter or digit: it could never be
 * found), CANCELLED, LLM_FAILED (embedding), STORE_UNAVAILABLE; nothing of the document is stored on any error. A
 * chunk the distiller fails on is quarantined, not an error.
 */
export async function ingestParsed(
  services: DocumentIngestServices,
  raw: RawSource,
  parsedIn: ParsedDocument,
  opts: DocumentOptions,
): Promise<DocumentResult> {
  const head = await headOf(services, raw, parsedIn, opts);
  if (!("contentHash" in head)) return head;
  if (writtenInParts(head.chunks, opts.partChars))
    return ingestInParts(services, head, documentOf(services, raw, head, opts), opts);
  const prepared = await prepareHead(services, raw, head, opts);
  documentPhases(opts.progress).write.start(
    `write: deduplicating and storing ${prepared.distilled.drafts.length} atoms of ${raw.uri}`,
  );
  const [out] = await storePrepared(services, [prepared], opts.signal);
  if (out instanceof Error) throw out;
  return out;
}
