/**
 * FreshnessStore port: the check state of fetched URL documents (migration 0018) for `pegas-memory refresh`, which
 * re-checks them with conditional requests. A document is a URL document when its uri is http(s) and it was
 * fetched (content_hash set); it is due when it is active, not gone, its next check time (if any) has come and its
 * last check or last new version, whichever is later, is older than the asked age. Errors: PegasError
 * STORE_UNAVAILABLE, MIGRATION_REQUIRED.
 */

/** A URL document to re-check, with the validators of its last fetch. */
export interface DueUrlDocument {
  id: number;
  uri: string;
  version: number;
  /** ETag of the last fetch, sent as If-None-Match (null: none known). */
  etag: string | null;
  /** Last-Modified of the last fetch (an HTTP date), sent as If-Modified-Since (null: none known). */
  lastModified: string | null;
  /** Checks that failed in a row before this one (0 after a success). */
  failures: number;
}

/** Validators a successful check learned; an absent field keeps the stored one, null clears it. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

/** Check state of one document (what the admin page and tests read). */
export interface FreshnessState {
  etag: string | null;
  lastModified: string | null;
  /** ISO 8601, or null when never re-checked. */
  checkedAt: string | null;
  /** ISO 8601: not checked again before this (a failed check's retry time), or null. */
  nextCheckAt: string | null;
  failures: number;
  lastError: string | null;
  /** ISO 8601: when the page answered 404/410, or null. */
  goneAt: string | null;
}

/** Check state of fetched URL documents. */
export interface FreshnessStore {
  /** Due URL documents (see the module doc) whose last check is at least `olderThanS` seconds old, oldest first. */
  dueUrlDocuments(olderThanS: number, limit: number): Promise<DueUrlDocument[]>;
  /** How many URL documents are due at `olderThanS`. */
  countDue(olderThanS: number): Promise<number>;
  /** A check succeeded (200 or 304): checked now, failures cleared, validators stored. */
  markChecked(docId: number, validators: Validators): Promise<void>;
  /** A check failed and changes nothing: failures + 1, `error` kept, not due again before `retryAt`. */
  markFailed(docId: number, error: string, retryAt: Date): Promise<void>;
  /**
   * The page is gone (`status` 404 or 410): the document is marked gone (kept, never re-checked) and every atom
   * extracted from it gets `metadata.source_gone` = {doc_id, uri, status, at}; resolves to the atoms flagged.
   */
  markGone(docId: number, status: number): Promise<number>;
  /**
   * A gone page answered again with the text it held (an ingest of its URL found it unchanged): the gone mark and
   * its atoms' `metadata.source_gone` are cleared and it is checked now; resolves to the atoms unflagged (0 when the
   * document was not gone).
   */
  markBack(docId: number): Promise<number>;
  /** The check state of a document, or null when there is no such document. */
  freshness(docId: number): Promise<FreshnessState | null>;
}
