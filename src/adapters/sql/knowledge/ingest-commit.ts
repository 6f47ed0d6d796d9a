/**
 * The write side of an ingest: one transaction that registers the document version, its chunks, the planned atoms
 * with their embeddings, citations, merges and links (atom-writes.ts), the quarantined chunks and the outbox rows.
 * Idempotent: re-running a committed plan writes nothing new (unique keys with ON CONFLICT DO NOTHING).
 */
import type { Sql, TransactionSql } from "postgres";
import type { IngestCommit, IngestPlan } from "../../../ports/store/ingest.ts";
import { writeAtomTimes } from "./atom-times.ts";
import { type WriteOutcome, writePlannedAtoms } from "./atom-writes.ts";
import { analyzeStaleTables } from "../statistics.ts";
import { applySupersessionTx } from "./supersession.ts";
import { enqueueOutbox, insertChunkRows, insertQuarantineRows, upsertDocumentRows } from "./table-writes.ts";

type Tx = TransactionSql<any>;

/**
 * Marks atoms extracted from an older version of the document that the new version no longer contains as `stale`
 * (their provenance is kept). Atoms the agent stored citing this document (citations without a chunk), and atoms
 * that another document still cites, are left alone.
 */
export async function staleOldAtoms(tx: Tx, docId: number, version: number): Promise<number[]> {
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
export async function reviveAtoms(tx: Tx, atomIds: number[]): Promise<number[]> {
  if (!atomIds.length) return [];
  // An atom absorbed by a merge stays stale until the merge is undone.
  const rows = await tx`
    UPDATE pm_atom a SET status = 'candidate'
     WHERE a.id = ANY(${atomIds}::bigint[]) AND a.status = 'stale'
       AND NOT EXISTS (SELECT 1 FROM pm_atom_merge m WHERE m.absorbed_atom_id = a.id AND m.undone_at IS NULL)
    RETURNING a.id`;
  return rows.map((r) => Number(r.id));
}

/** The merges a write made, with the atoms on both sides. */
export function mergesOf(w: WriteOutcome): IngestCommit["merges"] {
  return w.mergeIds.flatMap((mergeId, i) =>
    mergeId === undefined ? [] : [{ mergeId, keptAtomId: w.atomIds[i], absorbedAtomId: w.ownIds[i] }],
  );
}

/** A commit that wrote nothing: the stored version already has this content. */
function unchangedCommit(docId: number, version: number): IngestCommit {
  return {
    docId,
    version,
    unchanged: true,
    atomsCreated: 0,
    atomsExisting: 0,
    atomsMerged: 0,
    citationsAdded: 0,
    linksAdded: 0,
    atomsStaled: 0,
    atomsRevived: 0,
    chunksQuarantined: 0,
    atomsSuperseded: 0,
    atomIds: [],
    merges: [],
  };
}

/** Thrown inside a batch's transaction (rolling it back) when one of its documents is already stored unchanged. */
export class BatchHasUnchanged extends Error {}

/** Resolves null for a batch rolled back by {@link BatchHasUnchanged} (also as a mapped error's cause); rethrows others. */
export function unlessUnchanged(err: unknown): null {
  if (err instanceof BatchHasUnchanged || (err as { cause?: unknown })?.cause instanceof BatchHasUnchanged) return null;
  throw err;
}

/** The commit of plan `p`'s atoms, which are `w`'s positions [from, to). */
export function commitOf(
  w: WriteOutcome,
  from: number,
  to: number,
  doc: { id: number; version: number },
  extra: { staled: number; revived: number; quarantined: number; superseded: number },
): IngestCommit {
  const counts = { created: 0, existing: 0, merged: 0 };
  let citationsAdded = 0;
  let linksAdded = 0;
  for (let i = from; i < to; i++) {
    counts[w.outcomes[i]]++;
    citationsAdded += w.citationsOf[i];
    linksAdded += w.linksOf[i];
  }
  const merges: IngestCommit["merges"] = [];
  for (let i = from; i < to; i++) {
    const mergeId = w.mergeIds[i];
    if (mergeId !== undefined) merges.push({ mergeId, keptAtomId: w.atomIds[i], absorbedAtomId: w.ownIds[i] });
  }
  return {
    docId: doc.id,
    version: doc.version,
    unchanged: false,
    atomsCreated: counts.created,
    atomsExisting: counts.existing,
    atomsMerged: counts.merged,
    citationsAdded,
    linksAdded,
    atomsStaled: extra.staled,
    atomsRevived: extra.revived,
    chunksQuarantined: extra.quarantined,
    atomsSuperseded: extra.superseded,
    atomIds: [...new Set(w.atomIds.slice(from, to))],
    merges,
  };
}

/**
 * Records each plan's supersessions (planned sides resolved to the atoms holding them), after its atoms are written;
 * resolves to the atoms superseded per plan. One whose sides are no longer live is skipped (supersession.ts).
 */
export async function supersedeTx(
  tx: Tx,
  plans: Array<Pick<IngestPlan, "supersessions">>,
  atomIds: number[],
): Promise<number[][]> {
  const idOf = (r: { atomId?: number; planned?: number }) => r.atomId ?? atomIds[r.planned ?? -1];
  const out: number[][] = [];
  for (const p of plans) {
    const done: number[] = [];
    for (const s of p.supersessions ?? []) {
      const [newerId, olderId] = [idOf(s.newer), idOf(s.older)];
      if (newerId === undefined || olderId === undefined) continue;
      const r = await applySupersessionTx(tx, { newerId, olderId, reason: s.reason });
      if (r) done.push(r.olderId);
    }
    out.push(done);
  }
  return out;
}

/**
 * Applies plans inside the given transaction, in few statements whatever their number (one per table for all the
 * documents). The plans' atoms form one list: a planned reference (`mergeInto.planned`, `links[].planned`) indexes
 * the concatenation of every plan's atoms. @throws BatchHasUnchanged when more than one plan is given and one of
 * their documents is stored with the same content (the caller commits them one by one instead).
 */
export async function commitIngestBatchTx(tx: Tx, plans: IngestPlan[]): Promise<IngestCommit[]> {
  const stored = await upsertDocumentRows(
    tx,
    plans.map((p) => p.document),
  );
  const docs = plans.map((p) => stored.get(p.document.uri));
  if (docs.some((d) => !d)) {
    if (plans.length > 1) throw new BatchHasUnchanged();
    const [row] = await tx`SELECT id, version FROM pm_document WHERE uri = ${plans[0].document.uri}`;
    return [unchangedCommit(Number(row.id), Number(row.version))];
  }
  const chunkRows = plans.flatMap((p, k) =>
    p.chunks.map((c) => ({ ...c, docId: docs[k]!.id, docVersion: docs[k]!.version })),
  );
  const chunkIds = await insertChunkRows(tx, chunkRows);
  const ctxs = plans.map((p, k) => ({
    docId: docs[k]!.id,
    docVersion: docs[k]!.version,
    chunkIds: chunkIds.get(docs[k]!.id) ?? new Map<number, number>(),
    model: p.model,
  }));
  const atoms = plans.flatMap((p) => p.atoms);
  const w = await writePlannedAtoms(
    tx,
    atoms,
    plans.flatMap((p, k) => p.atoms.map(() => ctxs[k])),
  );
  await writeAtomTimes(tx, atoms, w.ownIds);
  const revived = new Set(await reviveAtoms(tx, [...new Set(w.atomIds)]));
  const superseded = await supersedeTx(tx, plans, w.atomIds);
  const out: IngestCommit[] = [];
  const changed: number[] = [];
  let from = 0;
  for (const [k, p] of plans.entries()) {
    const doc = docs[k]!;
    const to = from + p.atoms.length;
    const quarantined = await insertQuarantineRows(tx, doc.id, doc.version, p.quarantine ?? [], ctxs[k].chunkIds);
    const staled = await staleOldAtoms(tx, doc.id, doc.version);
    const own = new Set(w.atomIds.slice(from, to));
    const revivedHere = [...revived].filter((id) => own.has(id));
    changed.push(...staled, ...revivedHere);
    const extra = { staled: staled.length, revived: revivedHere.length, quarantined, superseded: superseded[k].length };
    out.push(commitOf(w, from, to, doc, extra));
    from = to;
  }
  await enqueueOutbox(
    tx,
    "document",
    docs.map((d) => d!.id),
    "upsert",
  );
  await enqueueOutbox(tx, "atom", changed, "upsert");
  return out;
}

/** Applies an {@link IngestPlan} inside the given transaction. */
export async function commitIngestTx(tx: Tx, plan: IngestPlan): Promise<IngestCommit> {
  return (await commitIngestBatchTx(tx, [plan]))[0];
}

/** The text an ingest plan writes, in UTF-16 code units (≈ bytes for the disk-space check): chunks and atoms. */
export function planBytes(plan: IngestPlan): number {
  let n = 0;
  for (const c of plan.chunks) n += c.text.length;
  for (const a of plan.atoms) n += a.atom.claim.length + a.atom.content.length + a.atom.vector.length * 4;
  return n;
}

/** The tables an ingest writes and its lookups read, whose statistics {@link refreshIngestStatistics} keeps fresh. */
const INGEST_TABLES = [
  "pm_document",
  "pm_chunk",
  "pm_atom",
  "pm_atom_embedding",
  "pm_citation",
  "pm_atom_link",
  "pm_atom_merge",
];

/** Rows this process wrote since it last looked at the statistics, and how many wait for the next look. */
let rowsSinceCheck = 0;
const CHECK_EVERY_ROWS = 1000;

/**
 * ANALYZEs the ingest tables that changed by a fifth since their last ANALYZE (statistics.ts), looked at once per
 * {@link CHECK_EVERY_ROWS} rows this process wrote: without it dedup's candidate lookup (48 ids joined to their
 * embeddings) was planned as a hash join over every embedding, and a directory ingest's cost per file grew with the
 * store (1.2 → 6.0 CPU-s per 1,000 files from 0 to 4,000 files stored).
 */
export async function refreshIngestStatistics(sql: Sql<any>, rowsWritten: number): Promise<string[]> {
  rowsSinceCheck += rowsWritten;
  if (rowsSinceCheck < CHECK_EVERY_ROWS) return [];
  rowsSinceCheck = 0;
  return analyzeStaleTables(sql, INGEST_TABLES);
}

/** Rows an applied plan wrote (for {@link refreshIngestStatistics}). */
export function rowsOf(plan: IngestPlan, commit: IngestCommit): number {
  return commit.unchanged ? 0 : plan.chunks.length + plan.atoms.length * 3 + commit.linksAdded;
}
