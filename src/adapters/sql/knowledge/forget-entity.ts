/**
 * memory_forget of an entity (issue 22), one transaction: every atom that mentions the entity (or an entity merged
 * into it; pm_entity_mention, in its claim or content) is retracted as {@link forgetAtomsTx} retracts atoms, and its
 * sources go with it: a document every one of whose atoms mentions the entity is retracted too (its status, with an
 * outbox row), while a document that also says other things stays, and keeps its other atoms. Undo restores the
 * entity's atoms that a forget retracted ({@link unforgetAtomsTx}: the latest change of each is an unreverted forget)
 * and makes such documents active again. The mention rows themselves are never touched: reads skip retracted atoms,
 * so the entity's profile is empty while its atoms are retracted and whole again after the undo.
 * Also the dispatch of every memory_forget request to its transaction ({@link forgetTx}).
 */
import type { TransactionSql } from "postgres";
import { PegasError } from "../../../errors.ts";
import { subtreeOf } from "../entities/rows.ts";
import type { ForgetOutcome, ForgetRequest } from "../../../ports/store/curation.ts";
import { type ForgetApplied, forgetAtomsTx, forgetDocumentTx, unforgetAtomsTx } from "./forget.ts";
import { enqueueOutbox } from "./table-writes.ts";

type Tx = TransactionSql<any>;

/** What forgetting an entity changed: the atoms (as a forget of atoms) and the documents retracted or restored. */
export interface EntityForgetApplied extends ForgetApplied {
  /** Documents whose status changed (retracted, or active again on undo), ascending. */
  documents: number[];
}

/**
 * The documents every one of whose atoms mentions one of `entityIds`, now in status `from` (ascending). A document
 * with no atoms has none that mention it and is left alone.
 */
async function wholeDocuments(tx: Tx, entityIds: number[], from: "active" | "retracted"): Promise<number[]> {
  const rows = await tx`
    SELECT d.id FROM pm_document d
     WHERE d.status = ${from}
       AND EXISTS (SELECT 1 FROM pm_atom a JOIN pm_entity_mention m ON m.atom_id = a.id
                    WHERE a.doc_id = d.id AND m.entity_id = ANY(${entityIds}::bigint[]))
       AND NOT EXISTS (SELECT 1 FROM pm_atom a WHERE a.doc_id = d.id AND NOT EXISTS (
             SELECT 1 FROM pm_entity_mention m WHERE m.atom_id = a.id AND m.entity_id = ANY(${entityIds}::bigint[])))
     ORDER BY d.id FOR UPDATE`;
  return rows.map((r) => Number(r.id));
}

/**
 * Forgets (or with `undo` restores) what the entity `entityId` (a root: merged entities are followed down to it)
 * is mentioned in, as the module comment says; `reason` is recorded on every atom changed.
 * @throws PegasError NOT_FOUND for an unknown entity.
 */
export async function forgetEntityTx(
  tx: Tx,
  entityId: number,
  reason: string,
  undo: boolean,
): Promise<EntityForgetApplied> {
  const [row] = await tx`SELECT id FROM pm_entity WHERE id = ${entityId} FOR UPDATE`;
  if (!row)
    throw new PegasError("NOT_FOUND", `no entity ${entityId}`, { hint: "find entities by name with memory_get" });
  const ids = await subtreeOf(tx, entityId);
  // Forget takes the atoms still shown; undo only those retracted (others have nothing to restore).
  const atoms = await tx`
    SELECT DISTINCT a.id FROM pm_entity_mention m JOIN pm_atom a ON a.id = m.atom_id
     WHERE m.entity_id = ANY(${ids}::bigint[]) AND (a.status = 'retracted') = ${undo} ORDER BY a.id`;
  const atomIds = atoms.map((r) => Number(r.id));
  const documents = await wholeDocuments(tx, ids, undo ? "retracted" : "active");
  if (documents.length) {
    await tx`UPDATE pm_document SET status = ${undo ? "active" : "retracted"} WHERE id = ANY(${documents}::bigint[])`;
    await enqueueOutbox(tx, "document", documents, "upsert");
  }
  const applied = !atomIds.length
    ? { changes: [], unchanged: [], links: 0 }
    : undo
      ? await unforgetAtomsTx(tx, atomIds, reason)
      : await forgetAtomsTx(tx, atomIds, reason);
  return { ...applied, documents };
}

/** What a forget request names, for error messages: "document 3", "entity 7", "2 atom(s)". */
export function forgetTarget(req: ForgetRequest): string {
  if ("docId" in req) return `document ${req.docId}`;
  if ("entityId" in req) return `entity ${req.entityId}`;
  return `${req.atomIds.length} atom(s)`;
}

/** Runs a memory_forget request (atoms, a document or an entity; forget or undo) inside `tx`. NOT_FOUND. */
export function forgetTx(tx: Tx, req: ForgetRequest): Promise<ForgetOutcome> {
  if ("docId" in req) return forgetDocumentTx(tx, req.docId, req.reason, req.undo);
  if ("entityId" in req) return forgetEntityTx(tx, req.entityId, req.reason, req.undo);
  return req.undo ? unforgetAtomsTx(tx, req.atomIds, req.reason) : forgetAtomsTx(tx, req.atomIds, req.reason);
}
