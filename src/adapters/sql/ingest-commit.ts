/**
 * The write side of an ingest: one transaction that registers the document version, its chunks, the new atoms
 * with their embeddings, a citation for every atom (new, existing or near-duplicate) and the outbox rows.
 * Idempotent: re-running a committed plan writes nothing new (unique keys with ON CONFLICT DO NOTHING).
 */
import type { TransactionSql } from "postgres";
import { sha256Hex } from "../../domain/hash.ts";
import type { AtomInput, CitationInput, IngestCommit, IngestPlan } from "../../ports/canonical-store.ts";
import { vectorToBytes } from "./vector-bytes.ts";

type Tx = TransactionSql<any>;

const BATCH = 500;

/** Stable key of a citation, so that the same evidence is never cited twice. */
export function citationKey(docId: number, docVersion: number, c: Pick<CitationInput, "locator" | "quote">): string {
  return sha256Hex(JSON.stringify([docId, docVersion, c.locator, c.quote]));
}

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
 * Inserts atoms by content hash (concurrency-safe exact dedup) and returns hash → id for all of them, plus the
 * set of ids created by this call. Full-text vectors are computed by PostgreSQL (`pegas` configuration).
 */
export async function insertAtoms(tx: Tx, atoms: AtomInput[], docId: number | null): Promise<{ ids: Map<string, number>; created: Set<number> }> {
  const ids = new Map<string, number>();
  const created = new Set<number>();
  for (let i = 0; i < atoms.length; i += BATCH) {
    const part = atoms.slice(i, i + BATCH);
    const inserted = await tx`
      INSERT INTO pm_atom (type, claim, content, content_hash, confidence, doc_id, lang, metadata, search_tsv)
      SELECT t, cl, co, h, cf, ${docId}::bigint, lg, md::jsonb, to_tsvector('pegas', st)
        FROM unnest(${part.map((a) => a.type)}::text[], ${part.map((a) => a.claim)}::text[],
                    ${part.map((a) => a.content)}::text[], ${part.map((a) => a.contentHash)}::text[],
                    ${part.map((a) => a.confidence)}::real[], ${part.map((a) => a.lang)}::text[],
                    ${part.map((a) => JSON.stringify(a.metadata))}::text[], ${part.map((a) => a.searchText)}::text[])
             AS x(t, cl, co, h, cf, lg, md, st)
      ON CONFLICT (content_hash) DO NOTHING
      RETURNING id, content_hash`;
    for (const r of inserted) {
      ids.set(String(r.content_hash), Number(r.id));
      created.add(Number(r.id));
    }
    const missing = part.map((a) => a.contentHash).filter((h) => !ids.has(h));
    if (missing.length) {
      const existing = await tx`SELECT id, content_hash FROM pm_atom WHERE content_hash = ANY(${missing}::text[])`;
      for (const r of existing) ids.set(String(r.content_hash), Number(r.id));
    }
  }
  return { ids, created };
}

/** Stores the canonical embeddings of newly created atoms. */
export async function insertEmbeddings(tx: Tx, rows: Array<{ atomId: number; vector: Float32Array }>, model: string): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = rows.slice(i, i + BATCH).map((r) => ({ atom_id: r.atomId, model, dim: r.vector.length, vector: vectorToBytes(r.vector) }));
    await tx`INSERT INTO pm_atom_embedding ${tx(values as any, "atom_id", "model", "dim", "vector")}
             ON CONFLICT (atom_id, model) DO NOTHING`;
  }
}

/** Appends outbox rows for the external projections. */
export async function enqueueOutbox(tx: Tx, entityType: string, ids: number[], op: "upsert" | "delete"): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) {
    const values = ids.slice(i, i + BATCH).map((id) => ({ entity_type: entityType, entity_id: String(id), op }));
    await tx`INSERT INTO pm_outbox ${tx(values as any, "entity_type", "entity_id", "op")}`;
  }
}

