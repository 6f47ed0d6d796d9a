/**
 * Ingest of one document: parsed sections → chunks with locators (page / chapter + lines and characters within
 * the section) → typed atoms from the configured distiller, each citing its quote (core/documents/distill.ts) → embeddings →
 * dedup that respects meaning (core/knowledge/dedup.ts) → one transaction (chunks, atoms, citations, merges, links, quarantined
 * chunks). An unchanged document (same extracted text) is detected before any distillation and changes nothing.
 */
import { authorityFor } from "../../domain/authority.ts";
import { sha256Hex } from "../../domain/hash.ts";
import type { ProgressSpan } from "../../domain/progress.ts";
import { detectLang, firstSentence, sanitizeText } from "../../domain/text.ts";
import { yieldToEventLoop } from "../../domain/yield.ts";
import { PegasError } from "../../errors.ts";
import { processedText } from "../../platform/gc.ts";
import type { IngestPlan } from "../../ports/store/ingest.ts";
import type { DocumentKind } from "../../domain/locator.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import { type DistilledChunks, distillChunks, quarantineChunks, refuseWordless } from "./distill.ts";
import { datedAtoms, documentObservedAt } from "./document-time.ts";
import { chunkSections, planAtoms } from "./plan.ts";
import { documentPhases } from "./progress.ts";
import type { Services } from "../services.ts";
import type { RawSource } from "./source.ts";

/** What storing one parsed document runs on: the distiller, dedup (embedder, indexes, text analysis) and the store. */
export type DocumentIngestServices = Pick<
  Services,
  "atomWrites" | "config" | "distiller" | "embedder" | "ingestWrites" | "projection" | "searchReads" | "vectorIndex"
>;

/**
 * What an ingest did, per document or in total: each distilled atom counts once as created, existing (an exact
 * duplicate) or near-duplicate (merged into an atom of the same meaning); quarantined chunks yielded no atom.
 */
export interface IngestCounts {
  chunks: number;
  /** Atoms planned: each chunk's passage plus the distiller's typed atoms whose quote verified (= created + existing + near-duplicate). */
  atoms_distilled: number;
  atoms_created: number;
  atoms_existing: number;
  atoms_near_duplicate: number;
  /** New atoms linked `contradicts` to a stored atom (the same claim negated or with another number/date). */
  atoms_contradicting: number;
  citations_added: number;
  links_added: number;
  atoms_staled: number;
  atoms_revived: number;
  chunks_quarantined: number;
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
  /** Near-duplicate merges of this document (at most {@link MAX_MERGES_LISTED}); `memory_unmerge` undoes one. */
  merges: Array<{ merge_id: number; kept_atom_id: number; absorbed_atom_id: number }>;
  snippet: boolean;
  sections: number;
}

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
}

const EMBED_BATCH = 64;

/** Most merges listed per document (`atoms_near_duplicate` counts them all). */
export const MAX_MERGES_LISTED = 20;

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

/**
 * Embeds the drafts in batches. A batch the embedder refuses (LLM_FAILED: a NaN or zero vector, an input over the
 * context length) is embedded text by text, and the chunks whose texts still fail are quarantined with their atoms
 * instead of failing the whole document. @throws PegasError CANCELLED, or LLM_FAILED when every text fails (the
 * embedder itself is down).
 */
async function embedAll(
  services: Pick<Services, "distiller" | "embedder">,
  distilled: DistilledChunks,
  opts: DocumentOptions,
  progress: ProgressSpan,
): Promise<Float32Array[]> {
  const texts = distilled.drafts.map((d) => d.draft.searchText);
  const out: Array<Float32Array | undefined> = [];
  const failed = new Map<number, { reason: string; detail: string }>();
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    await yieldToEventLoop(); // the local embedder is synchronous: let signals and cancellation in
    checkAborted(opts.signal);
    const batch = texts.slice(i, i + EMBED_BATCH);
    for (const t of batch) processedText(t.length);
    try {
      out.push(...(await services.embedder.embedDocuments(batch, opts.signal)));
    } catch (err) {
      if (!(err instanceof PegasError) || err.code !== "LLM_FAILED") throw err;
      for (const [j, text] of batch.entries()) {
        const one = await services.embedder.embedDocuments([text], opts.signal).catch((e: unknown) => {
          if (!(e instanceof PegasError) || e.code !== "LLM_FAILED") throw e;
          failed.set(distilled.drafts[i + j].chunkOrd, { reason: "embedding", detail: e.message.slice(0, 500) });
          return [undefined];
        });
        out.push(one[0]);
      }
    }
    const done = Math.min(i + EMBED_BATCH, texts.length);
    progress.at(done, texts.length, `embed: ${done} of ${texts.length} atoms`);
  }
  if (failed.size && failed.size === new Set(distilled.drafts.map((d) => d.chunkOrd)).size) {
    throw new PegasError(
      "LLM_FAILED",
      `no atom of this document could be embedded: ${[...failed.values()][0].detail}`,
      { hint: "check the embedding model; nothing was stored" },
    );
  }
  const keep = distilled.drafts.map((d) => !failed.has(d.chunkOrd));
  quarantineChunks(distilled, failed, services.distiller.name);
  return out.filter((_, i) => keep[i]) as Float32Array[];
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

