/**
 * Ingest of one document: parsed sections → chunks with locators (page / chapter + lines and characters within
 * the section) → one `text` atom per chunk → embeddings → exact and near-duplicate detection → one transaction.
 * An unchanged document (same extracted text) is detected before any embedding and changes nothing.
 */
import { authorityFor } from "../domain/authority.ts";
import { chunkText } from "../domain/chunk.ts";
import { sha256Hex } from "../domain/hash.ts";
import { detectLang, firstSentence, sanitizeText } from "../domain/text.ts";
import { yieldToEventLoop } from "../domain/yield.ts";
import { PegasError } from "../errors.ts";
import type { ChunkInput, DocumentKind, IngestPlan, Locator, PlannedAtom } from "../ports/canonical-store.ts";
import type { ParsedDocument } from "../ports/parser.ts";
import { draftAtom } from "./atoms.ts";
import { findNearDuplicates } from "./near-dup.ts";
import type { Services } from "./services.ts";
import type { RawSource } from "./source.ts";

/** What an ingest did, per document or in total: each chunk counts once as created, existing or near-duplicate. */
export interface IngestCounts {
  chunks: number;
  atoms_created: number;
  atoms_existing: number;
  atoms_near_duplicate: number;
  citations_added: number;
  atoms_staled: number;
  atoms_revived: number;
  warnings: string[];
}

/** Outcome for one document. `stored` is false when nothing could be extracted (see `warnings`). */
export interface DocumentResult extends IngestCounts {
  doc_id: number | null;
  uri: string;
  kind: DocumentKind;
  title: string | null;
  version: number;
  stored: boolean;
  unchanged: boolean;
  snippet: boolean;
  sections: number;
}

/** Per-document options. */
export interface DocumentOptions {
  signal?: AbortSignal;
  onProgress?: (done: number, total: number, message: string) => void;
  /** Document kind forced by the caller (else the parser's). */
  kind?: DocumentKind;
  /** Text stored instead when the source yields no text (a blocked page); the document is marked a snippet. */
  snippet?: string;
}

const EMBED_BATCH = 64;

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", "ingest cancelled; nothing of this document was stored");
}

/** The first non-empty line when it is short enough to be a heading, else the first sentence (≤ 120 chars). */
function defaultTitle(text: string): string {
  const line = text.split("\n").find((l) => l.trim())?.trim() ?? "";
  return line && line.length <= 120 ? line : firstSentence(text, 120);
}

interface ChunkedAtom {
  chunk: ChunkInput;
  text: string;
}

/** Chunks every section; ords run across sections, locators are the section's plus the range within it. */
function chunkSections(parsed: ParsedDocument, target: number): ChunkedAtom[] {
  const out: ChunkedAtom[] = [];
  for (const section of parsed.sections) {
    for (const c of chunkText(section.text, { target, lang: detectLang(section.text) })) {
      const locator: Locator = { ...section.locator, char_start: c.charStart, char_end: c.charEnd, line_start: c.lineStart, line_end: c.lineEnd };
      out.push({ chunk: { ord: out.length, text: c.text, contentHash: sha256Hex(c.text), locator }, text: c.text });
    }
  }
  return out;
}

async function embedAll(services: Services, texts: string[], opts: DocumentOptions): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    await yieldToEventLoop(); // the local embedder is synchronous: let signals and cancellation in
    checkAborted(opts.signal);
    out.push(...(await services.embedder.embedDocuments(texts.slice(i, i + EMBED_BATCH), opts.signal)));
    opts.onProgress?.(Math.min(i + EMBED_BATCH, texts.length), texts.length, "embedding chunks");
  }
  return out;
}

/** Replaces an empty extraction by the caller's snippet, when one was given. */
function withSnippet(parsed: ParsedDocument, snippet: string | undefined): { parsed: ParsedDocument; snippet: boolean } {
  if (parsed.sections.some((s) => s.text.trim()) || !snippet?.trim()) return { parsed, snippet: false };
  const text = sanitizeText(snippet, "snippet");
  const warnings = [...parsed.warnings, ...text.warnings, "stored the snippet given by the caller instead of the page"];
  return { parsed: { ...parsed, kind: "web", sections: [{ text: text.text.trim(), locator: {} }], warnings, metadata: { ...parsed.metadata, snippet: true } }, snippet: true };
}

