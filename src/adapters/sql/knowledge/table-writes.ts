/**
 * Row writes of the ingest path, one function per table, each one multi-row statement per {@link ROWS} rows:
 * `INSERT … SELECT FROM unnest($1::type[], …)`. The statement text does not depend on the row count, so each
 * connection parses and plans it once (a multi-row VALUES list was a new statement with 7 parameters per row for
 * every batch size: in PGlite the parse alone was a third of the commit). Same SQL on PGlite and PostgreSQL.
 */
import type { TransactionSql } from "postgres";
import type { ChunkInput, DocumentInput, QuarantineInput } from "../../../ports/store/ingest.ts";
import { processedText } from "../../../platform/gc.ts";
import { vectorToBytes } from "../vector-bytes.ts";

type Tx = TransactionSql<any>;

/** Rows per statement: bounds one statement's parameter text (≈ 1.5 MB of chunk text) and PGlite's memory for it. */
export const ROWS = 2000;

/** A chunk row of a document version. */
export type ChunkRow = Pick<ChunkInput, "ord" | "text" | "contentHash" | "locator"> & {
  docId: number;
  docVersion: number;
};

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

/**
 * Runs `write` on parts of at most {@link ROWS} rows. Each part's parameters (arrays, then their text literals) are
 * garbage once it ran, as much again as the rows' text: counted for the paced collection (platform/gc.ts), without
 * which a large commit's garbage grew the heap by ≈ 28 MiB per MB of text.
 */
export async function inParts<T, R>(
  rows: T[],
  write: (part: T[]) => Promise<R[]>,
  weigh: (row: T) => number = () => 64,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += ROWS) {
    const part = rows.slice(i, i + ROWS);
    const got = await write(part);
    for (const r of got) out.push(r);
    let units = 0;
    for (const r of part) units += weigh(r);
    processedText(2 * units);
  }
  return out;
}

/**
 * Upserts documents by uri (a new content hash makes a new version, see ingest-commit.ts); resolves to uri → id and
 * version of each document whose stored content differed (an unchanged one is absent).
 */
export async function upsertDocumentRows(
  tx: Tx,
  docs: DocumentInput[],
): Promise<Map<string, { id: number; version: number }>> {
  const rows = await inParts(
    docs,
    (part) => tx`
      INSERT INTO pm_document (kind, uri, title, content_hash, byte_size, authority, metadata)
      SELECT k, u, t, h, b, a, m::jsonb
        FROM unnest(${part.map((d) => d.kind)}::text[], ${part.map((d) => d.uri)}::text[],
                    ${part.map((d) => d.title)}::text[], ${part.map((d) => d.contentHash)}::text[],
                    ${part.map((d) => d.byteSize)}::bigint[], ${part.map((d) => d.authority)}::real[],
                    ${part.map((d) => JSON.stringify(d.metadata))}::text[]) AS x(k, u, t, h, b, a, m)
      ON CONFLICT (uri) DO UPDATE SET
        kind = EXCLUDED.kind,
        title = COALESCE(EXCLUDED.title, pm_document.title),
        authority = EXCLUDED.authority,
        content_hash = EXCLUDED.content_hash,
        byte_size = EXCLUDED.byte_size,
        metadata = pm_document.metadata || EXCLUDED.metadata,
        version = CASE WHEN pm_document.content_hash IS NULL THEN pm_document.version ELSE pm_document.version + 1 END,
        status = 'active',
        updated_at = now(),
        -- A new version carries its own validators (metadata); a page that was gone is back (migration 0018).
        http_etag = NULL,
        http_last_modified = NULL,
        gone_at = NULL
      WHERE pm_document.content_hash IS DISTINCT FROM EXCLUDED.content_hash
      RETURNING id, version, uri`,
    (d) => d.uri.length + 200,
  );
  return new Map(rows.map((r) => [String(r.uri), { id: Number(r.id), version: Number(r.version) }]));
}

