/**
 * Writing planned atoms inside a transaction, shared by ingest, quarantine retries and the agent's memory_store:
 * atoms (exact dedup by content hash, concurrency-safe through the unique key), their canonical embeddings, their
 * citations, near-duplicate merges (the absorbed atom stays as a `stale` row and its citation is copied onto the
 * atom that absorbs it, so that the merge can be undone), links, and the outbox rows of everything new.
 */
import type { TransactionSql } from "postgres";
import { sha256Hex } from "../../../domain/hash.ts";
import type { AtomInput, CitationInput, PlannedAtom } from "../../../ports/store/atom-writes.ts";
import { vectorToBytes } from "../vector-bytes.ts";
import { writeNewAtomMentions } from "../entities/atom-hook.ts";

type Tx = TransactionSql<any>;

const BATCH = 500;

const CITATION_COLS = [
  "atom_id",
  "doc_id",
  "chunk_id",
  "doc_version",
  "locator",
  "quoted_text",
  "citation_key",
] as const;

/** Stable key of a citation, so that the same evidence is never cited twice. */
export function citationKey(docId: number, docVersion: number, c: Pick<CitationInput, "locator" | "quote">): string {
  return sha256Hex(JSON.stringify([docId, docVersion, c.locator, c.quote]));
}

/**
 * Inserts atoms by content hash (ON CONFLICT DO NOTHING) and returns hash → id for all of them and the ids created by
 * this call. `statuses[i]` overrides the default `candidate`. Full-text vectors are computed by PostgreSQL.
 */
