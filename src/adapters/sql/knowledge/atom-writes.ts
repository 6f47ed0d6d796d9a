/**
 * Writing planned atoms inside a transaction, shared by ingest, quarantine retries and the agent's memory_store:
 * atoms (exact dedup by content hash, concurrency-safe through the unique key), their canonical embeddings, their
 * citations, near-duplicate merges (the absorbed atom stays as a `stale` row and its citation is copied onto the
 * atom that absorbs it, so that the merge can be undone), links, entities, measurements, and the outbox rows.
 */
import type { TransactionSql } from "postgres";
import { sha256Hex } from "../../../domain/hash.ts";
import { processedText } from "../../../platform/gc.ts";
import type { AtomInput, CitationInput, PlannedAtom } from "../../../ports/store/atom-writes.ts";
import {
  type CitationRow,
  insertCitationRows,
  insertEmbeddings,
  insertLinkRows,
  enqueueOutbox,
  type LinkRow,
  ROWS,
} from "./table-writes.ts";
import { writeNewAtomMentions } from "../entities/atom-hook.ts";
import { writeNewAtomQuantities } from "../quantities/write.ts";

type Tx = TransactionSql<any>;

const BATCH = ROWS;

/** Stable key of a citation, so that the same evidence is never cited twice. */
export function citationKey(docId: number, docVersion: number, c: Pick<CitationInput, "locator" | "quote">): string {
  return sha256Hex(JSON.stringify([docId, docVersion, c.locator, c.quote]));
}

/**
 * Inserts atoms by content hash (ON CONFLICT DO NOTHING) and returns hash → id for all of them and the ids created by
 * this call. `statuses[i]` overrides the default `candidate`; `docId` is one document for all or one per atom.
 * Full-text vectors are computed by PostgreSQL, unless the atom carries its own (`searchTsv`, the same function's
 * output read back): then only that text is sent, not the search text.
 */
