/**
 * DocumentCatalog port: the registry of sources read page by page for the admin page (src/ui/): each document with
 * its kind, version, authority and atoms per status, and one document's atoms. Read-only. Errors: PegasError
 * NOT_FOUND (unknown document), STORE_UNAVAILABLE, MIGRATION_REQUIRED.
 */
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import type { DocumentKind } from "../../domain/locator.ts";

/** A document as listed: `version` is its current version (1 = never re-ingested); `atoms` counts by status. */
export interface DocumentSummary {
  id: number;
  kind: DocumentKind;
  uri: string;
  title: string | null;
  /** 0..1 */
  authority: number;
  version: number;
  /** `active`, or `retracted` when the document was forgotten. */
  status: string;
  /** Bytes of the source as last ingested (0 when only referenced). */
  byte_size: number;
  updated_at: string;
  atoms: Partial<Record<AtomStatus, number>>;
}

/** An atom of a document as listed (`claim` cut to 300 characters). */
export interface DocumentAtomRow {
  id: number;
  type: AtomType;
  status: AtomStatus;
  claim: string;
  confidence: number;
  lang: string;
}

/** One page of rows and the total they are cut from. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** Reads of the document registry. */
export interface DocumentCatalog {
  /** Documents, newest first, `limit` rows after `offset`. */
  listDocuments(offset: number, limit: number): Promise<Page<DocumentSummary>>;
  /** One document. @throws PegasError NOT_FOUND. */
  document(id: number): Promise<DocumentSummary>;
  /** A document's atoms (any status) in id order, `limit` rows after `offset`. */
  documentAtoms(docId: number, offset: number, limit: number): Promise<Page<DocumentAtomRow>>;
}