export async function insertAtoms(
  tx: Tx,
  atoms: AtomInput[],
  docId: number | null,
  statuses?: string[],
): Promise<{ ids: Map<string, number>; created: Set<number> }> {
  const ids = new Map<string, number>();
  const created = new Set<number>();
  for (let i = 0; i < atoms.length; i += BATCH) {
    const part = atoms.slice(i, i + BATCH);
    const status = part.map((_, j) => statuses?.[i + j] ?? "candidate");
    const inserted = await tx`
      INSERT INTO pm_atom (type, claim, content, content_hash, confidence, doc_id, lang, metadata, search_tsv, status)
      SELECT t, cl, co, h, cf, ${docId}::bigint, lg, md::jsonb, to_tsvector('pegas', st), stt
        FROM unnest(${part.map((a) => a.type)}::text[], ${part.map((a) => a.claim)}::text[],
                    ${part.map((a) => a.content)}::text[], ${part.map((a) => a.contentHash)}::text[],
                    ${part.map((a) => a.confidence)}::real[], ${part.map((a) => a.lang)}::text[],
                    ${part.map((a) => JSON.stringify(a.metadata))}::text[], ${part.map((a) => a.searchText)}::text[],
                    ${status}::text[])
             AS x(t, cl, co, h, cf, lg, md, st, stt)
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

/** Stores canonical embeddings (an existing row for the atom and model is kept); returns the atom ids that got one. */
export async function insertEmbeddings(
  tx: Tx,
  rows: Array<{ atomId: number; vector: Float32Array }>,
  model: string,
): Promise<number[]> {
  const added: number[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = rows
      .slice(i, i + BATCH)
      .map((r) => ({ atom_id: r.atomId, model, dim: r.vector.length, vector: vectorToBytes(r.vector) }));
    const out = await tx`INSERT INTO pm_atom_embedding ${tx(values as any, "atom_id", "model", "dim", "vector")}
             ON CONFLICT (atom_id, model) DO NOTHING RETURNING atom_id`;
    for (const r of out) added.push(Number(r.atom_id));
  }
  return added;
}

/** Appends outbox rows for the external projections. */
export async function enqueueOutbox(tx: Tx, entityType: string, ids: number[], op: "upsert" | "delete"): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) {
    const values = ids.slice(i, i + BATCH).map((id) => ({ entity_type: entityType, entity_id: String(id), op }));
    await tx`INSERT INTO pm_outbox ${tx(values as any, "entity_type", "entity_id", "op")}`;
  }
}

/** Inserts citations (an existing (atom, key) pair is kept); returns the ids of the new rows. */
async function insertCitations(tx: Tx, rows: Array<Record<string, unknown>>): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const out = await tx`INSERT INTO pm_citation ${tx(rows.slice(i, i + BATCH) as any, ...CITATION_COLS)}
                         ON CONFLICT (atom_id, citation_key) DO NOTHING RETURNING id`;
    ids.push(...out.map((r) => Number(r.id)));
  }
  return ids;
}

/** Inserts atom links (an existing (src, dst, kind) is kept); returns the ids of the new rows. */
async function insertLinks(tx: Tx, rows: Array<Record<string, unknown>>): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const out =
      await tx`INSERT INTO pm_atom_link ${tx(rows.slice(i, i + BATCH) as any, "src_atom_id", "dst_atom_id", "kind", "confidence", "source")}
                         ON CONFLICT (src_atom_id, dst_atom_id, kind) DO NOTHING RETURNING id`;
    ids.push(...out.map((r) => Number(r.id)));
  }
  return ids;
}

/** Where the planned atoms' evidence lives: the document version and its chunk ids by ord (none for the agent). */
export interface WriteContext {
  docId: number | null;
  docVersion: number;
  chunkIds: Map<number, number>;
  model: string;
}

/** What {@link writePlannedAtoms} did; `atomIds[i]` is the atom that holds planned atom i's knowledge. */
export interface WriteOutcome {
  atomIds: number[];
  created: Set<number>;
  counts: { created: number; existing: number; merged: number };
  citationsAdded: number;
  linksAdded: number;
  /** Merge row id per planned atom that was merged (else undefined). */
  mergeIds: Array<number | undefined>;
  /** Id of each planned atom's own row (the absorbed, stale row for a merged one). */
  ownIds: number[];
}

/**
 * Resolves each planned atom to the atom holding its knowledge: a merged one follows its target (earlier in the
 * plan); one whose text already exists as the absorbed row of a merge in force follows that merge's kept atom.
 */
function effectiveIds(
  planned: PlannedAtom[],
  ownIds: number[],
  created: Set<number>,
  absorbedBy: Map<number, number>,
): { eff: number[]; merged: boolean[] } {
  const eff: number[] = [];
  const merged: boolean[] = [];
  planned.forEach((p, i) => {
    const m = p.mergeInto;
    const target =
      m === undefined
        ? undefined
        : (m.atomId ?? (m.planned !== undefined && m.planned < i ? eff[m.planned] : undefined));
    // A merged atom whose text already existed (an exact duplicate of a stored atom) is just that stored atom.
    merged[i] = target !== undefined && created.has(ownIds[i]) && target !== ownIds[i];
    eff[i] = merged[i] ? target! : (absorbedBy.get(ownIds[i]) ?? ownIds[i]);
  });
  return { eff, merged };
}

/** Kept atom of each merge in force that absorbed one of `ids`. */
async function keptAtoms(tx: Tx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows =
    await tx`SELECT absorbed_atom_id, kept_atom_id FROM pm_atom_merge WHERE undone_at IS NULL AND absorbed_atom_id = ANY(${ids}::bigint[])`;
  return new Map(rows.map((r) => [Number(r.absorbed_atom_id), Number(r.kept_atom_id)]));
}

function citationRow(atomId: number, ctx: WriteContext, c: CitationInput): Record<string, unknown> {
  return {
    atom_id: atomId,
    doc_id: ctx.docId,
    doc_version: ctx.docVersion,
    locator: c.locator,
    quoted_text: c.quote,
    chunk_id: c.chunkOrd === undefined ? null : (ctx.chunkIds.get(c.chunkOrd) ?? null),
    citation_key: citationKey(ctx.docId!, ctx.docVersion, c),
  };
}

async function writeMerges(
  tx: Tx,
  planned: PlannedAtom[],
  ownIds: number[],
  eff: number[],
  merged: boolean[],
  ctx: WriteContext,
): Promise<Array<number | undefined>> {
  const idx = planned.map((_, i) => i).filter((i) => merged[i]);
  const out: Array<number | undefined> = [];
  if (!idx.length) return out;
  const keys = idx.map((i) =>
    ctx.docId === null ? null : citationKey(ctx.docId, ctx.docVersion, planned[i].citation),
  );
  const rows = await tx`
    INSERT INTO pm_atom_merge (kept_atom_id, absorbed_atom_id, citation_id, cosine, model, reason)
    SELECT k, a, (SELECT c.id FROM pm_citation c WHERE c.atom_id = k AND c.citation_key = ck), cs, ${ctx.model}, r
      FROM unnest(${idx.map((i) => eff[i])}::bigint[], ${idx.map((i) => ownIds[i])}::bigint[], ${keys}::text[],
                  ${idx.map((i) => planned[i].mergeInto!.cosine)}::real[], ${idx.map((i) => planned[i].mergeInto!.reason)}::text[])
           AS x(k, a, ck, cs, r)
    RETURNING id, absorbed_atom_id`;
  const byAbsorbed = new Map(rows.map((r) => [Number(r.absorbed_atom_id), Number(r.id)]));
  for (const i of idx) out[i] = byAbsorbed.get(ownIds[i]);
  return out;
}

function linkRows(planned: PlannedAtom[], eff: number[]): Array<Record<string, unknown>> {
  const seen = new Set<string>();
  const rows: Array<Record<string, unknown>> = [];
  planned.forEach((p, i) => {
    for (const l of p.links ?? []) {
      const dst = l.atomId ?? (l.planned !== undefined ? eff[l.planned] : undefined);
      const key = `${eff[i]}>${dst}:${l.kind}`;
      if (dst === undefined || dst === eff[i] || seen.has(key)) continue;
      seen.add(key);
      rows.push({
        src_atom_id: eff[i],
        dst_atom_id: dst,
        kind: l.kind,
        confidence: Math.min(1, Math.max(0, l.confidence)),
        source: l.source,
      });
    }
  });
  return rows;
}

/**
 * Writes planned atoms, their evidence, merges and links inside `tx`. Citations are written only when the context
 * has a document. Planned atom i may merge into a stored atom or into an earlier planned atom (j < i).
 */
export async function writePlannedAtoms(tx: Tx, planned: PlannedAtom[], ctx: WriteContext): Promise<WriteOutcome> {
  const statuses = planned.map((p) => (p.mergeInto ? "stale" : "candidate"));
  const { ids, created } = await insertAtoms(
    tx,
    planned.map((p) => p.atom),
    ctx.docId,
    statuses,
  );
  const ownIds = planned.map((p) => ids.get(p.atom.contentHash)!);
  await writeNewAtomMentions(tx, planned, ownIds, created); // issue 22: the entities of new atoms
  const { eff, merged } = effectiveIds(
    planned,
    ownIds,
    created,
    await keptAtoms(
      tx,
      ownIds.filter((id) => !created.has(id)),
    ),
  );
  // An exact duplicate stored as `stale` by this plan but not merged (its target vanished) must not stay hidden.
  const unmergedStale = planned
    .map((_, i) => i)
    .filter((i) => planned[i].mergeInto && !merged[i] && created.has(ownIds[i]));
  if (unmergedStale.length)
    await tx`UPDATE pm_atom SET status = 'candidate' WHERE id = ANY(${unmergedStale.map((i) => ownIds[i])}::bigint[])`;
  const vectors = new Map<number, Float32Array>();
  for (const [i, p] of planned.entries()) if (created.has(ownIds[i])) vectors.set(ownIds[i], p.atom.vector);
  await insertEmbeddings(
    tx,
    [...vectors].map(([atomId, vector]) => ({ atomId, vector })),
    ctx.model,
  );
  let citationsAdded = 0;
  if (ctx.docId !== null) {
    // The own row keeps its evidence (for an undo); a merged atom's citation is copied onto the atom that absorbed it.
    const rows = planned.flatMap((p, i) => [
      ...(eff[i] === ownIds[i] || merged[i] ? [citationRow(ownIds[i], ctx, p.citation)] : []),
      ...(eff[i] !== ownIds[i] ? [citationRow(eff[i], ctx, p.citation)] : []),
    ]);
    citationsAdded = (await insertCitations(tx, rows)).length;
  }
  const mergeIds = await writeMerges(tx, planned, ownIds, eff, merged, ctx);
  const linkIds = await insertLinks(tx, linkRows(planned, eff));
  await enqueueOutbox(tx, "atom", [...created], "upsert");
  await enqueueOutbox(tx, "atom_link", linkIds, "upsert");
  const counts = { created: 0, existing: 0, merged: 0 };
  const counted = new Set<number>();
  planned.forEach((_, i) => {
    if (merged[i]) counts.merged++;
    else if (created.has(ownIds[i]) && !counted.has(ownIds[i])) counts.created++;
    else counts.existing++;
    counted.add(ownIds[i]);
  });
  return { atomIds: eff, created, counts, citationsAdded, linksAdded: linkIds.length, mergeIds, ownIds };
}
