/**
 * FreshnessStore port: the check state of fetched URL documents (migration 0018) for `pegas-memory refresh`, which
 * re-checks them with conditional requests. A document is a URL document when its uri is http(s) and it was
 * fetched (content_hash set); it is due when it is active, its next check time (if any) has come and its last check
 * or last new version, whichever is later, is older than the asked age. A gone page (404/410) is due like any other
 * (its last check is when it was found gone, or last found still gone), so a page that comes back is noticed. Errors: PegasError
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
  /** True when the page answered 404/410 at an earlier check and has not come back since. */
  gone: boolean;
}

/** A URL document held back until its retry time by a failed check (a 5xx, a timeout, robots.txt). */
export interface WaitingUrlDocument {
  id: number;
  uri: string;
  /** The failure of the last check (e.g. "HTTP 503 …"), or null. */
  error: string | null;
  /** Not checked again before this (ISO 8601). */
  retryAt: string;
  /** Checks that failed in a row. */
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
  /**
   * URL documents that would be due at `olderThanS` but wait for the retry time of a failed check, soonest first, at
   * most `limit`, and how many there are in all.
   */
  waitingUrlDocuments(olderThanS: number, limit: number): Promise<{ total: number; items: WaitingUrlDocument[] }>;
  /** How many URL documents are due at `olderThanS`. */
  countDue(olderThanS: number): Promise<number>;
  /** A check succeeded (200 or 304): checked now, failures cleared, validators stored. */
  markChecked(docId: number, validators: Validators): Promise<void>;
  /** A check failed and changes nothing: failures + 1, `error` kept, not due again before `retryAt`. */
  markFailed(docId: number, error: string, retryAt: Date): Promise<void>;
  /**
   * The page is gone (`status` 404 or 410): the document is marked gone (kept; re-checked like any page, a page still
   * gone keeps the time it was first found gone) and every atom extracted from it gets `metadata.source_gone` =
   * {doc_id, uri, status, at}; resolves to the atoms newly flagged (0 when all were flagged by an earlier check).
   */
  markGone(docId: number, status: number): Promise<number>;
  /**
   * A page answered again (an ingest or a refresh of its URL stored it, unchanged or as a new version): a gone mark is
   * cleared (the document counts as checked now) and so is its atoms' `metadata.source_gone`; resolves to the atoms
   * unflagged (0 when nothing was flagged).
   */
  markBack(docId: number): Promise<number>;
  /** The check state of a document, or null when there is no such document. */
  freshness(docId: number): Promise<FreshnessState | null>;
}
