/**
 * memory_store's write: one atom from the agent, exact-deduplicated by content hash, with an optional citation of
 * the source it names (a referenced document is registered without content), in one transaction.
 */
import type { TransactionSql } from "postgres";
import type { DocumentKind } from "../../../domain/locator.ts";
import type { PlannedAtom, StoreAtomInput, StoreAtomResult } from "../../../ports/store/atom-writes.ts";
import { writeAtomTimes } from "./atom-times.ts";
import { writePlannedAtoms } from "./atom-writes.ts";

type Tx = TransactionSql<any>;

function kindOfUri(uri: string): DocumentKind {
  if (/^https?:/i.test(uri)) return "web";
  if (/\.pdf$/i.test(uri)) return "pdf";
  if (/\.epub$/i.test(uri)) return "epub";
  return "text";
}

async function referencedDocument(tx: Tx, uri: string): Promise<{ id: number; version: number }> {
  const rows = await tx`
    INSERT INTO pm_document (kind, uri, content_hash) VALUES (${kindOfUri(uri)}, ${uri}, NULL)
    ON CONFLICT (uri) DO UPDATE SET updated_at = pm_document.updated_at
    RETURNING id, version`;
  return { id: Number(rows[0].id), version: Number(rows[0].version) };
}

/**
 * Applies one agent store inside the given transaction: the atom (or a stale row merged into `mergeInto`), its
 * citation of `sourceUri` (a referenced document) and its links, through the same writes as ingest.
 */
export async function storeAtomTx(tx: Tx, input: StoreAtomInput): Promise<StoreAtomResult> {
  const doc = input.sourceUri ? await referencedDocument(tx, input.sourceUri) : null;
  const citation = { locator: {}, quote: input.quote ?? "" };
  const planned: PlannedAtom = { atom: input.atom, citation, mergeInto: input.mergeInto, links: input.links };
  const w = await writePlannedAtoms(tx, [planned], {
    docId: doc?.id ?? null,
    docVersion: doc?.version ?? 0,
    chunkIds: new Map(),
    model: input.model,
  });
  await writeAtomTimes(tx, [planned], w.ownIds);
  const mergeId = w.mergeIds[0];
  return {
    atomId: w.atomIds[0],
    created: w.counts.created === 1,
    merge: mergeId === undefined ? null : { mergeId, absorbedAtomId: w.ownIds[0] },
    linksAdded: w.linksAdded,
    citationAdded: w.citationsAdded > 0,
    docId: doc?.id ?? null,
  };
}
