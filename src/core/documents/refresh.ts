/**
 * `pegas-memory refresh`: fetched URL documents are checked again (issue 24, item 2). Each due document
 * (FreshnessStore) is fetched with a conditional GET from the validators of its last fetch, through the same Fetcher
 * as ingest (proxy and address rules), after its origin's robots.txt allowed it and its host's politeness delay
 * passed (host-politeness.ts). Then:
 * - 304 Not Modified: only the check time (and validators) change;
 * - 200: the page is parsed and stored by the ingest path, which judges change on the extracted text (its content
 *   hash), not on the HTML: the same text only updates the check time, another text becomes a new document version
 *   whose vanished atoms go `stale` (as for a changed file);
 * - 404/410: the document is marked gone and its atoms flagged (`metadata.source_gone`), never deleted; a gone page
 *   is re-checked at the same cadence as the others (a page still gone keeps its first gone time), and one that
 *   answers again is `back`: the same text (or a 304) clears the mark and the flags, another text is a new version
 *   (`changed`, flags cleared too);
 * - anything else (5xx, a timeout, a blocked page, a parse failure): nothing changes but the failure count, and the
 *   document is due again after a growing delay or the server's Retry-After (freshness-policy.ts); robots.txt
 *   forbidding the page (`disallowed`) is reported, never taken for a gone page.
 * Documents still waiting for the retry time of an earlier failed check are not fetched; the result lists them
 * (`waiting`, `waiting_items`: URL, last error, next attempt) so that no retry is skipped silently.
 * Documents are checked one at a time, oldest check first.
 */
import { toPegasError } from "../../errors.ts";
import type { DueUrlDocument, WaitingUrlDocument } from "../../ports/store/freshness.ts";
import type { Services } from "../services.ts";
import { DEFAULT_HOST_INTERVAL_MS, DEFAULT_REFRESH_AGE_S, retryAt } from "./freshness-policy.ts";
import { HostPoliteness } from "./host-politeness.ts";
import type { DocumentIngestServices } from "./ingest-document.ts";
import { ingestParsed } from "./ingest-document.ts";
import { fetchedSource, parseRaw } from "./parse-source.ts";

/** What a refresh runs on: storing a changed page as ingest does, fetching, parsing and the check state. */
export type RefreshServices = DocumentIngestServices & Pick<Services, "fetcher" | "parse" | "freshness">;

/** Most documents waiting for a retry listed by name in a run's result (all are counted). */
export const WAITING_LISTED = 20;

/** Default most documents checked in one run. */
export const DEFAULT_REFRESH_LIMIT = 500;

/** Options of {@link refresh}. */
export interface RefreshOptions {
  /** Check documents whose last check is at least this old (seconds; default {@link DEFAULT_REFRESH_AGE_S}). */
  olderThanS?: number;
  /** Most documents checked (default {@link DEFAULT_REFRESH_LIMIT}). */
  limit?: number;
  /** Least time between two requests to one host (ms; default {@link DEFAULT_HOST_INTERVAL_MS}). */
  hostIntervalMs?: number;
  signal?: AbortSignal;
  /** Called after each checked document: (checked so far, due documents, a line naming the outcome and URI). */
  onProgress?: (done: number, total: number, message: string) => void;
}

/**
 * What a check found: see the module doc. `back`: a gone page answered again with the text it held; `disallowed`:
 * robots.txt forbids the page (retried later, like `retry`).
 */
export type RefreshOutcome = "changed" | "unchanged" | "back" | "gone" | "retry" | "disallowed";

/** One checked document. */
export interface RefreshItem {
  doc_id: number;
  uri: string;
  outcome: RefreshOutcome;
  /** The document's version after the check (a new one when `changed`). */
  version: number;
  /** `changed`: atoms of the older version that the new one no longer holds (now `stale`). */
  atoms_staled?: number;
  /** `gone`: atoms newly flagged as coming from a gone page (0 when the page was already gone). */
  atoms_flagged?: number;
  /** `back` (or `changed` after gone): atoms whose gone flag was cleared. */
  atoms_unflagged?: number;
  /** `retry`, `disallowed`, `gone`: why. */
  error?: string;
  /** `retry`, `disallowed`: not checked again before this (ISO 8601). */
  retry_at?: string;
}

/** A document not checked by this run: an earlier check failed and its retry time has not come. */
export interface WaitingItem {
  doc_id: number;
  uri: string;
  /** The earlier check's failure. */
  error?: string;
  /** Next attempt: not checked again before this (ISO 8601). */
  retry_at: string;
  /** Checks that failed in a row. */
  failures: number;
}

/** Outcome of a run: counts per outcome, every checked document, and the documents waiting for a retry. */
export interface RefreshResult {
  checked: number;
  changed: number;
  unchanged: number;
  back: number;
  gone: number;
  retry: number;
  disallowed: number;
  /** Documents not checked because an earlier failed check's retry time has not come (all of them). */
  waiting: number;
  items: RefreshItem[];
  /** The first {@link WAITING_LISTED} waiting documents, soonest retry first. */
  waiting_items: WaitingItem[];
}

/** A gone page answered with the text it held: the gone mark and its atoms' flags are cleared. */
async function back(s: RefreshServices, doc: DueUrlDocument): Promise<RefreshItem> {
  const unflagged = await s.freshness.markBack(doc.id);
  return { doc_id: doc.id, uri: doc.uri, version: doc.version, outcome: "back", atoms_unflagged: unflagged };
}

