/**
 * memory_store's write: one atom from the agent, exact-deduplicated by content hash, with an optional citation of
 * the source it names (a referenced document is registered without content), in one transaction.
 */
import type { TransactionSql } from "postgres";
import type { AtomInput, DocumentKind, StoreAtomResult } from "../../ports/canonical-store.ts";
import { citationKey, enqueueOutbox, insertAtoms, insertEmbeddings } from "./ingest-commit.ts";

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

/** Applies one agent store inside the given transaction. */
export async function storeAtomTx(
  tx: Tx,
  input: { atom: AtomInput; model: string; sourceUri?: string; quote?: string; duplicateOf?: number },
): Promise<StoreAtomResult> {
  const doc = input.sourceUri ? await referencedDocument(tx, input.sourceUri) : null;
  let atomId: number;
  let created = false;
  if (input.duplicateOf !== undefined) {
    atomId = input.duplicateOf;
  } else {
    const { ids, created: made } = await insertAtoms(tx, [input.atom], doc?.id ?? null);
    atomId = ids.get(input.atom.contentHash)!;
    created = made.has(atomId);
    if (created) {
      await insertEmbeddings(tx, [{ atomId, vector: input.atom.vector }], input.model);
      await enqueueOutbox(tx, "atom", [atomId], "upsert");
    }
  }
  let citationAdded = false;
  if (doc) {
    const citation = { locator: {}, quote: input.quote ?? "" };
    const out = await tx`
      INSERT INTO pm_citation (atom_id, doc_id, doc_version, locator, quoted_text, citation_key)
      VALUES (${atomId}, ${doc.id}, ${doc.version}, ${tx.json({})}, ${citation.quote}, ${citationKey(doc.id, doc.version, citation)})
      ON CONFLICT (atom_id, citation_key) DO NOTHING RETURNING id`;
    citationAdded = out.length > 0;
  }
  return { atomId, created, citationAdded, docId: doc?.id ?? null };
}
