/**
 * The write side of an ingest: one transaction that registers the document version, its chunks, the planned atoms
 * with their embeddings, citations, merges and links (atom-writes.ts), the quarantined chunks and the outbox rows.
 * Idempotent: re-running a committed plan writes nothing new (unique keys with ON CONFLICT DO NOTHING).
 */
import type { TransactionSql } from "postgres";
import type { IngestCommit, IngestPlan } from "../../../ports/store/ingest.ts";
import { writeAtomTimes } from "./atom-times.ts";
import { enqueueOutbox, type WriteOutcome, writePlannedAtoms } from "./atom-writes.ts";

type Tx = TransactionSql<any>;

const BATCH = 500;

/** Upserts the document; returns null when the stored version already has this content. */
async function upsertDocument(tx: Tx, plan: IngestPlan): Promise<{ id: number; version: number } | null> {
  const d = plan.document;
  const rows = await tx`
    INSERT INTO pm_document (kind, uri, title, content_hash, byte_size, authority, metadata)
    VALUES (${d.kind}, ${d.uri}, ${d.title}, ${d.contentHash}, ${d.byteSize}, ${d.authority}, ${tx.json(d.metadata as never)})
    ON CONFLICT (uri) DO UPDATE SET
      kind = EXCLUDED.kind,
      title = COALESCE(EXCLUDED.title, pm_document.title),
      authority = EXCLUDED.authority,
      content_hash = EXCLUDED.content_hash,
      byte_size = EXCLUDED.byte_size,
      metadata = pm_document.metadata || EXCLUDED.metadata,
      version = CASE WHEN pm_document.content_hash IS NULL THEN pm_document.version ELSE pm_document.version + 1 END,
      status = 'active',
      updated_at = now()
    WHERE pm_document.content_hash IS DISTINCT FROM EXCLUDED.content_hash
    RETURNING id, version`;
  return rows.length ? { id: Number(rows[0].id), version: Number(rows[0].version) } : null;
}

async function insertChunks(tx: Tx, plan: IngestPlan, docId: number, version: number): Promise<Map<number, number>> {
  const idByOrd = new Map<number, number>();
  for (let i = 0; i < plan.chunks.length; i += BATCH) {
    const rows = plan.chunks.slice(i, i + BATCH).map((c) => ({
      doc_id: docId,
      doc_version: version,
      ord: c.ord,
      text: c.text,
      content_hash: c.contentHash,
      locator: c.locator,
    }));
    const out = await tx`
      INSERT INTO pm_chunk ${tx(rows as any, "doc_id", "doc_version", "ord", "text", "content_hash", "locator")}
      ON CONFLICT (doc_id, doc_version, ord) DO UPDATE SET text = EXCLUDED.text
      RETURNING id, ord`;
    for (const r of out) idByOrd.set(Number(r.ord), Number(r.id));
  }
  return idByOrd;
}

/**
 * Marks atoms extracted from an older version of the document that the new version no longer contains as `stale`
 * (their provenance is kept). Atoms the agent stored citing this document (citations without a chunk), and atoms
 * that another document still cites, are left alone.
 */
async function staleOldAtoms(tx: Tx, docId: number, version: number): Promise<number[]> {
  if (version <= 1) return [];
  const rows = await tx`
    UPDATE pm_atom a SET status = 'stale'
     WHERE a.id IN (SELECT atom_id FROM pm_citation WHERE doc_id = ${docId} AND chunk_id IS NOT NULL)
       AND a.status IN ('candidate', 'verified')
       AND NOT EXISTS (SELECT 1 FROM pm_citation c WHERE c.atom_id = a.id AND c.doc_id = ${docId} AND c.doc_version = ${version})
       AND NOT EXISTS (SELECT 1 FROM pm_citation c WHERE c.atom_id = a.id AND c.doc_id = ${docId} AND c.chunk_id IS NULL)
       AND NOT EXISTS (SELECT 1 FROM pm_citation c WHERE c.atom_id = a.id AND c.doc_id <> ${docId})
    RETURNING a.id`;
  return rows.map((r) => Number(r.id));
}

