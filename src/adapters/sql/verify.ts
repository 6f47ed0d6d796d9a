/**
 * Verification SQL (issue 4 item 4), shared by PostgreSQL and PGlite: choosing the atoms to verify, reading them
 * with their evidence documents, applying one verification step (status changes recorded in
 * pm_atom_status_change, `contradicts` links, confidence raises and outbox rows, in one transaction), reverting a
 * recorded change, and reading an atom's status history.
 */
import type { Sql, TransactionSql } from "postgres";
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import { PegasError, invalidInput } from "../../errors.ts";
import type { DocumentKind } from "../../domain/locator.ts";
import type {
  RevertApplied,
  StatusChangeRecord,
  VerificationApplied,
  VerificationSelection,
  VerificationTargets,
  VerificationWrite,
  VerifySubject,
} from "../../ports/store/verification.ts";
import type { SqlLike } from "./database.ts";
import { dropSupersedesLinksTx } from "./knowledge/supersession.ts";
import { enqueueOutbox } from "./knowledge/table-writes.ts";

type Tx = TransactionSql<any>;

const iso = (v: unknown): string => new Date(v as string).toISOString();

/** Maps a pm_atom_status_change row (jsonb evidence, timestamptz) to a {@link StatusChangeRecord}. */
export function changeRecord(r: Record<string, unknown>): StatusChangeRecord {
  const evidence = Array.isArray(r.evidence)
    ? r.evidence
    : typeof r.evidence === "string"
      ? JSON.parse(r.evidence)
      : [];
  return {
    id: Number(r.id),
    atom_id: Number(r.atom_id),
    from_status: r.from_status as AtomStatus,
    to_status: r.to_status as AtomStatus,
    reason: String(r.reason),
    evidence: (evidence as unknown[]).map(Number),
    actor: String(r.actor),
    reverts: r.reverts === null || r.reverts === undefined ? null : Number(r.reverts),
    reverted_at: r.reverted_at ? iso(r.reverted_at) : null,
    created_at: iso(r.created_at),
  };
}

/** Atom ids to verify (see {@link VerificationSelection}). @throws PegasError NOT_FOUND for an unknown atom or document. */
export async function verificationTargets(sql: Sql<any>, sel: VerificationSelection): Promise<VerificationTargets> {
  if (sel.atomId !== undefined) {
    const rows = await sql`SELECT id FROM pm_atom WHERE id = ${sel.atomId}`;
    if (!rows.length)
      throw new PegasError("NOT_FOUND", `no atom '${sel.atomId}'`, { hint: "call memory_search to list atom ids" });
    return { ids: [sel.atomId], total: 1 };
  }
  if (sel.docId !== undefined) {
    const docs = await sql`SELECT id FROM pm_document WHERE id = ${sel.docId}`;
    if (!docs.length)
      throw new PegasError("NOT_FOUND", `no document '${sel.docId}'`, {
        hint: "memory_search hits and memory_ingest results name document ids",
      });
    const docId = sel.docId;
    // A document's atoms: those it produced and those it cites (ingest adds a citation to an existing atom).
    const of = () => sql`a.status IN ('candidate', 'verified', 'contested')
      AND (a.doc_id = ${docId} OR EXISTS (SELECT 1 FROM pm_citation c WHERE c.atom_id = a.id AND c.doc_id = ${docId}))`;
    const rows = await sql`SELECT a.id FROM pm_atom a WHERE ${of()} ORDER BY a.id LIMIT ${sel.limit}`;
    const [n] = await sql`SELECT count(*) AS n FROM pm_atom a WHERE ${of()}`;
    return { ids: rows.map((r) => Number(r.id)), total: Number(n.n) };
  }
  // Never-checked candidates first (oldest first), then those checked longest ago; `total` counts the unchecked.
  const rows = await sql`
    SELECT a.id FROM pm_atom a LEFT JOIN pm_atom_check k ON k.atom_id = a.id
     WHERE a.status = 'candidate' ORDER BY k.checked_at NULLS FIRST, a.created_at, a.id LIMIT ${sel.limit}`;
  const [n] = await sql`
    SELECT count(*) AS n FROM pm_atom a WHERE a.status = 'candidate' AND NOT EXISTS (SELECT 1 FROM pm_atom_check k WHERE k.atom_id = a.id)`;
  return { ids: rows.map((r) => Number(r.id)), total: Math.max(Number(n.n), rows.length) };
}

