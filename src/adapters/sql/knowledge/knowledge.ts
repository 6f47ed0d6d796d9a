/**
 * SQL of the knowledge layer that is not part of one ingest: batched text analysis and embedding reads for dedup,
 * undoing a near-duplicate merge, and the distillation quarantine (open entries, retries that succeed or fail).
 */
import type { Sql, TransactionSql } from "postgres";
import { parseTsvector, type LexemeTf } from "../../../domain/tsvector.ts";
import { PegasError, invalidInput } from "../../../errors.ts";
import type { AtomType } from "../../../domain/atom.ts";
import type { DedupCandidate, MergeRecord } from "../../../ports/store/atom-writes.ts";
import type { IngestCommit, QuarantineResolution, QuarantinedChunk } from "../../../ports/store/ingest.ts";
import type { Locator } from "../../../domain/locator.ts";
import type { SqlLike } from "../database.ts";
import { writePlannedAtoms } from "./atom-writes.ts";
import { enqueueOutbox } from "./table-writes.ts";
import { mergesOf } from "./ingest-commit.ts";
import { bytesToVector } from "../vector-bytes.ts";

type Tx = TransactionSql<any>;

/** The text form of each text's tsvector under the `pegas` configuration, in input order. */
export async function searchVectors(sql: SqlLike, texts: string[]): Promise<string[]> {
  if (!texts.length) return [];
  const rows = await sql`
    SELECT ord, to_tsvector('pegas', t)::text AS v FROM unnest(${texts}::text[]) WITH ORDINALITY AS x(t, ord) ORDER BY ord`;
  return rows.map((r) => String(r.v));
}

/** Lexemes of each text under the `pegas` configuration, in input order. */
export async function analyzeMany(sql: SqlLike, texts: string[]): Promise<LexemeTf[][]> {
  return (await searchVectors(sql, texts)).map(parseTsvector);
}

/** Stored embeddings of `model` for `atomIds`. */
export async function embeddingsOf(sql: SqlLike, atomIds: number[], model: string): Promise<Map<number, Float32Array>> {
  const out = new Map<number, Float32Array>();
  if (!atomIds.length) return out;
  const rows =
    await sql`SELECT atom_id, vector FROM pm_atom_embedding WHERE model = ${model} AND atom_id = ANY(${atomIds}::bigint[])`;
  for (const r of rows) out.set(Number(r.atom_id), bytesToVector(r.vector as Uint8Array));
  return out;
}

/** Type, content and stored embedding of `model` for each atom that has one (what dedup compares), in one query. */
export async function dedupCandidates(sql: SqlLike, atomIds: number[], model: string): Promise<DedupCandidate[]> {
  if (!atomIds.length) return [];
  const rows = await sql`
    SELECT a.id, a.type, a.content, e.vector FROM pm_atom a JOIN pm_atom_embedding e ON e.atom_id = a.id AND e.model = ${model}
     WHERE a.id = ANY(${atomIds}::bigint[])`;
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type as AtomType,
    content: String(r.content),
    vector: bytesToVector(r.vector as Uint8Array),
  }));
}

function mergeRecord(r: Record<string, unknown>): MergeRecord {
  return {
    id: Number(r.id),
    keptAtomId: Number(r.kept_atom_id),
    absorbedAtomId: Number(r.absorbed_atom_id),
    cosine: r.cosine === null ? null : Number(r.cosine),
    reason: String(r.reason),
    undoneAt: r.undone_at ? new Date(r.undone_at as string).toISOString() : null,
  };
}

/**
 * Undoes merge `mergeId` in one transaction: the absorbed atom goes back from `stale` to `candidate`, the citation the
 * merge copied onto the kept atom is removed, and the kept atom, whose evidence just shrank, loses what verification
 * built on it (`verified` → `candidate`, confidence back to its prior) and is queued for verification again. Both
 * status changes are recorded (actor `unmerge`); the merge is marked undone.
 * @throws PegasError NOT_FOUND (no such merge), INVALID_INPUT (already undone, or the absorbed atom is no longer stale).
 */
export async function undoMerge(sql: Sql<any>, mergeId: number): Promise<MergeRecord> {
  return sql.begin(async (tx: Tx) => {
    const [m] = await tx`SELECT * FROM pm_atom_merge WHERE id = ${mergeId} FOR UPDATE`;
    if (!m)
      throw new PegasError("NOT_FOUND", `no merge #${mergeId}`, {
        hint: "memory_store and memory_ingest report merge ids",
      });
    if (m.undone_at) throw invalidInput(`merge #${mergeId} was already undone`);
    const absorbed = Number(m.absorbed_atom_id);
    const kept = Number(m.kept_atom_id);
    const [a] = await tx`SELECT status FROM pm_atom WHERE id = ${absorbed} FOR UPDATE`;
    if (a?.status !== "stale")
      throw invalidInput(
        `atom ${absorbed} absorbed by merge #${mergeId} is '${a?.status}' now, not 'stale'`,
        "undo the later change first",
      );
    await tx`UPDATE pm_atom SET status = 'candidate' WHERE id = ${absorbed}`;
    await recordUnmerge(tx, absorbed, "stale", `merge #${mergeId} undone`, [kept]);
    if (m.citation_id !== null) await tx`DELETE FROM pm_citation WHERE id = ${m.citation_id}`;
    const [k] = await tx`SELECT status FROM pm_atom WHERE id = ${kept} FOR UPDATE`;
    await tx`
      UPDATE pm_atom SET status = CASE WHEN status = 'verified' THEN 'candidate' ELSE status END,
             confidence = COALESCE((metadata->>'confidence_prior')::real, confidence), metadata = metadata - 'confidence_prior'
       WHERE id = ${kept}`;
    if (k?.status === "verified")
      await recordUnmerge(
        tx,
        kept,
        "verified",
        `merge #${mergeId} undone: its evidence changed, to be verified again`,
        [absorbed],
      );
    await tx`DELETE FROM pm_atom_check WHERE atom_id = ANY(${[kept, absorbed]}::bigint[])`;
    const [done] = await tx`UPDATE pm_atom_merge SET undone_at = now() WHERE id = ${mergeId} RETURNING *`;
    await enqueueOutbox(tx, "atom", [absorbed, kept], "upsert");
    return mergeRecord(done);
  }) as Promise<MergeRecord>;
}

