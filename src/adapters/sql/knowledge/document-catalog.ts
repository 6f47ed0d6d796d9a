/**
 * DocumentCatalog over SQL (PostgreSQL and PGlite alike): the document registry with atom counts per status, and a
 * document's atoms, page by page.
 */
import type { Sql } from "postgres";
import type { AtomStatus, AtomType } from "../../../domain/atom.ts";
import { PegasError } from "../../../errors.ts";
import type { DocumentKind } from "../../../domain/locator.ts";
import type { DocumentAtomRow, DocumentCatalog, DocumentSummary, Page } from "../../../ports/store/document-catalog.ts";
import type { Database } from "../database.ts";
import { guard } from "../errors.ts";

const CLAIM_CHARS = 300;

function summary(r: Record<string, any>): DocumentSummary {
  const atoms: Partial<Record<AtomStatus, number>> = {};
  for (const [k, v] of Object.entries((r.atoms ?? {}) as Record<string, unknown>)) atoms[k as AtomStatus] = Number(v);
  return {
    id: Number(r.id),
    kind: r.kind as DocumentKind,
    uri: String(r.uri),
    title: r.title === null ? null : String(r.title),
    authority: Number(r.authority),
    version: Number(r.version),
    status: String(r.status),
    byte_size: Number(r.byte_size),
    updated_at: new Date(r.updated_at).toISOString(),
    atoms,
  };
}

/** Rows of pm_document with their atom counts per status (a correlated aggregate: one index scan per document). */
function documentRows(sql: Sql<any>, where: ReturnType<Sql<any>>, offset: number, limit: number) {
  return sql`
    SELECT d.id, d.kind, d.uri, d.title, d.authority, d.version, d.status, d.byte_size, d.updated_at,
           (SELECT coalesce(jsonb_object_agg(s.status, s.n), '{}'::jsonb)
              FROM (SELECT status, count(*) AS n FROM pm_atom a WHERE a.doc_id = d.id GROUP BY status) s) AS atoms
      FROM pm_document d ${where}
     ORDER BY d.updated_at DESC, d.id DESC
     LIMIT ${limit} OFFSET ${offset}`;
}

/** {@link DocumentCatalog} over a {@link Database}. */
export class SqlDocumentCatalog implements DocumentCatalog {
  constructor(private readonly db: Database) {}

  listDocuments(offset: number, limit: number): Promise<Page<DocumentSummary>> {
    return guard(this.db, "list documents", async (sql) => {
      const [rows, [count]] = await Promise.all([
        documentRows(sql, sql``, offset, limit),
        sql`SELECT count(*) AS n FROM pm_document`,
      ]);
      return { rows: rows.map(summary), total: Number(count.n) };
    });
  }

  document(id: number): Promise<DocumentSummary> {
    return guard(this.db, `read document ${id}`, async (sql) => {
      const [row] = await documentRows(sql, sql`WHERE d.id = ${id}`, 0, 1);
      if (!row) throw new PegasError("NOT_FOUND", `no document '${id}'`, { hint: "the documents page lists them" });
      return summary(row);
    });
  }

  documentAtoms(docId: number, offset: number, limit: number): Promise<Page<DocumentAtomRow>> {
    return guard(this.db, `list the atoms of document ${docId}`, async (sql) => {
      const [rows, [count]] = await Promise.all([
        sql`SELECT id, type, status, left(claim, ${CLAIM_CHARS}) AS claim, confidence, lang FROM pm_atom
             WHERE doc_id = ${docId} ORDER BY id LIMIT ${limit} OFFSET ${offset}`,
        sql`SELECT count(*) AS n FROM pm_atom WHERE doc_id = ${docId}`,
      ]);
      return {
        rows: rows.map((r) => ({
          id: Number(r.id),
          type: r.type as AtomType,
          status: r.status as AtomStatus,
          claim: String(r.claim),
          confidence: Number(r.confidence),
          lang: String(r.lang),
        })),
        total: Number(count.n),
      };
    });
  }
}
