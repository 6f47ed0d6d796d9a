/**
 * The write half of an ingest: prepared documents (chunks, distilled drafts and their vectors) → dedup that respects
 * meaning (core/knowledge/dedup.ts) → one transaction (chunks, atoms, citations, merges, links, quarantined chunks)
 * → a result per document. A directory stores its small files through here in batches: their drafts are
 * deduplicated together (a later file's atom meets the batch's earlier ones as a document's atom meets its earlier
 * ones) and written in one transaction, so that a file costs a share of a dozen statements and one fsync.
 */
import type { DocumentKind } from "../../domain/locator.ts";
import { PegasError, toPegasError } from "../../errors.ts";
import type { ChunkInput, DocumentInput, IngestCommit, IngestPlan } from "../../ports/store/ingest.ts";
import type { DedupFinding } from "../knowledge/dedup.ts";
import type { Services } from "../services.ts";
import type { DistilledChunks } from "./distill.ts";
import { datedAtoms } from "./document-time.ts";
import { planAtoms } from "./plan.ts";
import { planIngestSupersessions, splitByPlan } from "./supersede-ingest.ts";
import { processedText } from "../../platform/gc.ts";

/** What storing one parsed document runs on: the distiller, dedup (embedder, indexes, text analysis) and the store. */
export type DocumentIngestServices = Pick<
  Services,
  | "atomWrites"
  | "config"
  | "distiller"
  | "embedder"
  | "ingestWrites"
  | "projection"
  | "searchReads"
  | "supersession"
  | "vectorIndex"
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
  /** Stored or new atoms that a newer statement of this ingest superseded (now `superseded`, linked `supersedes`). */
  atoms_superseded: number;
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

/** A document read, distilled and embedded, waiting for dedup and its transaction (ingest-document.ts prepares it). */
export interface PreparedDocument {
  base: { uri: string; kind: DocumentKind; snippet: boolean; sections: number; warnings: string[] };
  document: DocumentInput;
  chunks: ChunkInput[];
  distilled: DistilledChunks;
  vectors: Float32Array[];
  warnings: string[];
  /** When the document said it (document-time.ts); its atoms' `observed_at`. */
  observedAt?: Date;
}

/** Most merges listed per document (`atoms_near_duplicate` counts them all). */
export const MAX_MERGES_LISTED = 20;

/** Counters of an ingest that wrote nothing. */
export const ZERO = {
  chunks: 0,
  atoms_distilled: 0,
  atoms_created: 0,
  atoms_existing: 0,
  atoms_near_duplicate: 0,
  atoms_contradicting: 0,
  atoms_superseded: 0,
  citations_added: 0,
  links_added: 0,
  atoms_staled: 0,
  atoms_revived: 0,
  chunks_quarantined: 0,
} as const;

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", "ingest cancelled; nothing of this document was stored");
}

function resultOf(
  d: PreparedDocument,
  plan: IngestPlan,
  commit: IngestCommit,
  findings: DedupFinding[],
): DocumentResult {
  return {
    ...d.base,
    warnings: d.warnings,
    doc_id: commit.docId,
    title: d.document.title,
    version: commit.version,
    stored: true,
    unchanged: commit.unchanged,
    chunks: commit.unchanged ? 0 : d.chunks.length,
    atoms_distilled: commit.unchanged ? 0 : plan.atoms.length,
    atoms_created: commit.atomsCreated,
    atoms_existing: commit.atomsExisting,
    atoms_near_duplicate: commit.atomsMerged,
    atoms_contradicting: commit.unchanged
      ? 0
      : findings.filter((f) => f.links.some((l) => l.kind === "contradicts")).length,
    atoms_superseded: commit.atomsSuperseded,
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

/** Texts per search-vector round trip: bounds one statement's parameters as the row writes do. */
const ANALYZE_ROWS = 2000;

/**
 * The tsvector text of every draft's search text, computed once and used twice: by dedup's candidate lookup and by
 * the atom insert, which each ran `to_tsvector` on the same text (stemming was ≈ 60 % of the insert).
 */
export async function searchVectorsOf(
  services: { searchReads: Pick<Services["searchReads"], "searchVectors"> },
  drafts: DistilledChunks["drafts"],
): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < drafts.length; i += ANALYZE_ROWS) {
    const part = drafts.slice(i, i + ANALYZE_ROWS).map((d) => d.draft.searchText);
    for (const v of await services.searchReads.searchVectors(part)) {
      out.push(v);
      processedText(2 * v.length); // the statement's parameters and its result rows: garbage once read
    }
  }
  return out;
}