function emptyResult(raw: RawSource, parsed: ParsedDocument, kind: DocumentKind): DocumentResult {
  const warnings = parsed.warnings.length ? parsed.warnings : ["no text could be extracted"];
  return {
    doc_id: null, uri: raw.uri, kind, title: parsed.title, version: 0, stored: false, unchanged: false, snippet: false, sections: 0, chunks: 0,
    atoms_created: 0, atoms_existing: 0, atoms_near_duplicate: 0, citations_added: 0, atoms_staled: 0, atoms_revived: 0, warnings,
  };
}

/**
 * Stores one parsed document. @throws PegasError CANCELLED, LLM_FAILED (embedding), STORE_UNAVAILABLE; nothing of
 * the document is stored on any error.
 */
export async function ingestParsed(services: Services, raw: RawSource, parsedIn: ParsedDocument, opts: DocumentOptions): Promise<DocumentResult> {
  const { parsed, snippet } = withSnippet(parsedIn, opts.snippet);
  const kind = opts.kind ?? parsed.kind;
  const chunked = chunkSections(parsed, services.config.chunk_chars);
  if (!chunked.length) return emptyResult(raw, parsed, kind);
  const contentHash = sha256Hex(parsed.sections.map((s) => s.text).join("\f"));
  const base = { uri: raw.uri, kind, snippet, sections: parsed.sections.length, warnings: parsed.warnings };
  const known = await services.store.documentByUri(raw.uri);
  if (known?.contentHash === contentHash) {
    return { ...base, doc_id: known.id, title: known.title, version: known.version, stored: true, unchanged: true, chunks: 0,
      atoms_created: 0, atoms_existing: 0, atoms_near_duplicate: 0, citations_added: 0, atoms_staled: 0, atoms_revived: 0 };
  }
  const drafts = chunked.map((c) => draftAtom({ type: "text", claim: firstSentence(c.text), content: c.text, confidence: 0.5 }));
  const vectors = await embedAll(services, drafts.map((d) => d.searchText), opts);
  checkAborted(opts.signal);
  await services.projection.sync();
  const atoms = drafts.map((d, i) => ({ ...d, vector: vectors[i] }));
  const dups = await findNearDuplicates(services, atoms, opts.signal);
  checkAborted(opts.signal);
  const planned: PlannedAtom[] = atoms.map((atom, i) => ({
    atom,
    citation: { chunkOrd: i, locator: chunked[i].chunk.locator, quote: atom.claim },
    duplicateOf: dups[i]?.atomId,
    duplicateOfPlanned: dups[i]?.draftIndex,
  }));
  const title = sanitizeText(raw.title ?? parsed.title ?? "", "title").text.trim() || defaultTitle(parsed.sections[0].text);
  const plan: IngestPlan = {
    document: {
      kind, uri: raw.uri, title, contentHash, byteSize: raw.bytes.byteLength,
      authority: authorityFor({ kind, uri: raw.uri, snippet }, services.config.authority_rules),
      metadata: { ...raw.metadata, ...parsed.metadata, media_type: parsed.mediaType, lang: detectLang(parsed.sections[0].text) },
    },
    chunks: chunked.map((c) => c.chunk),
    atoms: planned,
    model: services.embedder.model,
  };
  const commit = await services.store.commitIngest(plan);
  return {
    ...base, doc_id: commit.docId, title, version: commit.version, stored: true, unchanged: commit.unchanged,
    chunks: commit.unchanged ? 0 : chunked.length, atoms_created: commit.atomsCreated, atoms_existing: commit.atomsExisting,
    atoms_near_duplicate: commit.atomsNearDuplicate, citations_added: commit.citationsAdded, atoms_staled: commit.atomsStaled,
    atoms_revived: commit.atomsRevived,
  };
}