async function insertCitations(tx: Tx, rows: Array<Record<string, unknown>>): Promise<number> {
  let added = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const out = await tx`
      INSERT INTO pm_citation ${tx(rows.slice(i, i + BATCH) as any, "atom_id", "doc_id", "chunk_id", "doc_version", "locator", "quoted_text", "citation_key")}
      ON CONFLICT (atom_id, citation_key) DO NOTHING RETURNING id`;
    added += out.length;
  }
  return added;
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
  const rows = await tx`UPDATE pm_atom SET status = 'candidate' WHERE id = ANY(${atomIds}::bigint[]) AND status = 'stale' RETURNING id`;
  return rows.map((r) => Number(r.id));
}

/** Per planned atom: new (first occurrence of an atom created now), existing, or near-duplicate; they sum to the plan. */
function tally(plan: IngestPlan, atomIds: number[], created: Set<number>): { created: number; existing: number; near: number } {
  const counted = new Set<number>();
  const out = { created: 0, existing: 0, near: 0 };
  plan.atoms.forEach((p, i) => {
    if (p.duplicateOf !== undefined || p.duplicateOfPlanned !== undefined) out.near++;
    else if (created.has(atomIds[i]) && !counted.has(atomIds[i])) out.created++;
    else out.existing++;
    counted.add(atomIds[i]);
  });
  return out;
}

/** Applies an {@link IngestPlan} inside the given transaction. */
export async function commitIngestTx(tx: Tx, plan: IngestPlan): Promise<IngestCommit> {
  const doc = await upsertDocument(tx, plan);
  if (!doc) {
    const [row] = await tx`SELECT id, version FROM pm_document WHERE uri = ${plan.document.uri}`;
    const base = { docId: Number(row.id), version: Number(row.version), unchanged: true };
    return { ...base, atomsCreated: 0, atomsExisting: 0, atomsNearDuplicate: 0, citationsAdded: 0, atomsStaled: 0, atomsRevived: 0, atomIds: [] };
  }
  const chunkIds = await insertChunks(tx, plan, doc.id, doc.version);
  const fresh = plan.atoms.filter((p) => p.duplicateOf === undefined && p.duplicateOfPlanned === undefined);
  const { ids, created } = await insertAtoms(tx, fresh.map((p) => p.atom), doc.id);
  const newVectors = fresh
    .filter((p) => created.has(ids.get(p.atom.contentHash)!))
    .map((p) => ({ atomId: ids.get(p.atom.contentHash)!, vector: p.atom.vector }));
  await insertEmbeddings(tx, newVectors, plan.model);
  const atomIds: number[] = [];
  plan.atoms.forEach((p, i) => {
    atomIds[i] = p.duplicateOf ?? (p.duplicateOfPlanned !== undefined ? atomIds[p.duplicateOfPlanned] : ids.get(p.atom.contentHash)!);
  });
  const citations = plan.atoms.map((p, i) => ({
    atom_id: atomIds[i],
    doc_id: doc.id,
    chunk_id: p.citation.chunkOrd === undefined ? null : (chunkIds.get(p.citation.chunkOrd) ?? null),
    doc_version: doc.version,
    locator: p.citation.locator,
    quoted_text: p.citation.quote,
    citation_key: citationKey(doc.id, doc.version, p.citation),
  }));
  const citationsAdded = await insertCitations(tx, citations);
  const staled = await staleOldAtoms(tx, doc.id, doc.version);
  const revived = await reviveAtoms(tx, [...new Set(atomIds)]);
  await enqueueOutbox(tx, "document", [doc.id], "upsert");
  await enqueueOutbox(tx, "atom", [...created, ...staled, ...revived], "upsert");
  const counts = tally(plan, atomIds, created);
  return {
    docId: doc.id,
    version: doc.version,
    unchanged: false,
    atomsCreated: counts.created,
    atomsExisting: counts.existing,
    atomsNearDuplicate: counts.near,
    citationsAdded,
    atomsStaled: staled.length,
    atomsRevived: revived.length,
    atomIds: [...new Set(atomIds)],
  };
}