/** Atoms with their evidence documents (active documents citing them, and their own document), in the order of `ids`. */
export async function verificationSubjects(sql: SqlLike, ids: number[]): Promise<VerifySubject[]> {
  if (!ids.length) return [];
  const rows = await sql`
    SELECT a.id, a.type, a.claim, a.content, a.lang, a.status, a.confidence, a.doc_id,
           CASE WHEN jsonb_typeof(a.metadata->'confidence_prior') = 'number' THEN (a.metadata->>'confidence_prior')::real END AS prior,
           COALESCE((SELECT json_agg(json_build_object('docId', d.id, 'uri', d.uri, 'kind', d.kind, 'authority', d.authority) ORDER BY d.id)
                       FROM pm_document d
                      WHERE d.status = 'active'
                        AND (d.id = a.doc_id OR d.id IN (SELECT c.doc_id FROM pm_citation c WHERE c.atom_id = a.id))), '[]'::json) AS sources,
           ARRAY(SELECT CASE WHEN m.kept_atom_id = a.id THEN m.absorbed_atom_id ELSE m.kept_atom_id END FROM pm_atom_merge m
                  WHERE m.undone_at IS NOT NULL AND (m.kept_atom_id = a.id OR m.absorbed_atom_id = a.id)) AS kept_apart,
           ARRAY(SELECT DISTINCT jsonb_array_elements_text(h.evidence)::bigint FROM pm_atom_status_change h
                  WHERE h.atom_id = a.id AND h.to_status = 'contested' AND h.reverted_at IS NOT NULL) AS not_contradicting
      FROM pm_atom a WHERE a.id = ANY(${ids}::bigint[])`;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const sources = (r.sources as Array<Record<string, unknown>>).map((s) => ({
      docId: Number(s.docId),
      uri: String(s.uri),
      kind: s.kind as DocumentKind,
      authority: Number(s.authority),
    }));
    return [
      {
        id,
        type: r.type as AtomType,
        claim: String(r.claim),
        content: String(r.content),
        lang: String(r.lang),
        status: r.status as AtomStatus,
        confidence: Number(r.confidence),
        prior: r.prior === null ? Number(r.confidence) : Number(r.prior),
        docId: r.doc_id === null ? null : Number(r.doc_id),
        sources,
        keptApart: (r.kept_apart as unknown[]).map(Number),
        notContradicting: (r.not_contradicting as unknown[]).map(Number),
      },
    ];
  });
}

/** Appends an `atom` outbox row carrying the atom's current status and confidence. */
async function outboxAtoms(tx: Tx, ids: Iterable<number>): Promise<void> {
  const list = [...new Set(ids)];
  if (!list.length) return;
  const rows = await tx`SELECT id, status, confidence FROM pm_atom WHERE id = ANY(${list}::bigint[]) ORDER BY id`;
  for (const r of rows) {
    const payload = { status: String(r.status), confidence: Number(r.confidence) };
    await tx`INSERT INTO pm_outbox (entity_type, entity_id, op, payload) VALUES ('atom', ${String(r.id)}, 'upsert', ${tx.json(payload)})`;
  }
}

/** Inserts one status change row and returns it. */
async function recordChange(
  tx: Tx,
  c: { atomId: number; from: string; to: string; reason: string; evidence: number[]; actor: string; reverts?: number },
): Promise<StatusChangeRecord> {
  const [row] = await tx`
    INSERT INTO pm_atom_status_change (atom_id, from_status, to_status, reason, evidence, actor, reverts)
    VALUES (${c.atomId}, ${c.from}, ${c.to}, ${c.reason}, ${tx.json(c.evidence)}, ${c.actor}, ${c.reverts ?? null})
    RETURNING *`;
  return changeRecord(row);
}

/** Adds the links that do not exist yet (same kind, either direction); returns the new link ids. */
async function addLinks(tx: Tx, links: VerificationWrite["links"], source: string): Promise<number[]> {
  const added: number[] = [];
  for (const l of links) {
    if (l.src === l.dst) continue;
    const out = await tx`
      INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind, confidence, source)
      SELECT ${l.src}, ${l.dst}, ${l.kind}, ${l.confidence}, ${source}
       WHERE NOT EXISTS (SELECT 1 FROM pm_atom_link k WHERE k.kind = ${l.kind}
                           AND ((k.src_atom_id = ${l.src} AND k.dst_atom_id = ${l.dst}) OR (k.src_atom_id = ${l.dst} AND k.dst_atom_id = ${l.src})))
      ON CONFLICT (src_atom_id, dst_atom_id, kind) DO NOTHING RETURNING id`;
    if (out.length) added.push(Number(out[0].id));
  }
  return added;
}

/**
 * Applies one verification step in the given transaction: locks the atoms involved, applies each status change
 * whose `from` still holds (recording it), adds links, raises confidences, and appends outbox rows for every atom
 * and link it changed.
 */
