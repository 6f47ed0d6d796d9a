/**
 * memory_ingest: source → text → chunks (evidence, with locators) → one `text` atom per chunk → embeddings →
 * exact and near-duplicate detection → one transaction with document version, chunks, atoms, citations and
 * outbox rows. An unchanged document is detected by its content hash before any work and changes nothing.
 */
import { chunkText } from "../domain/chunk.ts";
import { sha256Hex } from "../domain/hash.ts";
import { detectLang, firstSentence, sanitizeText } from "../domain/text.ts";
import { PegasError, invalidInput } from "../errors.ts";
import type { IngestPlan, PlannedAtom } from "../ports/canonical-store.ts";
import { draftAtom } from "./atoms.ts";
import { findNearDuplicates } from "./near-dup.ts";
import type { Services } from "./services.ts";
import { readFileSource, rawTextSource, type SourceText } from "./source.ts";

/** Input of an ingest: exactly one of `text`, `path`, `url`. */
export interface IngestInput {
  text?: string;
  path?: string;
  url?: string;
  title?: string;
}

/** Outcome of an ingest. */
export interface IngestResult {
  doc_id: number;
  uri: string;
  version: number;
  unchanged: boolean;
  bytes: number;
  chunks: number;
  atoms_created: number;
  atoms_existing: number;
  atoms_near_duplicate: number;
  citations_added: number;
  atoms_staled: number;
  atoms_revived: number;
  warnings: string[];
  took_ms: number;
}

/** Progress callback: `progress` of `total` steps done, with a message. */
export type ProgressFn = (progress: number, total: number, message: string) => void;

/** Where paths may be read from: the configured roots (MCP), or anywhere (the CLI, where the user names it). */
export interface IngestOptions {
  trustedPath?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
}

const EMBED_BATCH = 64;

function readSource(services: Services, input: IngestInput, opts: IngestOptions): SourceText {
  const given = [input.text, input.path, input.url].filter((x) => x !== undefined);
  if (given.length !== 1) throw invalidInput("give exactly one of text, path or url");
  const maxBytes = services.config.max_input_bytes;
  if (input.url !== undefined) {
    throw new PegasError("UNSUPPORTED_MEDIA", `URL ingest is not available in this version ('${input.url}')`, {
      hint: "fetch the page yourself and pass its text as `text`",
    });
  }
  if (input.path !== undefined) {
    return readFileSource(input.path, { roots: opts.trustedPath ? null : services.config.ingest_roots, maxBytes, title: input.title });
  }
  return rawTextSource(input.text!, { maxBytes, title: input.title });
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", "ingest cancelled; nothing was stored");
}

async function embedAll(services: Services, texts: string[], opts: IngestOptions): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    checkAborted(opts.signal);
    out.push(...(await services.embedder.embedDocuments(texts.slice(i, i + EMBED_BATCH), opts.signal)));
    opts.onProgress?.(Math.min(i + EMBED_BATCH, texts.length), texts.length, "embedding chunks");
  }
  return out;
}

/**
 * Ingests one source. @throws PegasError INVALID_INPUT, NOT_FOUND, UNSUPPORTED_MEDIA, LIMIT_EXCEEDED, CANCELLED,
 * LLM_FAILED (embedding), STORE_UNAVAILABLE. On any error nothing is stored.
 */
export async function ingest(services: Services, input: IngestInput, opts: IngestOptions = {}): Promise<IngestResult> {
  const started = performance.now();
  const src = readSource(services, input, opts);
  const contentHash = sha256Hex(src.text);
  const base = { uri: src.uri, bytes: src.bytes, warnings: [...src.warnings] };
  const known = await services.store.documentByUri(src.uri);
  if (known?.contentHash === contentHash) {
    return { ...base, doc_id: known.id, version: known.version, unchanged: true, chunks: 0, atoms_created: 0, atoms_existing: 0, atoms_near_duplicate: 0, citations_added: 0, atoms_staled: 0, atoms_revived: 0, took_ms: ms(started) };
  }
  const lang = detectLang(src.text);
  const chunks = chunkText(src.text, { target: services.config.chunk_chars, lang });
  if (chunks.length === 0) throw invalidInput(`'${src.uri}' has no text to store`);
  const title = src.title ? sanitizeText(src.title, "title").text.trim() || null : defaultTitle(src.text);
  const drafts = chunks.map((c) => draftAtom({ type: "text", claim: firstSentence(c.text), content: c.text, confidence: 0.5 }));
  const vectors = await embedAll(services, drafts.map((d) => d.searchText), opts);
  checkAborted(opts.signal);
  await services.projection.sync();
  const atoms = drafts.map((d, i) => ({ ...d, vector: vectors[i] }));
  const dups = await findNearDuplicates(services, atoms, opts.signal);
  checkAborted(opts.signal);
  const planned: PlannedAtom[] = atoms.map((atom, i) => {
    const c = chunks[i];
    const locator = { char_start: c.charStart, char_end: c.charEnd, line_start: c.lineStart, line_end: c.lineEnd };
    return { atom, citation: { chunkOrd: c.ord, locator, quote: atom.claim }, duplicateOf: dups[i]?.atomId, duplicateOfPlanned: dups[i]?.draftIndex };
  });
  const plan: IngestPlan = {
    document: { kind: src.kind, uri: src.uri, title, contentHash, byteSize: src.bytes, metadata: { media_type: src.mediaType, lang } },
    chunks: chunks.map((c) => ({ ord: c.ord, text: c.text, contentHash: sha256Hex(c.text), locator: { char_start: c.charStart, char_end: c.charEnd, line_start: c.lineStart, line_end: c.lineEnd } })),
    atoms: planned,
    model: services.embedder.model,
  };
  const commit = await services.store.commitIngest(plan);
  opts.onProgress?.(chunks.length, chunks.length, "stored");
  return {
    ...base,
    doc_id: commit.docId,
    version: commit.version,
    unchanged: commit.unchanged,
    chunks: commit.unchanged ? 0 : chunks.length,
    atoms_created: commit.atomsCreated,
    atoms_existing: commit.atomsExisting,
    atoms_near_duplicate: commit.atomsNearDuplicate,
    citations_added: commit.citationsAdded,
    atoms_staled: commit.atomsStaled,
    atoms_revived: commit.atomsRevived,
    took_ms: ms(started),
  };
}

/** The first non-empty line when it is short enough to be a heading, else the first sentence (≤ 120 chars). */
function defaultTitle(text: string): string {
  const line = text.split("\n").find((l) => l.trim())?.trim() ?? "";
  return line && line.length <= 120 ? line : firstSentence(text, 120);
}

function ms(started: number): number {
  return Math.round(performance.now() - started);
}