/** Atoms that had gone stale and that the new version contains again become candidates again. */
async function reviveAtoms(tx: Tx, atomIds: number[]): Promise<number[]> {
  if (!atomIds.length) return [];
  // An atom absorbed by a merge stays stale until the merge is undone.
  const rows = await tx`
    UPDATE pm_atom a SET status = 'candidate'
     WHERE a.id = ANY(${atomIds}::bigint[]) AND a.status = 'stale'
       AND NOT EXISTS (SELECT 1 FROM pm_atom_merge m WHERE m.absorbed_atom_id = a.id AND m.undone_at IS NULL)
    RETURNING a.id`;
  return rows.map((r) => Number(r.id));
}

/** Records the chunks whose distillation failed (see pm_distill_quarantine). */
async function insertQuarantine(
  tx: Tx,
  plan: IngestPlan,
  docId: number,
  version: number,
  chunkIds: Map<number, number>,
): Promise<number> {
  const rows = (plan.quarantine ?? []).map((q) => ({
    doc_id: docId,
    doc_version: version,
    chunk_id: chunkIds.get(q.chunkOrd) ?? null,
    chunk_ord: q.chunkOrd,
    distiller: q.distiller,
    reason: q.reason,
    detail: q.detail.slice(0, 500),
    attempts: q.attempts,
  }));
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx`INSERT INTO pm_distill_quarantine ${tx(rows.slice(i, i + BATCH) as any, "doc_id", "doc_version", "chunk_id", "chunk_ord", "distiller", "reason", "detail", "attempts")}`;
  }
  return rows.length;
}

/** The merges a write made, with the atoms on both sides. */
export function mergesOf(w: WriteOutcome): IngestCommit["merges"] {
  return w.mergeIds.flatMap((mergeId, i) =>
    mergeId === undefined ? [] : [{ mergeId, keptAtomId: w.atomIds[i], absorbedAtomId: w.ownIds[i] }],
  );
}

/** Applies an {@link IngestPlan} inside the given transaction. */
export async function commitIngestTx(tx: Tx, plan: IngestPlan): Promise<IngestCommit> {
  const doc = await upsertDocument(tx, plan);
  if (!doc) {
    const [row] = await tx`SELECT id, version FROM pm_document WHERE uri = ${plan.document.uri}`;
    return {
      docId: Number(row.id),
      version: Number(row.version),
      unchanged: true,
      atomsCreated: 0,
      atomsExisting: 0,
      atomsMerged: 0,
      citationsAdded: 0,
      linksAdded: 0,
      atomsStaled: 0,
      atomsRevived: 0,
      chunksQuarantined: 0,
      atomIds: [],
      merges: [],
    };
  }
  const chunkIds = await insertChunks(tx, plan, doc.id, doc.version);
  const w = await writePlannedAtoms(tx, plan.atoms, {
    docId: doc.id,
    docVersion: doc.version,
    chunkIds,
    model: plan.model,
  });
  await writeAtomTimes(tx, plan.atoms, w.ownIds);
  const quarantined = await insertQuarantine(tx, plan, doc.id, doc.version, chunkIds);
  const staled = await staleOldAtoms(tx, doc.id, doc.version);
  const revived = await reviveAtoms(tx, [...new Set(w.atomIds)]);
  await enqueueOutbox(tx, "document", [doc.id], "upsert");
  await enqueueOutbox(tx, "atom", [...staled, ...revived], "upsert");
  return {
    docId: doc.id,
    version: doc.version,
    unchanged: false,
    atomsCreated: w.counts.created,
    atomsExisting: w.counts.existing,
    atomsMerged: w.counts.merged,
    citationsAdded: w.citationsAdded,
    linksAdded: w.linksAdded,
    atomsStaled: staled.length,
    atomsRevived: revived.length,
    chunksQuarantined: quarantined,
    atomIds: [...new Set(w.atomIds)],
    merges: mergesOf(w),
  };
}

/** The text an ingest plan writes, in UTF-16 code units (≈ bytes for the disk-space check): chunks and atoms. */
export function planBytes(plan: IngestPlan): number {
  let n = 0;
  for (const c of plan.chunks) n += c.text.length;
  for (const a of plan.atoms) n += a.atom.claim.length + a.atom.content.length + a.atom.vector.length * 4;
  return n;
}