export async function applyVerificationTx(tx: Tx, w: VerificationWrite): Promise<VerificationApplied> {
  const ids = [
    ...new Set([
      ...w.changes.map((c) => c.atomId),
      ...w.confidence.map((c) => c.atomId),
      ...w.links.flatMap((l) => [l.src, l.dst]),
    ]),
  ];
  const locked = ids.length
    ? await tx`SELECT id, status FROM pm_atom WHERE id = ANY(${ids}::bigint[]) ORDER BY id FOR UPDATE`
    : [];
  const status = new Map(locked.map((r) => [Number(r.id), r.status as AtomStatus]));
  const out: VerificationApplied = { changes: [], skipped: [], linksAdded: 0, confidenceRaised: [] };
  const touched = new Set<number>();
  for (const c of w.changes) {
    const actual = status.get(c.atomId) ?? null;
    if (actual !== c.from) {
      out.skipped.push({ atomId: c.atomId, expected: c.from, actual });
      continue;
    }
    await tx`UPDATE pm_atom SET status = ${c.to} WHERE id = ${c.atomId}`;
    status.set(c.atomId, c.to);
    out.changes.push(await recordChange(tx, { ...c, actor: w.actor }));
    touched.add(c.atomId);
  }
  const linkIds = await addLinks(
    tx,
    w.links.filter((l) => status.has(l.src) && status.has(l.dst)),
    w.actor,
  );
  out.linksAdded = linkIds.length;
  for (const c of w.confidence) {
    const raised = await tx`
      UPDATE pm_atom SET confidence = ${c.value},
             metadata = jsonb_set(metadata, '{confidence_prior}', COALESCE(metadata->'confidence_prior', to_jsonb(confidence)))
       WHERE id = ${c.atomId} AND confidence < ${c.value}::real RETURNING id`;
    if (raised.length) {
      out.confidenceRaised.push(c.atomId);
      touched.add(c.atomId);
    }
  }
  if (w.checked) {
    await tx`INSERT INTO pm_atom_check (atom_id, judge) VALUES (${w.checked.atomId}, ${w.checked.judge})
             ON CONFLICT (atom_id) DO UPDATE SET judge = EXCLUDED.judge, checked_at = now()`;
  }
  await outboxAtoms(tx, touched);
  await enqueueOutbox(tx, "atom_link", linkIds, "upsert");
  return out;
}

/**
 * Reverts status change `changeId` in the given transaction: the atom must still have the change's `to_status`.
 * @throws PegasError NOT_FOUND (no such change), INVALID_INPUT (already reverted, or the atom changed since).
 */
export async function revertStatusChangeTx(tx: Tx, changeId: number): Promise<RevertApplied> {
  const [row] = await tx`SELECT * FROM pm_atom_status_change WHERE id = ${changeId} FOR UPDATE`;
  if (!row)
    throw new PegasError("NOT_FOUND", `no status change '${changeId}'`, {
      hint: "memory_verify results and an atom's history name change ids",
    });
  const original = changeRecord(row);
  if (original.actor === "unmerge") {
    throw invalidInput(
      `status change ${changeId} came with undoing a merge and cannot be reverted alone`,
      "store the atom again to merge it anew",
    );
  }
  if (original.reverted_at) {
    const [by] = await tx`SELECT id FROM pm_atom_status_change WHERE reverts = ${changeId} ORDER BY id LIMIT 1`;
    throw invalidInput(
      `status change ${changeId} was already reverted at ${original.reverted_at}${by ? ` (by change ${by.id})` : ""}`,
      "nothing to do; see the atom's history",
    );
  }
  const [atom] = await tx`SELECT status FROM pm_atom WHERE id = ${original.atom_id} FOR UPDATE`;
  if (atom.status !== original.to_status) {
    const [later] =
      await tx`SELECT id, actor, reason FROM pm_atom_status_change WHERE atom_id = ${original.atom_id} AND id > ${changeId} ORDER BY id DESC LIMIT 1`;
    const since = later ? `; change ${later.id} by ${later.actor} (${later.reason}) came after it` : "";
    throw invalidInput(
      `cannot revert status change ${changeId}: atom ${original.atom_id} is now '${atom.status}', not '${original.to_status}' as that change left it${since}`,
      later
        ? `revert the later change ${later.id} first, or leave it`
        : "the status was changed outside the recorded history; leave it",
    );
  }
  await tx`UPDATE pm_atom SET status = ${original.from_status} WHERE id = ${original.atom_id}`;
  await dropSupersedesLinksTx(tx, original); // undoing a supersession removes its `supersedes` link too
  const revert = await recordChange(tx, {
    atomId: original.atom_id,
    from: original.to_status,
    to: original.from_status,
    reason: `revert of change ${changeId}: ${original.reason}`,
    evidence: original.evidence,
    actor: "revert",
    reverts: changeId,
  });
  const [done] = await tx`UPDATE pm_atom_status_change SET reverted_at = now() WHERE id = ${changeId} RETURNING *`;
  await outboxAtoms(tx, [original.atom_id]);
  return { revert, original: changeRecord(done) };
}

/** The atom's recorded status changes, newest first, at most `limit`. @throws PegasError NOT_FOUND for an unknown atom. */
export async function statusHistory(sql: SqlLike, atomId: number, limit: number): Promise<StatusChangeRecord[]> {
  const atom = await sql`SELECT id FROM pm_atom WHERE id = ${atomId}`;
  if (!atom.length)
    throw new PegasError("NOT_FOUND", `no atom '${atomId}'`, { hint: "call memory_search to list atom ids" });
  const rows = await sql`SELECT * FROM pm_atom_status_change WHERE atom_id = ${atomId} ORDER BY id DESC LIMIT ${limit}`;
  return rows.map(changeRecord);
}