async function recordUnmerge(tx: Tx, atomId: number, from: string, reason: string, evidence: number[]): Promise<void> {
  await tx`INSERT INTO pm_atom_status_change (atom_id, from_status, to_status, reason, evidence, actor)
           VALUES (${atomId}, ${from}, 'candidate', ${reason}, ${tx.json(evidence)}, 'unmerge')`;
}

/** Open quarantine entries of the documents' current versions, oldest first (optionally of one document: NOT_FOUND when it does not exist). */
export async function openQuarantine(sql: SqlLike, limit: number, docId?: number): Promise<QuarantinedChunk[]> {
  if (docId !== undefined && !(await sql`SELECT 1 FROM pm_document WHERE id = ${docId}`).length) {
    throw new PegasError("NOT_FOUND", `no document '${docId}'`, {
      hint: "memory_ingest results and memory_search hits name document ids",
    });
  }
  const rows = await sql`
    SELECT q.id, q.doc_id, q.doc_version, q.chunk_ord, q.distiller, q.reason, q.attempts, c.text, c.locator,
           d.title, d.metadata->>'lang' AS lang
      FROM pm_distill_quarantine q
      JOIN pm_document d ON d.id = q.doc_id AND d.version = q.doc_version AND d.status = 'active'
      JOIN pm_chunk c ON c.id = q.chunk_id
     WHERE q.resolved_at IS NULL AND (${docId ?? null}::bigint IS NULL OR q.doc_id = ${docId ?? null}::bigint)
     ORDER BY q.id LIMIT ${limit}`;
  return rows.map((r) => ({
    id: Number(r.id),
    docId: Number(r.doc_id),
    docVersion: Number(r.doc_version),
    chunkOrd: Number(r.chunk_ord),
    chunkText: String(r.text),
    locator: r.locator as Locator,
    lang: (r.lang as string | null) ?? "und",
    title: (r.title as string | null) ?? null,
    distiller: String(r.distiller),
    reason: String(r.reason),
    attempts: Number(r.attempts),
  }));
}

/**
 * Stores a successful retry's atoms against the quarantined chunk and closes the entry, in one transaction.
 * @throws PegasError NOT_FOUND when the entry is gone or already resolved (another process retried it).
 */
export async function resolveQuarantine(sql: Sql<any>, res: QuarantineResolution): Promise<IngestCommit> {
  return sql.begin(async (tx: Tx) => {
    const [q] =
      await tx`SELECT * FROM pm_distill_quarantine WHERE id = ${res.quarantineId} AND resolved_at IS NULL FOR UPDATE`;
    if (!q)
      throw new PegasError("NOT_FOUND", `no open quarantine entry #${res.quarantineId}`, {
        hint: "another process may have retried it",
      });
    const docId = Number(q.doc_id);
    const version = Number(q.doc_version);
    const chunkIds = new Map<number, number>(q.chunk_id === null ? [] : [[Number(q.chunk_ord), Number(q.chunk_id)]]);
    const w = await writePlannedAtoms(tx, res.atoms, { docId, docVersion: version, chunkIds, model: res.model });
    await tx`UPDATE pm_distill_quarantine SET resolved_at = now(), updated_at = now(), attempts = attempts + 1 WHERE id = ${res.quarantineId}`;
    return {
      docId,
      version,
      unchanged: false,
      atomsCreated: w.counts.created,
      atomsExisting: w.counts.existing,
      atomsMerged: w.counts.merged,
      citationsAdded: w.citationsAdded,
      linksAdded: w.linksAdded,
      atomsStaled: 0,
      atomsRevived: 0,
      chunksQuarantined: 0,
      atomsSuperseded: 0,
      atomIds: [...new Set(w.atomIds)],
      merges: mergesOf(w),
    };
  }) as Promise<IngestCommit>;
}

/** Records a failed retry of a quarantine entry. */
export async function failQuarantine(sql: SqlLike, id: number, reason: string, detail: string): Promise<void> {
  await sql`UPDATE pm_distill_quarantine SET attempts = attempts + 1, reason = ${reason}, detail = ${detail.slice(0, 500)}, updated_at = now()
             WHERE id = ${id} AND resolved_at IS NULL`;
}