/**
 * Deduplicates the documents' drafts together and plans them: one list of planned atoms whose references index the
 * whole list, cut into one plan per document (what IngestWrites.commitIngestBatch takes).
 */
async function planAll(
  services: DocumentIngestServices,
  docs: PreparedDocument[],
  signal?: AbortSignal,
): Promise<{ plans: IngestPlan[]; findings: DedupFinding[][] }> {
  await services.projection.sync();
  const drafts = docs.flatMap((d) => d.distilled.drafts);
  const vectors = docs.flatMap((d) => d.vectors);
  const tsvs = await searchVectorsOf(services, drafts);
  const { findDuplicates } = await import("../knowledge/dedup.ts");
  const found = await findDuplicates(
    services,
    drafts.map((d, i) => ({ ...d.draft, vector: vectors[i], searchTsv: tsvs[i] })),
    signal,
  );
  checkAborted(signal);
  const planned = planAtoms(drafts, vectors, found, tsvs);
  let at = 0;
  const dated = docs.flatMap((d) => datedAtoms(planned.slice(at, (at += d.distilled.drafts.length)), d.observedAt));
  const supersessions = splitByPlan(
    await planIngestSupersessions(services, dated),
    docs.map((d) => d.distilled.drafts.length),
  );
  checkAborted(signal);
  const plans: IngestPlan[] = [];
  const findings: DedupFinding[][] = [];
  let from = 0;
  for (const d of docs) {
    const to = from + d.distilled.drafts.length;
    plans.push({
      document: d.document,
      chunks: d.chunks,
      atoms: dated.slice(from, to),
      supersessions: supersessions[plans.length],
      quarantine: d.distilled.quarantine,
      model: services.embedder.model,
    });
    findings.push(found.slice(from, to));
    from = to;
  }
  return { plans, findings };
}

/**
 * Deduplicates and stores prepared documents, all in one transaction; one result per document, in order. When the
 * batch's transaction fails (or a document was stored meanwhile by another process), each document is planned and
 * stored again on its own, and a document that fails alone gets its error in its place.
 * @throws PegasError CANCELLED (nothing of the unstored documents is stored); with one document, its error.
 */
export async function storePrepared(
  services: DocumentIngestServices,
  docs: PreparedDocument[],
  signal?: AbortSignal,
): Promise<Array<DocumentResult | PegasError>> {
  if (!docs.length) return [];
  const { plans, findings } = await planAll(services, docs, signal);
  if (docs.length === 1) {
    const commit = await services.ingestWrites.commitIngest(plans[0]);
    return [resultOf(docs[0], plans[0], commit, findings[0])];
  }
  const commits = await services.ingestWrites.commitIngestBatch(plans).catch((err: unknown) => {
    const e = toPegasError(err);
    if (e.code === "CANCELLED") throw e;
    return null;
  });
  if (commits) return docs.map((d, k) => resultOf(d, plans[k], commits[k], findings[k]));
  const out: Array<DocumentResult | PegasError> = [];
  for (const d of docs) {
    checkAborted(signal);
    out.push(
      await storePrepared(services, [d], signal).then(
        (r) => r[0],
        (err: unknown) => {
          const e = toPegasError(err);
          if (e.code === "CANCELLED") throw e;
          return e;
        },
      ),
    );
  }
  return out;
}
