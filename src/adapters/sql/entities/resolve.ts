/**
 * Applying the alias merges of the resolver (domain/entities/resolve.ts) to the stored entities: each merge joins the
 * entity holding the alias key to the entity holding the target key, audited in pm_entity_merge with the resolver's
 * rule, documents and detail. A merge is skipped when either entity is missing, when the alias entity is already
 * merged (or is the target's root), and when the same merge was made before and undone: an undo is a decision that
 * a later run must not overturn.
 */
import type { TransactionSql } from "postgres";
import type { MergeEvidence } from "../../../domain/entities/resolve.ts";
import { mergeEntitiesTx } from "./merge.ts";
import { rootsOf } from "./rows.ts";

type Tx = TransactionSql<any>;

/** Applies `merges` in order inside `tx`; returns how many were made. */
export async function applyAliasMergesTx(tx: Tx, merges: readonly MergeEvidence[], actor: string): Promise<number> {
  if (!merges.length) return 0;
  const keys = [...new Set(merges.flatMap((m) => [m.alias, m.into]))];
  const byKey = new Map<string, number>();
  for (const r of await tx`SELECT id, key FROM pm_entity WHERE key = ANY(${keys}::text[])`)
    byKey.set(String(r.key), Number(r.id));
  const undone = new Set<string>();
  const froms = merges.map((m) => byKey.get(m.alias)).filter((x): x is number => x !== undefined);
  for (const r of await tx`SELECT from_entity_id, into_entity_id FROM pm_entity_merge
                            WHERE undone_at IS NOT NULL AND from_entity_id = ANY(${froms}::bigint[])`)
    undone.add(`${r.from_entity_id}>${r.into_entity_id}`);
  let made = 0;
  for (const m of merges) {
    const from = byKey.get(m.alias);
    const into = byKey.get(m.into);
    if (from === undefined || into === undefined || from === into) continue;
    const roots = await rootsOf(tx, [from, into]);
    const target = roots.get(into)!;
    if (roots.get(from) !== from || target === from) continue;
    if (undone.has(`${from}>${into}`) || undone.has(`${from}>${target}`)) continue;
    await mergeEntitiesTx(tx, {
      fromEntityId: from,
      intoEntityId: into,
      reason: m.rule,
      evidence: { alias: m.alias, into: m.into, docIds: m.docIds, detail: m.detail },
      actor,
    });
    made++;
  }
  return made;
}
