/**
 * Retrying quarantined chunks: each open entry of the documents' current versions is distilled again with the
 * configured distiller; on success its atoms go through the same embedding and dedup as ingest and are stored with
 * the entry closed, in one transaction; on another failure the entry records the attempt and stays open.
 */
import { PegasError } from "../../errors.ts";
import type { ChunkInput } from "../../ports/store/ingest.ts";
import { distillChunks } from "./distill.ts";
import { planAtoms } from "./plan.ts";
import type { Services } from "../services.ts";
import { sha256Hex } from "../../domain/hash.ts";

/** Default and largest number of entries one retry run takes. */
export const RETRY_LIMIT = { default: 20, max: 500 } as const;

/** Outcome of a retry run. */
export interface RetryResult {
  distiller: string;
  retried: number;
  resolved: number;
  failed: Array<{ quarantine_id: number; doc_id: number; reason: string; attempts: number }>;
  atoms_created: number;
  atoms_existing: number;
  atoms_near_duplicate: number;
}

/**
 * Retries up to `limit` open quarantine entries (oldest first), optionally of one document.
 * @throws PegasError INVALID_INPUT (limit), CANCELLED, STORE_UNAVAILABLE; a chunk that fails again is reported, not thrown.
 */
export async function retryQuarantine(
  services: Pick<
    Services,
    "atomWrites" | "config" | "distiller" | "embedder" | "ingestWrites" | "projection" | "searchReads" | "vectorIndex"
  >,
  opts: { limit?: number; doc_id?: number; signal?: AbortSignal } = {},
): Promise<RetryResult> {
  const limit = opts.limit ?? RETRY_LIMIT.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > RETRY_LIMIT.max)
    throw new PegasError("INVALID_INPUT", `limit must be 1..${RETRY_LIMIT.max}, got ${limit}`, {
      hint: "run again for more entries",
    });
  const entries = await services.ingestWrites.openQuarantine(limit, opts.doc_id);
  const out: RetryResult = {
    distiller: services.distiller.name,
    retried: 0,
    resolved: 0,
    failed: [],
    atoms_created: 0,
    atoms_existing: 0,
    atoms_near_duplicate: 0,
  };
  for (const q of entries) {
    if (opts.signal?.aborted) throw new PegasError("CANCELLED", `retry cancelled after ${out.retried} chunk(s)`);
    out.retried++;
    const chunk: ChunkInput = {
      ord: q.chunkOrd,
      text: q.chunkText,
      contentHash: sha256Hex(q.chunkText),
      locator: q.locator,
    };
    const distilled = await distillChunks(services.distiller, [chunk], {
      title: q.title ?? undefined,
      signal: opts.signal,
    });
    if (distilled.quarantine.length) {
      const f = distilled.quarantine[0];
      await services.ingestWrites.failQuarantine(q.id, f.reason, f.detail);
      out.failed.push({ quarantine_id: q.id, doc_id: q.docId, reason: f.reason, attempts: q.attempts + 1 });
      continue;
    }
    let vectors: Float32Array[];
    try {
      vectors = await services.embedder.embedDocuments(
        distilled.drafts.map((d) => d.draft.searchText),
        opts.signal,
      );
    } catch (err) {
      if (!(err instanceof PegasError) || err.code !== "LLM_FAILED") throw err;
      await services.ingestWrites.failQuarantine(q.id, "embedding", err.message);
      out.failed.push({ quarantine_id: q.id, doc_id: q.docId, reason: "embedding", attempts: q.attempts + 1 });
      continue;
    }
    await services.projection.sync();
    const findings = await (await import("../knowledge/dedup.ts")).findDuplicates(
      services,
      distilled.drafts.map((d, i) => ({ ...d.draft, vector: vectors[i] })),
      opts.signal,
    );
    try {
      const c = await services.ingestWrites.resolveQuarantine({
        quarantineId: q.id,
        atoms: planAtoms(distilled.drafts, vectors, findings),
        model: services.embedder.model,
      });
      out.resolved++;
      out.atoms_created += c.atomsCreated;
      out.atoms_existing += c.atomsExisting;
      out.atoms_near_duplicate += c.atomsMerged;
    } catch (err) {
      if (!(err instanceof PegasError) || err.code !== "NOT_FOUND") throw err;
      out.failed.push({ quarantine_id: q.id, doc_id: q.docId, reason: "resolved elsewhere", attempts: q.attempts });
    }
  }
  return out;
}
