/**
 * Code atoms of a batch of files, inside the batch's transaction: the atoms (exact dedup by content hash), the
 * embeddings of the new ones, citations `path:line` in the repository's document, `defines` links to their symbols,
 * and stale code atoms whose text is back revived.
 */
import type { TransactionSql } from "postgres";
import type { CodeFileWrite, CodeRepo } from "../../../ports/store/code-store.ts";
import { citationKey, insertAtoms } from "../knowledge/atom-writes.ts";
import { insertEmbeddings } from "../knowledge/table-writes.ts";
import { storable } from "./text.ts";

type Tx = TransactionSql<any>;

const ROWS = 1000;

/** Key of a symbol within a repository: path, qualified name, kind, first line. */
export function symbolKey(path: string, qualifiedName: string, kind: string, lineStart: number): string {
  return `${path}\u0000${qualifiedName}\u0000${kind}\u0000${lineStart}`;
}

/** What writing the code atoms did; `changed` are atoms created or revived (their outbox rows). */
export interface CodeAtomsWritten {
  created: number;
  existing: number;
  changed: number[];
  linkIds: number[];
}

async function insertRows(
  tx: Tx,
  table: "pm_citation" | "pm_atom_symbol_link",
  rows: Array<Record<string, unknown>>,
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += ROWS) {
    const part = rows.slice(i, i + ROWS) as any;
    const out =
      table === "pm_citation"
        ? await tx`INSERT INTO pm_citation ${tx(part, "atom_id", "doc_id", "doc_version", "locator", "quoted_text", "citation_key")}
                   ON CONFLICT (atom_id, citation_key) DO NOTHING RETURNING id`
        : await tx`INSERT INTO pm_atom_symbol_link ${tx(part, "atom_id", "symbol_id", "kind", "confidence", "source")}
                   ON CONFLICT (atom_id, symbol_id, kind) DO NOTHING RETURNING id`;
    ids.push(...out.map((r) => Number(r.id)));
  }
  return ids;
}

/**
 * A link someone made (memory_link, not extraction's `defines`, not inference's) from an atom to a symbol of a file
 * being replaced, with what finds the symbol again: its path, qualified name and kind.
 */
export interface KeptSymbolLink {
  atomId: number;
  kind: string;
  confidence: number;
  source: string;
  path: string;
  qualifiedName: string;
  symbolKind: string;
}

/**
 * Re-attaches kept links to the files' new symbols of the same path, qualified name and kind (the first by line when
 * several share them); a link whose symbol is gone from the new text stays deleted. Returns the new link ids (their
 * outbox rows). `symbolIds` maps symbol keys ({@link symbolKey}) to the ids just inserted.
 */
export async function reattachLinks(tx: Tx, kept: KeptSymbolLink[], symbolIds: Map<string, number>): Promise<number[]> {
  if (!kept.length) return [];
  const byName = new Map<string, { id: number; line: number }>();
  for (const [key, id] of symbolIds) {
    const cut = key.lastIndexOf("\u0000");
    const line = Number(key.slice(cut + 1));
    const k = key.slice(0, cut);
    const seen = byName.get(k);
    if (!seen || line < seen.line) byName.set(k, { id, line });
  }
  const rows = kept.flatMap((l) => {
    const hit = byName.get(`${l.path}\u0000${l.qualifiedName}\u0000${l.symbolKind}`);
    return hit
      ? [{ atom_id: l.atomId, symbol_id: hit.id, kind: l.kind, confidence: l.confidence, source: l.source }]
      : [];
  });
  return insertRows(tx, "pm_atom_symbol_link", rows);
}

/** Stale code atoms among `ids` whose text is back become candidates again (an atom absorbed by a merge stays). */
async function revive(tx: Tx, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await tx`
    UPDATE pm_atom a SET status = 'candidate'
     WHERE a.id = ANY(${ids}::bigint[]) AND a.status = 'stale' AND a.type = 'code'
       AND NOT EXISTS (SELECT 1 FROM pm_atom_merge m WHERE m.absorbed_atom_id = a.id AND m.undone_at IS NULL)
    RETURNING a.id`;
  return rows.map((r) => Number(r.id));
}

/** Writes the files' planned code atoms; `symbolIds` maps symbol keys (code-write.ts) to the ids just inserted. */
export async function insertCodeAtoms(
  tx: Tx,
  repo: CodeRepo,
  files: CodeFileWrite[],
  symbolIds: Map<string, number>,
  model: string,
): Promise<CodeAtomsWritten> {
  const planned = files.flatMap((f) => (f.status === "parsed" ? f.atoms.map((a) => ({ path: f.path, a })) : []));
  if (!planned.length) return { created: 0, existing: 0, changed: [], linkIds: [] };
  const unique = [...new Map(planned.map((p) => [p.a.atom.contentHash, p.a.atom])).values()];
  const { ids, created } = await insertAtoms(tx, unique, repo.docId);
  const vectors = unique
    .filter((a) => created.has(ids.get(a.contentHash)!) && a.vector.length > 0)
    .map((a) => ({ atomId: ids.get(a.contentHash)!, vector: a.vector }));
  await insertEmbeddings(tx, vectors, model);
  const existingIds = [...new Set(ids.values())].filter((id) => !created.has(id));
  const revived = await revive(tx, existingIds);
  const citations: Array<Record<string, unknown>> = [];
  const links: Array<Record<string, unknown>> = [];
  for (const { path, a } of planned) {
    const atomId = ids.get(a.atom.contentHash)!;
    const c = { locator: a.citation.locator, quote: a.citation.quote };
    citations.push({
      atom_id: atomId,
      doc_id: repo.docId,
      doc_version: repo.docVersion,
      locator: c.locator,
      quoted_text: c.quote,
      citation_key: citationKey(repo.docId, repo.docVersion, c),
    });
    const symbolId = symbolIds.get(
      symbolKey(path, storable(a.symbol.qualifiedName), a.symbol.kind, a.symbol.lineStart),
    );
    if (symbolId !== undefined)
      links.push({ atom_id: atomId, symbol_id: symbolId, kind: "defines", confidence: 1, source: "extraction" });
  }
  await insertRows(tx, "pm_citation", citations);
  const linkIds = await insertRows(tx, "pm_atom_symbol_link", links);
  return { created: created.size, existing: unique.length - created.size, changed: [...created, ...revived], linkIds };
}