/** Inserts document versions' chunks (an existing ord keeps its row, text refreshed); resolves to doc id → ord → chunk id. */
export async function insertChunkRows(tx: Tx, chunks: ChunkRow[]): Promise<Map<number, Map<number, number>>> {
  const rows = await inParts(
    chunks,
    (part) => tx`
      INSERT INTO pm_chunk (doc_id, doc_version, ord, text, content_hash, locator)
      SELECT d, v, o, t, h, l::jsonb
        FROM unnest(${part.map((c) => c.docId)}::bigint[], ${part.map((c) => c.docVersion)}::int[],
                    ${part.map((c) => c.ord)}::int[], ${part.map((c) => c.text)}::text[],
                    ${part.map((c) => c.contentHash)}::text[], ${part.map((c) => JSON.stringify(c.locator))}::text[])
             AS x(d, v, o, t, h, l)
      ON CONFLICT (doc_id, doc_version, ord) DO UPDATE SET text = EXCLUDED.text
      RETURNING id, doc_id, ord`,
    (c) => c.text.length,
  );
  const out = new Map<number, Map<number, number>>();
  for (const r of rows) {
    const doc = Number(r.doc_id);
    if (!out.has(doc)) out.set(doc, new Map());
    out.get(doc)!.set(Number(r.ord), Number(r.id));
  }
  return out;
}

/**
 * Stores canonical embeddings (an existing row for the atom and model is kept); resolves to the atom ids that got
 * one. The vectors travel as one bytea cut by offset: a bytea[] parameter would be escaped element by element.
 */
export async function insertEmbeddings(
  tx: Tx,
  rows: Array<{ atomId: number; vector: Float32Array }>,
  model: string,
): Promise<number[]> {
  const out = await inParts(
    rows,
    (part) => {
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
    },
    (r) => r.vector.length * 8,
  );
  return out.map((r) => Number(r.atom_id));
}

/** Position in `rows` → id of each row written (rows whose key already existed, or repeated a key, are absent). */
function byKey<T>(
  rows: T[],
  keyOf: (row: T) => string,
  got: Array<Record<string, unknown>>,
  keyOfGot: (r: Record<string, unknown>) => string,
): Map<number, number> {
  const at = new Map<string, number>();
  rows.forEach((r, i) => {
    const k = keyOf(r);
    if (!at.has(k)) at.set(k, i);
  });
  const out = new Map<number, number>();
  for (const r of got) out.set(at.get(keyOfGot(r))!, Number(r.id));
  return out;
}

/**
 * Inserts citations (an existing (atom, key) pair is kept); resolves to position in `rows` → id of each new row.
 */
export async function insertCitationRows(tx: Tx, rows: CitationRow[]): Promise<Map<number, number>> {
  const out = await inParts(
    rows,
    (part) => tx`
      INSERT INTO pm_citation (atom_id, doc_id, chunk_id, doc_version, locator, quoted_text, citation_key)
      SELECT a, d, c, v, l::jsonb, q, k
        FROM unnest(${part.map((r) => r.atomId)}::bigint[], ${part.map((r) => r.docId)}::bigint[],
                    ${part.map((r) => r.chunkId)}::bigint[], ${part.map((r) => r.docVersion)}::int[],
                    ${part.map((r) => JSON.stringify(r.locator))}::text[], ${part.map((r) => r.quote)}::text[],
                    ${part.map((r) => r.key)}::text[]) AS x(a, d, c, v, l, q, k)
      ON CONFLICT (atom_id, citation_key) DO NOTHING RETURNING id, atom_id, citation_key`,
    (r) => r.quote.length + 160,
  );
  return byKey(
    rows,
    (r) => `${r.atomId}:${r.key}`,
    out,
    (r) => `${r.atom_id}:${r.citation_key}`,
  );
}

/** Inserts atom links (an existing (src, dst, kind) is kept); resolves to position in `rows` → id of each new row. */
export async function insertLinkRows(tx: Tx, rows: LinkRow[]): Promise<Map<number, number>> {
  const out = await inParts(
    rows,
    (part) => tx`
      INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind, confidence, source)
      SELECT s, d, k, c, o
        FROM unnest(${part.map((r) => r.src)}::bigint[], ${part.map((r) => r.dst)}::bigint[],
                    ${part.map((r) => r.kind)}::text[], ${part.map((r) => r.confidence)}::real[],
                    ${part.map((r) => r.source)}::text[]) AS x(s, d, k, c, o)
      ON CONFLICT (src_atom_id, dst_atom_id, kind) DO NOTHING RETURNING id, src_atom_id, dst_atom_id, kind`,
  );
  return byKey(
    rows,
    (r) => `${r.src}>${r.dst}:${r.kind}`,
    out,
    (r) => `${r.src_atom_id}>${r.dst_atom_id}:${r.kind}`,
  );
}

/** Appends outbox rows for the external projections (rows no registered reader reads are dropped by a rule). */
export async function enqueueOutbox(tx: Tx, entityType: string, ids: number[], op: "upsert" | "delete"): Promise<void> {
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
