/**
 * A large document written in parts (issue 21, item 3): its chunks are cut into parts of about {@link PART_CHARS}
 * characters, and each part is distilled, embedded, deduplicated, planned and written before the next is read, so that
 * an ingest holds one part's drafts, vectors, search vectors and mentions instead of the whole document's. All parts
 * go into ONE transaction (IngestWrites.ingestInParts): nothing of the document is visible to any reader until the
 * last part is written and it commits, and a failure, a cancellation or a kill leaves nothing behind.
 *
 * What a part needs of the parts before is carried: dedup's within-document window (the last WINDOW drafts and the
 * atoms now holding them; each draft is decided against its 8 closest earlier drafts among them, as in one batch
 * larger than MAX_PAIRWISE) and supersession's buckets of the document's statements (supersede-ingest.ts). Stored
 * candidates come from the in-process indexes synced once before the transaction (they cannot see the uncommitted
 * parts, which the carried state covers) and the candidates' rows are read inside the transaction.
 */
import { ProgressSpan } from "../../domain/progress.ts";
import { PegasError } from "../../errors.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import type { ChunkInput, DocumentInput, IngestSession } from "../../ports/store/ingest.ts";
import { type DedupDraft, type DedupFinding, type DedupServices, findDuplicates, WINDOW } from "../knowledge/dedup.ts";
import { distillChunks } from "./distill.ts";
import { datedAtoms } from "./document-time.ts";
import { embedAll } from "./embed.ts";
import { planAtoms } from "./plan.ts";
import { documentPhases } from "./progress.ts";
import {
  type DocumentIngestServices,
  type DocumentResult,
  MAX_MERGES_LISTED,
  searchVectorsOf,
  ZERO,
} from "./store-documents.ts";
import { planIngestSupersessions, SupersessionCarry } from "./supersede-ingest.ts";

/**
 * Chunk text (UTF-16 code units) of one part. The peak RSS of 20 MB of log text fell from 669 MiB with parts of 10⁶
 * to 611 MiB with 5 × 10⁵ (bench/notes.md): what a part holds is most of the JavaScript heap.
 */
export const PART_CHARS = 250_000;

/** Chunk text above which a document is written in parts: inputs up to 2 MB are stored as before, in one plan. */
export const WHOLE_MAX_CHARS = 2_000_000;

/** Whether a document of `chunks` is written in parts ({@link WHOLE_MAX_CHARS}; given a part size: twice that). */
export function writtenInParts(chunks: readonly ChunkInput[], partChars?: number): boolean {
  return textLength(chunks) > (partChars === undefined ? WHOLE_MAX_CHARS : 2 * partChars);
}

/** Most warnings listed per document (the rest are counted), as distill.ts. */
const MAX_WARNINGS = 50;

/** A parsed document up to its chunks, before any distillation (ingest-document.ts headOf). */
export interface DocumentHead {
  parsed: ParsedDocument;
  base: { uri: string; kind: DocumentInput["kind"]; snippet: boolean; sections: number; warnings: string[] };
  kind: DocumentInput["kind"];
  chunks: ChunkInput[];
  contentHash: string;
  title: string;
  /** Whether the title was given (by the caller or the parser) rather than read from the text. */
  given: boolean;
}

/** What writing in parts takes of the document options (ingest-document.ts DocumentOptions). */
export interface PartOptions {
  signal?: AbortSignal;
  progress?: ProgressSpan;
  /** Chunk text per part (default {@link PART_CHARS}). */
  partChars?: number;
}

/** Total text of `chunks` in UTF-16 code units. */
export function textLength(chunks: readonly ChunkInput[]): number {
  let n = 0;
  for (const c of chunks) n += c.text.length;
  return n;
}

/** `chunks` cut into runs of at least one chunk and about `partChars` of text each (the last may be shorter). */
export function partsOf(chunks: ChunkInput[], partChars: number): ChunkInput[][] {
  const out: ChunkInput[][] = [];
  let part: ChunkInput[] = [];
  let size = 0;
  for (const c of chunks) {
    part.push(c);
    size += c.text.length;
    if (size >= partChars) {
      out.push(part);
      part = [];
      size = 0;
    }
  }
  if (part.length) out.push(part);
  return out;
}

/** A span whose messages name the part they come from ("part 2 of 9: distill: 40 of 1,600 chunks"). */
class PartSpan extends ProgressSpan {
  constructor(
    span: ProgressSpan,
    readonly label: string,
  ) {
    super(span.reporter, span.from, span.to);
  }

  override at(done: number, of: number, message: string, force = false): boolean {
    return super.at(done, of, `${this.label}: ${message}`, force);
  }
}

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", "ingest cancelled; nothing of this document was stored");
}

/** Dedup's carried window: the last {@link WINDOW} drafts of the document and the atoms holding them. */
class DedupCarry {
  drafts: DedupDraft[] = [];
  ids: number[] = [];

  /** A finding of the part (`draftIndex` indexes the carried drafts, then the part's) as one of the part's plan. */
  localize(f: DedupFinding): DedupFinding {
    const n = this.drafts.length;
    const at = <T extends { draftIndex?: number; atomId?: number }>(t: T): T =>
      t.draftIndex === undefined
        ? t
        : t.draftIndex < n
          ? { ...t, draftIndex: undefined, atomId: this.ids[t.draftIndex] }
          : { ...t, draftIndex: t.draftIndex - n };
    return { merge: f.merge && at(f.merge), links: f.links.map(at) };
  }