/** Counters of an ingest that wrote nothing. */
const ZERO = {
  chunks: 0,
  atoms_distilled: 0,
  atoms_created: 0,
  atoms_existing: 0,
  atoms_near_duplicate: 0,
  atoms_contradicting: 0,
  citations_added: 0,
  links_added: 0,
  atoms_staled: 0,
  atoms_revived: 0,
  chunks_quarantined: 0,
} as const;

/**
 * Stores one parsed document, reporting its distill, embed and write phases into `opts.progress` (the caller reports
 * parse and ends the span). @throws PegasError INVALID_INPUT (a text without a letter or digit: it could never be
 * found), CANCELLED, LLM_FAILED (embedding), STORE_UNAVAILABLE; nothing of the document is stored on any error. A chunk the distiller fails on is quarantined, not an error.
 */
export async function ingestParsed(
  services: DocumentIngestServices,
  raw: RawSource,
  parsedIn: ParsedDocument,
  opts: DocumentOptions,
): Promise<DocumentResult> {
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
  phases.write.start(`write: deduplicating and storing ${distilled.drafts.length} atoms of ${raw.uri}`);
  await services.projection.sync();
  const findings = await (await import("../knowledge/dedup.ts")).findDuplicates(
    services,
    distilled.drafts.map((d, i) => ({ ...d.draft, vector: vectors[i] })),
    opts.signal,
  );
  checkAborted(opts.signal);
  const observedAt = documentObservedAt(opts.observedAt, parsed.metadata, raw.metadata);
  const plan: IngestPlan = {
    document: {
      kind,
      uri: raw.uri,
      title,
      contentHash,
      byteSize: raw.bytes.byteLength,
      authority: authorityFor({ kind, uri: raw.uri, snippet }, services.config.authority_rules),
      metadata: {
        ...raw.metadata,
        ...parsed.metadata,
        media_type: parsed.mediaType,
        lang: detectLang(parsed.sections[0].text),
        ...(given ? {} : { title_from_text: true }), // not a title to search by (migration 0013)
        ...(observedAt ? { observed_at: observedAt.toISOString() } : {}),
      },
    },
    chunks,
    atoms: datedAtoms(planAtoms(distilled.drafts, vectors, findings), observedAt),
    quarantine: distilled.quarantine,
    model: services.embedder.model,
  };
  const commit = await services.ingestWrites.commitIngest(plan);
  const warnings = [...parsed.warnings, ...distilled.warnings];
  return {
    ...base,
    warnings,
    doc_id: commit.docId,
    title,
    version: commit.version,
    stored: true,
    unchanged: commit.unchanged,
    chunks: commit.unchanged ? 0 : chunks.length,
    atoms_distilled: commit.unchanged ? 0 : plan.atoms.length,
    atoms_created: commit.atomsCreated,
    atoms_existing: commit.atomsExisting,
    atoms_near_duplicate: commit.atomsMerged,
    atoms_contradicting: commit.unchanged
      ? 0
      : findings.filter((f) => f.links.some((l) => l.kind === "contradicts")).length,
    citations_added: commit.citationsAdded,
    links_added: commit.linksAdded,
    atoms_staled: commit.atomsStaled,
    atoms_revived: commit.atomsRevived,
    chunks_quarantined: commit.chunksQuarantined,
    merges: commit.merges
      .slice(0, MAX_MERGES_LISTED)
      .map((m) => ({ merge_id: m.mergeId, kept_atom_id: m.keptAtomId, absorbed_atom_id: m.absorbedAtomId })),
  };
}