async function deferred(
  s: RefreshServices,
  doc: DueUrlDocument,
  outcome: "retry" | "disallowed",
  error: string,
  at: Date,
): Promise<RefreshItem> {
  await s.freshness.markFailed(doc.id, error, at);
  return { doc_id: doc.id, uri: doc.uri, outcome, version: doc.version, error, retry_at: at.toISOString() };
}

/** Fetches and judges one document. @throws PegasError CANCELLED, STORE_UNAVAILABLE (the run stops). */
async function checkOne(
  s: RefreshServices,
  doc: DueUrlDocument,
  polite: HostPoliteness,
  opts: RefreshOptions,
): Promise<RefreshItem> {
  const url = new URL(doc.uri);
  const base = { doc_id: doc.id, uri: doc.uri, version: doc.version };
  const robots = await polite.allowed(url);
  if (robots === "unreachable") {
    const why = polite.unreachableReason(url);
    const error = `robots.txt could not be read${why ? `: ${why}` : ""}`;
    return deferred(s, doc, "retry", error, retryAt(new Date(), doc.failures + 1));
  }
  if (robots === "disallowed") {
    const later = new Date(Date.now() + Math.max(opts.olderThanS ?? DEFAULT_REFRESH_AGE_S, 86_400) * 1000);
    return deferred(s, doc, "disallowed", "robots.txt disallows this page", later);
  }
  await polite.pace(url);
  try {
    const conditional = { etag: doc.etag ?? undefined, lastModified: doc.lastModified ?? undefined };
    const r = await s.fetcher.fetch(doc.uri, opts.signal, conditional);
    const validators = {
      etag: r.headers.etag ?? doc.etag,
      lastModified: r.headers["last-modified"] ?? doc.lastModified,
    };
    if (r.status === 304) {
      await s.freshness.markChecked(doc.id, validators);
      return doc.gone ? back(s, doc) : { ...base, outcome: "unchanged" };
    }
    const raw = fetchedSource(doc.uri, r);
    const parsed = await parseRaw(s, raw, opts.signal);
    const out = await ingestParsed(s, raw, parsed, { signal: opts.signal });
    if (!out.stored)
      return deferred(s, doc, "retry", out.warnings[0] ?? "no text", retryAt(new Date(), doc.failures + 1));
    await s.freshness.markChecked(doc.id, {
      etag: r.headers.etag ?? null,
      lastModified: r.headers["last-modified"] ?? null,
    });
    if (out.unchanged) return doc.gone ? back(s, doc) : { ...base, outcome: "unchanged" };
    const unflagged = doc.gone ? await s.freshness.markBack(doc.id) : 0;
    return {
      ...base,
      outcome: "changed",
      version: out.version,
      atoms_staled: out.atoms_staled,
      ...(unflagged ? { atoms_unflagged: unflagged } : {}),
    };
  } catch (err) {
    const e = toPegasError(err);
    if (["CANCELLED", "STORE_UNAVAILABLE", "MIGRATION_REQUIRED"].includes(e.code)) throw e;
    const status = (err as { status?: unknown }).status;
    if (e.code === "NOT_FOUND" && (status === 404 || status === 410)) {
      const flagged = await s.freshness.markGone(doc.id, status);
      return { ...base, outcome: "gone", atoms_flagged: flagged, error: `HTTP ${status}` };
    }
    const after = (err as { retryAfter?: unknown }).retryAfter;
    const at = retryAt(new Date(), doc.failures + 1, typeof after === "string" ? after : undefined);
    return deferred(s, doc, "retry", e.message, at);
  }
}

/**
 * Checks the due URL documents (see the module doc) and resolves to what each check found.
 * @throws PegasError CANCELLED (the documents checked so far keep their outcome), STORE_UNAVAILABLE.
 */
export async function refresh(s: RefreshServices, opts: RefreshOptions = {}): Promise<RefreshResult> {
  const age = opts.olderThanS ?? DEFAULT_REFRESH_AGE_S;
  const waiting = await s.freshness.waitingUrlDocuments(age, WAITING_LISTED);
  const due = await s.freshness.dueUrlDocuments(age, opts.limit ?? DEFAULT_REFRESH_LIMIT);
  const polite = new HostPoliteness(s.fetcher, {
    intervalMs: opts.hostIntervalMs ?? DEFAULT_HOST_INTERVAL_MS,
    robots: s.config.respect_robots,
    signal: opts.signal,
  });
  const items: RefreshItem[] = [];
  for (const doc of due) {
    const item = await checkOne(s, doc, polite, opts);
    items.push(item);
    opts.onProgress?.(items.length, due.length, `${item.outcome} ${item.uri}`);
  }
  const count = (o: RefreshOutcome) => items.filter((i) => i.outcome === o).length;
  return {
    checked: items.length,
    changed: count("changed"),
    unchanged: count("unchanged"),
    back: count("back"),
    gone: count("gone"),
    retry: count("retry"),
    disallowed: count("disallowed"),
    waiting: waiting.total,
    items,
    waiting_items: waiting.items.map(waitingItem),
  };
}

function waitingItem(w: WaitingUrlDocument): WaitingItem {
  return {
    doc_id: w.id,
    uri: w.uri,
    ...(w.error ? { error: w.error } : {}),
    retry_at: w.retryAt,
    failures: w.failures,
  };
}
