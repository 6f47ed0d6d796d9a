/**
 * The result of an ingest, summed document by document as they are stored: a directory of 50,000 files keeps its
 * totals and the first {@link MAX_LISTED} documents, errors and warnings, never every document's result.
 */
import type { DocumentResult, IngestCounts } from "./ingest-document.ts";
import type { SkippedEntry } from "./source.ts";

/** A source of a directory ingest that failed. */
export interface IngestError {
  source: string;
  code: string;
  message: string;
}

/** Outcome: totals over every document, each document's result, and the failures of a directory ingest. */
export interface IngestResult extends IngestCounts {
  /** The document, when exactly one source was ingested (else null). */
  doc_id: number | null;
  uri: string | null;
  version: number | null;
  unchanged: boolean;
  /** Documents, at most {@link MAX_LISTED} (see `documents_total`). */
  documents: DocumentResult[];
  documents_total: number;
  errors: IngestError[];
  /** Entries of a directory that were passed over, at most {@link MAX_LISTED}. */
  skipped: SkippedEntry[];
  took_ms: number;
}

/** Longest list of documents, errors or skipped entries in a result (the totals count everything). */
export const MAX_LISTED = 100;

/** The counters of an {@link IngestCounts}, summed over documents and listed by memory_ingest's answer. */
export const INGEST_COUNT_KEYS = [
  "chunks",
  "atoms_distilled",
  "atoms_created",
  "atoms_existing",
  "atoms_near_duplicate",
  "atoms_contradicting",
  "atoms_superseded",
  "citations_added",
  "links_added",
  "atoms_staled",
  "atoms_revived",
  "chunks_quarantined",
] as const satisfies ReadonlyArray<keyof IngestCounts>;

/** Sums document results into an {@link IngestResult} (`many`: warnings are prefixed with their document's uri). */
export class IngestTally {
  private readonly docs: DocumentResult[] = [];
  private readonly errors: IngestError[] = [];
  private readonly warnings: string[] = [];
  private readonly notes: string[] = [];
  private readonly counts = Object.fromEntries(INGEST_COUNT_KEYS.map((k) => [k, 0])) as Record<
    (typeof INGEST_COUNT_KEYS)[number],
    number
  >;
  private total = 0;
  private failed = 0;
  private allUnchanged = true;

  constructor(private readonly many: boolean) {}

  /** Documents added so far. */
  get documents(): number {
    return this.total;
  }

  /** Adds a stored (or unchanged, or empty) document's result. */
  add(d: DocumentResult): void {
    this.total++;
    for (const k of INGEST_COUNT_KEYS) this.counts[k] += d[k];
    this.allUnchanged &&= d.unchanged;
    if (this.docs.length < MAX_LISTED) this.docs.push(d);
    for (const w of d.warnings)
      if (this.warnings.length < MAX_LISTED) this.warnings.push(this.many ? `${d.uri}: ${w}` : w);
  }

  /** Adds a source that failed. */
  fail(e: IngestError): void {
    this.failed++;
    if (this.errors.length < MAX_LISTED) this.errors.push(e);
  }

  /** Adds a warning about the whole ingest: listed before the documents' warnings. */
  note(w: string): void {
    this.notes.push(w);
  }

  /** The result, `took_ms` counted from `started` (performance.now()). */
  result(started: number, skipped: SkippedEntry[] = []): IngestResult {
    const one = this.total === 1 && this.failed === 0 ? this.docs[0] : null;
    return {
      doc_id: one?.doc_id ?? null,
      uri: one?.uri ?? null,
      version: one ? one.version : null,
      unchanged: this.total > 0 && this.allUnchanged,
      documents: this.docs,
      documents_total: this.total,
      errors: this.errors,
      skipped: skipped.slice(0, MAX_LISTED),
      ...this.counts,
      warnings: [...this.notes, ...this.warnings].slice(0, MAX_LISTED),
      took_ms: Math.round(performance.now() - started),
    };
  }

  /** The result of an ingest that stored nothing yet (a background job's first answer). */
  static empty(): IngestResult {
    return new IngestTally(false).result(performance.now());
  }

  /** The result of one document (url, text or a single file). */
  static of(d: DocumentResult, started: number): IngestResult {
    const t = new IngestTally(false);
    t.add(d);
    return t.result(started);
  }
}
