/**
 * Entity merges and their undo, each one transaction: a merge points the merged entity's `merged_into` at the
 * target's root and records why in pm_entity_merge; nothing else moves (mentions, aliases stay on their rows), so
 * undoing clears `merged_into` and stamps `undone_at`, and the store is as before the merge. Locks both entities
 * (FOR UPDATE) so that two merges cannot close a cycle between them.
 */
import type { TransactionSql } from "postgres";
import { invalidInput, PegasError } from "../../../errors.ts";
import type { EntityMergeRecord, EntityMergeRequest } from "../../../ports/entities.ts";
import { rootsOf, toMerge } from "./rows.ts";
import { enqueueOutbox } from "../knowledge/table-writes.ts";

type Tx = TransactionSql<any>;

const notFound = (what: string) =>
  new PegasError("NOT_FOUND", `no ${what}`, { hint: "entity ids are in memory_get's entity profiles (entity:<id>)" });

function checkRequest(req: EntityMergeRequest): void {
  for (const id of [req.fromEntityId, req.intoEntityId])
    if (!Number.isSafeInteger(id) || id < 1) throw invalidInput(`entity id ${id} is not a positive integer`);
  if (!req.reason?.trim()) throw invalidInput("a merge needs a reason", "say what shows the two are one entity");
}

/**
 * Merges `from` (a root) into the root of `into` inside `tx`.
 * @throws PegasError NOT_FOUND, INVALID_INPUT (self merge, `from` already merged, a cycle).
 */
export async function mergeEntitiesTx(tx: Tx, req: EntityMergeRequest): Promise<EntityMergeRecord> {
  checkRequest(req);
  const ids = [req.fromEntityId, req.intoEntityId];
  const locked =
    await tx`SELECT id, merged_into FROM pm_entity WHERE id = ANY(${ids}::bigint[]) ORDER BY id FOR UPDATE`;
  for (const id of ids) if (!locked.some((r) => Number(r.id) === id)) throw notFound(`entity ${id}`);
  const from = locked.find((r) => Number(r.id) === req.fromEntityId)!;
  if (from.merged_into !== null)
    throw invalidInput(
      `entity ${req.fromEntityId} is already merged into entity ${from.merged_into}`,
      "undo that merge first, or merge its root",
    );
  const into = (await rootsOf(tx, [req.intoEntityId])).get(req.intoEntityId)!;
  if (into === req.fromEntityId)
    throw invalidInput(
      req.intoEntityId === req.fromEntityId
        ? `entity ${req.fromEntityId} cannot be merged into itself`
        : `merging entity ${req.fromEntityId} into entity ${req.intoEntityId} would close a cycle: ${req.intoEntityId} is merged into ${req.fromEntityId}`,
    );
  await tx`UPDATE pm_entity SET merged_into = ${into}, updated_at = now() WHERE id = ${req.fromEntityId}`;
  const [row] = await tx`
    INSERT INTO pm_entity_merge (from_entity_id, into_entity_id, reason, evidence, actor)
    VALUES (${req.fromEntityId}, ${into}, ${req.reason.trim()}, ${tx.json((req.evidence ?? {}) as never)}, ${req.actor ?? "resolver"})
    RETURNING *`;
  await enqueueOutbox(tx, "entity", [req.fromEntityId, into], "upsert");
  return toMerge(row);
}

/**
 * Undoes merge `mergeId` inside `tx`.
 * @throws PegasError NOT_FOUND for an unknown merge; INVALID_INPUT when it was already undone.
 */
export async function undoEntityMergeTx(tx: Tx, mergeId: number): Promise<EntityMergeRecord> {
  const [m] = await tx`SELECT * FROM pm_entity_merge WHERE id = ${mergeId} FOR UPDATE`;
  if (!m) throw notFound(`entity merge #${mergeId}`);
  if (m.undone_at !== null) throw invalidInput(`entity merge #${mergeId} was already undone`);
  await tx`UPDATE pm_entity SET merged_into = NULL, updated_at = now()
            WHERE id = ${m.from_entity_id} AND merged_into = ${m.into_entity_id}`;
  const [done] = await tx`UPDATE pm_entity_merge SET undone_at = now() WHERE id = ${mergeId} RETURNING *`;
  await enqueueOutbox(tx, "entity", [Number(m.from_entity_id), Number(m.into_entity_id)], "upsert");
  return toMerge(done);
}