  /** The part's drafts are written, `heldBy[i]` holding draft i: keep the last WINDOW. */
  advance(drafts: DedupDraft[], heldBy: readonly number[]): void {
    const all = this.drafts.concat(drafts);
    const ids = this.ids.concat(heldBy);
    this.drafts = all.slice(-WINDOW);
    this.ids = ids.slice(-WINDOW);
  }
}

/** Counters summed over the parts. */
function addCounts(out: DocumentResult, c: Record<keyof typeof ZERO, number>): void {
  for (const k of Object.keys(ZERO) as Array<keyof typeof ZERO>) out[k] += c[k];
}

/**
 * Stores a document part by part in one transaction (see the module comment); the same result as storing it whole
 * for any document smaller than one part. @throws PegasError CANCELLED, LLM_FAILED (no text of a part could be
 * embedded), STORE_UNAVAILABLE; nothing of the document is stored on any error.
 */
export async function ingestInParts(
  services: DocumentIngestServices,
  head: DocumentHead,
  doc: { document: DocumentInput; observedAt?: Date },
  opts: PartOptions,
): Promise<DocumentResult> {
  const parts = partsOf(head.chunks, opts.partChars ?? PART_CHARS);
  const phases = documentPhases(opts.progress);
  const weights = Object.fromEntries(parts.map((p, k) => [String(k), textLength(p)]));
  const spans = { distill: phases.distill.split(weights), embed: phases.embed.split(weights) };
  // Synced before the transaction: inside it, any other statement of this process waits for it (PGlite).
  await services.projection.sync();
  const now = new Date().toISOString();
  return services.ingestWrites.ingestInParts(async (session: IngestSession) => {
    const result: DocumentResult = {
      ...head.base,
      warnings: [...head.parsed.warnings],
      doc_id: null,
      title: doc.document.title,
      version: 0,
      stored: true,
      unchanged: false,
      ...ZERO,
      merges: [],
    };
    const begun = await session.begin(doc.document);
    result.doc_id = begun.docId;
    result.version = begun.version;
    if (begun.unchanged) return { ...result, unchanged: true }; // stored meanwhile by another process
    // The projection as dedup and supersession read it: already synced; its sync would wait for this transaction.
    const reads: DedupServices & Parameters<typeof planIngestSupersessions>[0] & Parameters<typeof searchVectorsOf>[0] =
      {
        config: services.config,
        embedder: services.embedder,
        vectorIndex: services.vectorIndex,
        atomWrites: session.reads,
        searchReads: session.reads,
        supersession: session.reads,
        projection: { lexical: (...a) => services.projection.lexical(...a), sync: async () => 0 },
      };
    const dedup = new DedupCarry();
    const supersession = new SupersessionCarry();
    let dropped = 0;
    for (const [k, chunks] of parts.entries()) {
      checkAborted(opts.signal);
      const label = `part ${k + 1} of ${parts.length}`;
      const distillSpan = new PartSpan(spans.distill[String(k)], label);
      const embedSpan = new PartSpan(spans.embed[String(k)], label);
      distillSpan.start(`distill: ${chunks.length} chunks`);
      const distilled = await distillChunks(services.distiller, chunks, {
        title: head.title,
        signal: opts.signal,
        progress: distillSpan,
      });
      embedSpan.start(`embed: ${distilled.drafts.length} atoms`);
      const vectors = await embedAll(services, distilled, opts, embedSpan);
      checkAborted(opts.signal);
      const tsvs = await searchVectorsOf(reads, distilled.drafts);
      const drafts = distilled.drafts.map((d, i) => ({ ...d.draft, vector: vectors[i], searchTsv: tsvs[i] }));
      const found = await findDuplicates(reads, drafts, opts.signal, { earlier: dedup.drafts });
      checkAborted(opts.signal);
      const atoms = datedAtoms(
        planAtoms(
          distilled.drafts,
          vectors,
          found.map((f) => dedup.localize(f)),
          tsvs,
        ),
        doc.observedAt,
      );
      const supersessions = await planIngestSupersessions(reads, atoms, now, supersession);
      checkAborted(opts.signal);
      const written = await session.writePart(
        { chunks, atoms, quarantine: distilled.quarantine, supersessions },
        services.embedder.model,
      );
      phases.write.at(k + 1, parts.length, `${label}: written (${atoms.length} atoms)`, true);
      dedup.advance(drafts, written.heldBy);
      supersession.written(written.heldBy);
      addCounts(result, {
        ...ZERO,
        chunks: chunks.length,
        atoms_distilled: atoms.length,
        atoms_created: written.atomsCreated,
        atoms_existing: written.atomsExisting,
        atoms_near_duplicate: written.atomsMerged,
        atoms_contradicting: found.filter((f) => f.links.some((l) => l.kind === "contradicts")).length,
        atoms_superseded: written.atomsSuperseded,
        citations_added: written.citationsAdded,
        links_added: written.linksAdded,
        atoms_revived: written.atomsRevived,
        chunks_quarantined: written.chunksQuarantined,
      });
      for (const m of written.merges.slice(0, MAX_MERGES_LISTED - result.merges.length))
        result.merges.push({ merge_id: m.mergeId, kept_atom_id: m.keptAtomId, absorbed_atom_id: m.absorbedAtomId });
      for (const w of distilled.warnings) result.warnings.length < MAX_WARNINGS ? result.warnings.push(w) : dropped++;
    }
    const end = await session.finish();
    result.atoms_staled = end.atomsStaled;
    if (dropped) result.warnings.push(`${dropped} more warnings not listed`);
    return result;
  });
}
