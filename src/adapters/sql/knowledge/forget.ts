/**
 * memory_forget's writes, each in one transaction: atoms become `retracted` (a tombstone: kept for audit, hidden
 * from search, context and the graph), every change recorded in `pm_atom_status_change` (actor `forget`, the
 * reason, when), the atoms and all their links (atom links in both directions, atom–symbol links) queued to the
 * outbox so the projections withdraw them (the worker resolves the current state: an edge with a retracted
 * endpoint is deleted). A document is forgotten with its atoms (those distilled from it) and marked `retracted`.
 * Undo restores each atom's status from before its forget (recorded as a change with actor `forget-undo` that
 * `reverts` the forget) and re-queues the same rows. Inferred edges follow (truth maintenance, inference-tms.ts):
 * a forget retracts what was derived from the atoms' links or rules, an undo derives it again. A research gap whose
 * answering atoms are all retracted (none verified) is open again.
 * Set-based: a few statements for any number of atoms.
 */
import type { TransactionSql } from "postgres";
import { PegasError } from "../../../errors.ts";
import type { StatusChangeRecord } from "../../../ports/store/verification.ts";
import { propagateFromNodes, retractForAtoms } from "../inference/tms.ts";
import { changeRecord } from "../verify.ts";

/** Bounds of the re-derivation after an undo: memory_infer's defaults (50 rounds, 100,000 edges). */
const UNDO_LIMITS = { maxIterations: 50, maxNewEdges: 100_000 };

type Tx = TransactionSql<any>;

/** What a forget or its undo changed. */
export interface ForgetApplied {
  /** The recorded status changes (one per atom changed). */
  changes: StatusChangeRecord[];
  /** Atoms asked for that were left as they were: already retracted (forget) or not forgotten (undo). */
  unchanged: number[];
  /** Links queued to the outbox (their projections are withdrawn, or restored on undo). */
  links: number;
  /** Research gaps open again because the atoms that answered them were retracted (forget only). */
  gapsReopened?: number[];
}

/** Queues the atoms, every link touching them and their entity mentions; returns the number of links. */
async function enqueueAtomsAndLinks(tx: Tx, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  await tx`
    INSERT INTO pm_outbox (entity_type, entity_id, op, payload)
    SELECT 'atom', id::text, 'upsert', jsonb_build_object('status', status, 'confidence', confidence)
      FROM pm_atom WHERE id = ANY(${ids}::bigint[]) ORDER BY id`;
  // The links are counted as read, not as queued: an outbox row no projection reads is never stored (migration 13,
  // whose rule also forbids RETURNING on pm_outbox).
  const [a] = await tx`
    WITH l AS MATERIALIZED (
      SELECT id FROM pm_atom_link WHERE src_atom_id = ANY(${ids}::bigint[]) OR dst_atom_id = ANY(${ids}::bigint[])),
    q AS (INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT 'atom_link', id::text, 'upsert' FROM l)
    SELECT count(*)::int AS n FROM l`;
  const [s] = await tx`
    WITH l AS MATERIALIZED (SELECT id FROM pm_atom_symbol_link WHERE atom_id = ANY(${ids}::bigint[])),
    q AS (INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT 'atom_symbol_link', id::text, 'upsert' FROM l)
    SELECT count(*)::int AS n FROM l`;
  // Their entity mentions too (not counted as links): an undo brings their `mentions` edges back to the graph.
  await tx`INSERT INTO pm_outbox (entity_type, entity_id, op)
           SELECT 'entity_mention', id::text, 'upsert' FROM pm_entity_mention WHERE atom_id = ANY(${ids}::bigint[])`;
  return Number(a.n) + Number(s.n);
}

/**
 * Retracts the atoms `ids` that are not retracted yet, recording `reason` with `actor`.
 * @throws PegasError NOT_FOUND when an id names no atom.
 */
export async function forgetAtomsTx(tx: Tx, ids: number[], reason: string, actor = "forget"): Promise<ForgetApplied> {
  const unique = [...new Set(ids)];
  const locked = await tx`SELECT id, status FROM pm_atom WHERE id = ANY(${unique}::bigint[]) ORDER BY id FOR UPDATE`;
  const found = new Set(locked.map((r) => Number(r.id)));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length)
    throw new PegasError("NOT_FOUND", `no atom '${missing[0]}'`, { hint: "call memory_search to list atom ids" });
  const rows = await tx`
    WITH target AS (SELECT id, status FROM pm_atom WHERE id = ANY(${unique}::bigint[]) AND status <> 'retracted'),
         upd AS (UPDATE pm_atom a SET status = 'retracted' FROM target t WHERE a.id = t.id RETURNING a.id, t.status AS from_status)
    INSERT INTO pm_atom_status_change (atom_id, from_status, to_status, reason, evidence, actor)
    SELECT id, from_status, 'retracted', ${reason}, '[]'::jsonb, ${actor} FROM upd ORDER BY id
    RETURNING *`;
  const changes = rows.map(changeRecord);
  const changed = changes.map((c) => c.atom_id);
  const done = new Set(changed);
  await retractForAtoms(tx, changed); // inferred edges that depended on their links or rules (inference-tms.ts)
  const gapsReopened = await reopenGaps(tx, changed);
  return {
    changes,
    unchanged: unique.filter((id) => !done.has(id)),
    links: await enqueueAtomsAndLinks(tx, changed),
    gapsReopened,
  };
}