export async function insertAtoms(
  tx: Tx,
  atoms: AtomInput[],
  docId: number | null | Array<number | null>,
  statuses?: string[],
): Promise<{ ids: Map<string, number>; created: Set<number> }> {
  const ids = new Map<string, number>();
  const created = new Set<number>();
  for (let i = 0; i < atoms.length; i += BATCH) {
    const part = atoms.slice(i, i + BATCH);
    let units = 0;
    for (const a of part) units += a.claim.length + a.content.length + (a.searchTsv ?? a.searchText).length;
    processedText(2 * units); // the parameters' arrays and literals: garbage once the part is written
    const status = part.map((_, j) => statuses?.[i + j] ?? "candidate");
    const docs = Array.isArray(docId) ? docId.slice(i, i + BATCH) : part.map(() => docId);
    const inserted = await tx`
      INSERT INTO pm_atom (type, claim, content, content_hash, confidence, doc_id, lang, metadata, search_tsv, status)
      SELECT t, cl, co, h, cf, dc, lg, md::jsonb, COALESCE(tv::tsvector, to_tsvector('pegas', st)), stt
        FROM unnest(${part.map((a) => a.type)}::text[], ${part.map((a) => a.claim)}::text[],
                    ${part.map((a) => a.content)}::text[], ${part.map((a) => a.contentHash)}::text[],
                    ${part.map((a) => a.confidence)}::real[], ${part.map((a) => a.lang)}::text[],
                    ${part.map((a) => JSON.stringify(a.metadata))}::text[],
                    ${part.map((a) => (a.searchTsv === undefined ? a.searchText : null))}::text[],
                    ${part.map((a) => a.searchTsv ?? null)}::text[], ${status}::text[], ${docs}::bigint[])
             AS x(t, cl, co, h, cf, lg, md, st, tv, stt, dc)
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
  /** Per planned atom: which of the three counts it went to. */
  outcomes: Array<"created" | "existing" | "merged">;
  citationsAdded: number;
  linksAdded: number;
  /** New citations per planned atom (they sum to `citationsAdded`). */
  citationsOf: number[];
  /** New links per planned atom (they sum to `linksAdded`). */
  linksOf: number[];
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

function citationRow(atomId: number, ctx: WriteContext, c: CitationInput): CitationRow {
  return {
    atomId,
    docId: ctx.docId!,
    docVersion: ctx.docVersion,
    locator: c.locator,
    quote: c.quote,
    chunkId: c.chunkOrd === undefined ? null : (ctx.chunkIds.get(c.chunkOrd) ?? null),
    key: citationKey(ctx.docId!, ctx.docVersion, c),
  };
}

async function writeMerges(
  tx: Tx,
  planned: PlannedAtom[],
  ownIds: number[],
  eff: number[],
  merged: boolean[],
  ctxAt: (i: number) => WriteContext,
): Promise<Array<number | undefined>> {
  const idx = planned.map((_, i) => i).filter((i) => merged[i]);
  const out: Array<number | undefined> = [];
  if (!idx.length) return out;
  const keys = idx.map((i) => {
    const ctx = ctxAt(i);
    return ctx.docId === null ? null : citationKey(ctx.docId, ctx.docVersion, planned[i].citation);
  });
  const rows = await tx`
    INSERT INTO pm_atom_merge (kept_atom_id, absorbed_atom_id, citation_id, cosine, model, reason)
    SELECT k, a, (SELECT c.id FROM pm_citation c WHERE c.atom_id = k AND c.citation_key = ck), cs, ${ctxAt(0).model}, r
      FROM unnest(${idx.map((i) => eff[i])}::bigint[], ${idx.map((i) => ownIds[i])}::bigint[], ${keys}::text[],
                  ${idx.map((i) => planned[i].mergeInto!.cosine)}::real[], ${idx.map((i) => planned[i].mergeInto!.reason)}::text[])
           AS x(k, a, ck, cs, r)
    RETURNING id, absorbed_atom_id`;
  const byAbsorbed = new Map(rows.map((r) => [Number(r.absorbed_atom_id), Number(r.id)]));
  for (const i of idx) out[i] = byAbsorbed.get(ownIds[i]);
  return out;
}

/** The link rows of the plan (one per (src, dst, kind)) and the planned atom each came from. */
function linkRows(planned: PlannedAtom[], eff: number[]): { rows: LinkRow[]; owners: number[] } {
  const seen = new Set<string>();
  const rows: LinkRow[] = [];
  const owners: number[] = [];
  planned.forEach((p, i) => {
    for (const l of p.links ?? []) {
      const dst = l.atomId ?? (l.planned !== undefined ? eff[l.planned] : undefined);
      const key = `${eff[i]}>${dst}:${l.kind}`;
      if (dst === undefined || dst === eff[i] || seen.has(key)) continue;
      seen.add(key);
      owners.push(i);
      rows.push({
        src: eff[i],
        dst,
        kind: l.kind,
        confidence: Math.min(1, Math.max(0, l.confidence)),
        source: l.source,
      });
    }
  });
  return { rows, owners };
}

/** Citation rows of the plan and the planned atom each came from (none without a document). */
function citationRows(
  planned: PlannedAtom[],
  r: { ownIds: number[]; eff: number[]; merged: boolean[] },
  ctxAt: (i: number) => WriteContext,
): { rows: CitationRow[]; owners: number[] } {
  const rows: CitationRow[] = [];
  const owners: number[] = [];
  planned.forEach((p, i) => {
    const ctx = ctxAt(i);
    if (ctx.docId === null) return;
    // The own row keeps its evidence (for an undo); a merged atom's citation is copied onto the atom that absorbed it.
    if (r.eff[i] === r.ownIds[i] || r.merged[i]) rows.push(citationRow(r.ownIds[i], ctx, p.citation));
    if (r.eff[i] !== r.ownIds[i]) rows.push(citationRow(r.eff[i], ctx, p.citation));
    while (owners.length < rows.length) owners.push(i);
  });
  return { rows, owners };
}

/** How many of `ids` (new rows, by position in `owners`) each planned atom added. */
function perAtom(n: number, owners: number[], added: Set<number>): number[] {
  const out = new Array<number>(n).fill(0);
  owners.forEach((i, k) => {
    if (added.has(k)) out[i]++;
  });
  return out;
}

/**
 * Writes planned atoms, their evidence, merges and links inside `tx`. `ctx` is one document for all the atoms or one
 * context per atom (a batch of documents: then a planned reference indexes the whole list). Citations are written
 * only when the context has a document. Planned atom i may merge into a stored atom or into an earlier planned atom.
 */
export async function writePlannedAtoms(
  tx: Tx,
  planned: PlannedAtom[],
  ctx: WriteContext | WriteContext[],
): Promise<WriteOutcome> {
  const ctxAt = Array.isArray(ctx) ? (i: number) => ctx[i] : () => ctx;
  const statuses = planned.map((p) => (p.mergeInto ? "stale" : "candidate"));
  const docIds = planned.map((_, i) => ctxAt(i).docId);
  const { ids, created } = await insertAtoms(
    tx,
    planned.map((p) => p.atom),
    docIds,
    statuses,
  );
  const ownIds = planned.map((p) => ids.get(p.atom.contentHash)!);
  await writeNewAtomMentions(tx, planned, ownIds, created); // issue 22: the entities of new atoms
  await writeNewAtomQuantities(tx, planned, ownIds, created); // issue 24: their measurements
  const existing = ownIds.filter((id) => !created.has(id));
  const { eff, merged } = effectiveIds(planned, ownIds, created, await keptAtoms(tx, existing));
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
    ctxAt(0)?.model ?? "",
  );
  const cit = citationRows(planned, { ownIds, eff, merged }, ctxAt);
  const citAdded = await insertCitationRows(tx, cit.rows);
  const mergeIds = await writeMerges(tx, planned, ownIds, eff, merged, ctxAt);
  const links = linkRows(planned, eff);
  const linkAdded = await insertLinkRows(tx, links.rows);
  await enqueueOutbox(tx, "atom", [...created], "upsert");
  await enqueueOutbox(tx, "atom_link", [...linkAdded.values()], "upsert");
  const outcomes: WriteOutcome["outcomes"] = [];
  const counted = new Set<number>();
  planned.forEach((_, i) => {
    if (merged[i]) outcomes.push("merged");
    else if (created.has(ownIds[i]) && !counted.has(ownIds[i])) outcomes.push("created");
    else outcomes.push("existing");
    counted.add(ownIds[i]);
  });
  const counts = { created: 0, existing: 0, merged: 0 };
  for (const o of outcomes) counts[o]++;
  return {
    atomIds: eff,
    created,
    counts,
    outcomes,
    citationsAdded: citAdded.size,
    linksAdded: linkAdded.size,
    citationsOf: perAtom(planned.length, cit.owners, new Set(citAdded.keys())),
    linksOf: perAtom(planned.length, links.owners, new Set(linkAdded.keys())),
    mergeIds,
    ownIds,
  };
}
