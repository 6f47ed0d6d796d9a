/**
 * Row writes of the ingest path, one function per table, each one multi-row statement per {@link ROWS} rows:
 * `INSERT … SELECT FROM unnest($1::type[], …)`. The statement text does not depend on the row count, so each
 * connection parses and plans it once (a multi-row VALUES list was a new statement with 7 parameters per row for
 * every batch size: in PGlite the parse alone was a third of the commit). Same SQL on PGlite and PostgreSQL.
 */
import type { TransactionSql } from "postgres";
import type { ChunkInput, QuarantineInput } from "../../../ports/store/ingest.ts";
import { vectorToBytes } from "../vector-bytes.ts";

type Tx = TransactionSql<any>;

/** Rows per statement: bounds one statement's parameter text (≈ 1.5 MB of chunk text) and PGlite's memory for it. */
export const ROWS = 2000;

/** A chunk row of a document version. */
export type ChunkRow = Pick<ChunkInput, "ord" | "text" | "contentHash" | "locator">;

/** A citation row (`pm_citation`); `chunkId` null for evidence outside a chunk. */
export interface CitationRow {
  atomId: number;
  docId: number;
  chunkId: number | null;
  docVersion: number;
  locator: unknown;
  quote: string;
  key: string;
}

/** An atom → atom edge (`pm_atom_link`); confidence in [0, 1]. */
export interface LinkRow {
  src: number;
  dst: number;
  kind: string;
  confidence: number;
  source: string;
}

async function inParts<T, R>(rows: T[], write: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += ROWS) {
    const got = await write(rows.slice(i, i + ROWS));
    for (const r of got) out.push(r);
  }
  return out;
}

/** Inserts a version's chunks (an existing ord keeps its row, text refreshed); resolves to ord → chunk id. */
export async function insertChunkRows(
  tx: Tx,
  docId: number,
  version: number,
  chunks: ChunkRow[],
): Promise<Map<number, number>> {
  const rows = await inParts(
    chunks,
    (part) => tx`
      INSERT INTO pm_chunk (doc_id, doc_version, ord, text, content_hash, locator)
      SELECT ${docId}::bigint, ${version}::int, o, t, h, l::jsonb
        FROM unnest(${part.map((c) => c.ord)}::int[], ${part.map((c) => c.text)}::text[],
                    ${part.map((c) => c.contentHash)}::text[], ${part.map((c) => JSON.stringify(c.locator))}::text[])
             AS x(o, t, h, l)
      ON CONFLICT (doc_id, doc_version, ord) DO UPDATE SET text = EXCLUDED.text
      RETURNING id, ord`,
  );
  return new Map(rows.map((r) => [Number(r.ord), Number(r.id)]));
}

/**
 * Stores canonical embeddings (an existing row for the atom and model is kept); resolves to the atom ids that got
 * one. The vectors travel as one bytea cut by offset: a bytea[] parameter would be escaped element by element.
 */
export async function insertEmbeddingRows(
  tx: Tx,
  rows: Array<{ atomId: number; vector: Float32Array }>,
  model: string,
): Promise<number[]> {
  const out = await inParts(rows, (part) => {
    const bytes = Buffer.concat(part.map((r) => vectorToBytes(r.vector)));
    const offsets: number[] = [];
    let at = 0;
    for (const r of part) {
      offsets.push(at);
      at += r.vector.length * 4;
    }
    return tx`
      INSERT INTO pm_atom_embedding (atom_id, model, dim, vector)
      SELECT a, ${model}::text, d, substring(${bytes}::bytea FROM o + 1 FOR d * 4)
        FROM unnest(${part.map((r) => r.atomId)}::bigint[], ${part.map((r) => r.vector.length)}::int[],
                    ${offsets}::int[]) AS x(a, d, o)
      ON CONFLICT (atom_id, model) DO NOTHING RETURNING atom_id`;
  });
  return out.map((r) => Number(r.atom_id));
}

/** Inserts citations (an existing (atom, key) pair is kept); resolves to the ids of the new rows. */
export async function insertCitationRows(tx: Tx, rows: CitationRow[]): Promise<number[]> {
  const out = await inParts(
    rows,
    (part) => tx`
      INSERT INTO pm_citation (atom_id, doc_id, chunk_id, doc_version, locator, quoted_text, citation_key)
      SELECT a, d, c, v, l::jsonb, q, k
        FROM unnest(${part.map((r) => r.atomId)}::bigint[], ${part.map((r) => r.docId)}::bigint[],
                    ${part.map((r) => r.chunkId)}::bigint[], ${part.map((r) => r.docVersion)}::int[],
                    ${part.map((r) => JSON.stringify(r.locator))}::text[], ${part.map((r) => r.quote)}::text[],
                    ${part.map((r) => r.key)}::text[]) AS x(a, d, c, v, l, q, k)
      ON CONFLICT (atom_id, citation_key) DO NOTHING RETURNING id`,
  );
  return out.map((r) => Number(r.id));
}

/** Inserts atom links (an existing (src, dst, kind) is kept); resolves to the ids of the new rows. */
export async function insertLinkRows(tx: Tx, rows: LinkRow[]): Promise<number[]> {
  const out = await inParts(
    rows,
    (part) => tx`
      INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind, confidence, source)
      SELECT s, d, k, c, o
        FROM unnest(${part.map((r) => r.src)}::bigint[], ${part.map((r) => r.dst)}::bigint[],
                    ${part.map((r) => r.kind)}::text[], ${part.map((r) => r.confidence)}::real[],
                    ${part.map((r) => r.source)}::text[]) AS x(s, d, k, c, o)
      ON CONFLICT (src_atom_id, dst_atom_id, kind) DO NOTHING RETURNING id`,
  );
  return out.map((r) => Number(r.id));
}

/** Appends outbox rows for the external projections (rows no registered reader reads are dropped by a rule). */
export async function insertOutboxRows(
  tx: Tx,
  entityType: string,
  ids: number[],
  op: "upsert" | "delete",
): Promise<void> {
  await inParts(ids, async (part) => {
    await tx`
      INSERT INTO pm_outbox (entity_type, entity_id, op)
      SELECT ${entityType}::text, e, ${op}::text FROM unnest(${part.map(String)}::text[]) AS x(e)`;
    return [];
  });
}

/** Records the chunks whose distillation failed (pm_distill_quarantine); resolves to the rows written. */
export async function insertQuarantineRows(
  tx: Tx,
  docId: number,
  version: number,
  rows: QuarantineInput[],
  chunkIds: Map<number, number>,
): Promise<number> {
  await inParts(rows, async (part) => {
    await tx`
      INSERT INTO pm_distill_quarantine (doc_id, doc_version, chunk_id, chunk_ord, distiller, reason, detail, attempts)
      SELECT ${docId}::bigint, ${version}::int, c, o, d, r, t, n
        FROM unnest(${part.map((q) => chunkIds.get(q.chunkOrd) ?? null)}::bigint[], ${part.map((q) => q.chunkOrd)}::int[],
                    ${part.map((q) => q.distiller)}::text[], ${part.map((q) => q.reason)}::text[],
                    ${part.map((q) => q.detail.slice(0, 500))}::text[], ${part.map((q) => q.attempts)}::int[])
             AS x(c, o, d, r, t, n)`;
    return [];
  });
  return rows.length;
}