/**
 * Research gaps answered by atoms just retracted become open again, when none of their answering atoms is still
 * `verified`; the reopening is recorded in the gap's metadata (`reopened`). Returns the gap ids.
 */
async function reopenGaps(tx: Tx, retracted: number[]): Promise<number[]> {
  if (!retracted.length) return [];
  const rows = await tx`
    UPDATE pm_research_gap g SET status = 'open', updated_at = now(),
           metadata = jsonb_set(g.metadata, '{reopened}', COALESCE(g.metadata->'reopened', '[]'::jsonb) ||
             jsonb_build_array(jsonb_build_object('at', now(), 'reason', 'its answering atoms were retracted', 'answer', g.metadata->'answer')))
     WHERE g.status = 'answered' AND jsonb_typeof(g.metadata->'answer'->'atom_ids') = 'array'
       AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(g.metadata->'answer'->'atom_ids') x(id) WHERE x.id::bigint = ANY(${retracted}::bigint[]))
       AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(g.metadata->'answer'->'atom_ids') x(id)
                         JOIN pm_atom a ON a.id = x.id::bigint WHERE a.status = 'verified')
    RETURNING g.id`;
  return rows.map((r) => Number(r.id));
}

/**
 * Undoes the forgetting of the atoms `ids`: each atom that is `retracted` by an unreverted forget change goes back
 * to the status that change left; others are reported unchanged. @throws PegasError NOT_FOUND for an unknown atom.
 */
export async function unforgetAtomsTx(tx: Tx, ids: number[], reason: string): Promise<ForgetApplied> {
  const unique = [...new Set(ids)];
  const locked = await tx`SELECT id FROM pm_atom WHERE id = ANY(${unique}::bigint[]) ORDER BY id FOR UPDATE`;
  if (locked.length !== unique.length) {
    const found = new Set(locked.map((r) => Number(r.id)));
    throw new PegasError("NOT_FOUND", `no atom '${unique.find((id) => !found.has(id))}'`, {
      hint: "call memory_search to list atom ids",
    });
  }
  // The latest change of each atom, when it is an unreverted forget and the atom is still retracted.
  const rows = await tx`
    WITH last AS (
      SELECT DISTINCT ON (c.atom_id) c.id, c.atom_id, c.from_status, c.actor, c.reverted_at, c.reason
        FROM pm_atom_status_change c WHERE c.atom_id = ANY(${unique}::bigint[]) ORDER BY c.atom_id, c.id DESC),
    target AS (
      SELECT l.* FROM last l JOIN pm_atom a ON a.id = l.atom_id
       WHERE l.actor = 'forget' AND l.reverted_at IS NULL AND a.status = 'retracted'),
    upd AS (UPDATE pm_atom a SET status = t.from_status FROM target t WHERE a.id = t.atom_id RETURNING a.id),
    marked AS (UPDATE pm_atom_status_change c SET reverted_at = now() FROM target t WHERE c.id = t.id RETURNING c.id)
    INSERT INTO pm_atom_status_change (atom_id, from_status, to_status, reason, evidence, actor, reverts)
    SELECT t.atom_id, 'retracted', t.from_status, ${reason}, '[]'::jsonb, 'forget-undo', t.id FROM target t ORDER BY t.atom_id
    RETURNING *`;
  const changes = rows.map(changeRecord);
  const changed = changes.map((c) => c.atom_id);
  const done = new Set(changed);
  // What the applied rules derive through the restored atoms' links comes back (bounded like a memory_infer run).
  await propagateFromNodes(
    tx,
    changed.map((id) => `atom:${id}`),
    UNDO_LIMITS,
  );
  return { changes, unchanged: unique.filter((id) => !done.has(id)), links: await enqueueAtomsAndLinks(tx, changed) };
}

/**
 * Forgets (or, with `undo`, restores) a document: its status becomes `retracted` (`active`), its atoms (distilled
 * from it: `pm_atom.doc_id`) are forgotten (restored) as {@link forgetAtomsTx} ({@link unforgetAtomsTx}) do, and
 * the document is queued to the outbox. @throws PegasError NOT_FOUND for an unknown document.
 */
export async function forgetDocumentTx(
  tx: Tx,
  docId: number,
  reason: string,
  undo: boolean,
): Promise<ForgetApplied & { atoms: number }> {
  const [doc] = await tx`SELECT id, status FROM pm_document WHERE id = ${docId} FOR UPDATE`;
  if (!doc)
    throw new PegasError("NOT_FOUND", `no document '${docId}'`, {
      hint: "memory_search and memory_get name the doc_id of an atom",
    });
  await tx`UPDATE pm_document SET status = ${undo ? "active" : "retracted"} WHERE id = ${docId}`;
  await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('document', ${String(docId)}, 'upsert')`;
  const atomIds = (await tx`SELECT id FROM pm_atom WHERE doc_id = ${docId} ORDER BY id`).map((r) => Number(r.id));
  const applied = atomIds.length
    ? await (undo ? unforgetAtomsTx(tx, atomIds, reason) : forgetAtomsTx(tx, atomIds, reason))
    : { changes: [], unchanged: [], links: 0 };
  return { ...applied, atoms: atomIds.length };
}
