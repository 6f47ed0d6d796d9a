/**
 * Progress of an ingest (domain/progress.ts): {@link DOCUMENT_UNITS} per document, shared by its phases by weight
 * ({@link DOCUMENT_PHASES}); a directory adds one unit for its listing first and gives each file an equal part.
 */
import { type ProgressFn, ProgressReporter, type ProgressSpan, silentSpan } from "../../domain/progress.ts";

/** The progress options of an ingest (see IngestOptions in ingest.ts). */
export interface ProgressOptions {
  onProgress?: ProgressFn;
  progressEveryMs?: number;
  progress?: ProgressSpan;
}

/** Progress units of one document (its parse, distill, embed and write phases share them by weight). */
export const DOCUMENT_UNITS = 1000;
/** Least time between two progress notifications of an ingest that are not phase changes (ms). */
export const PROGRESS_EVERY_MS = 200;
/** Least time between two phase changes sent by a directory ingest (ms): thousands of small files stay readable. */
export const DIRECTORY_PHASE_EVERY_MS = 100;

/**
 * Weights of the phases of one document's progress: parse (fetching and parsing the source), distill (per chunk),
 * embed (per batch of atoms), write (dedup and the transaction): distill and embed take most of an ingest's time.
 */
export const DOCUMENT_PHASES = { parse: 5, distill: 50, embed: 35, write: 10 } as const;

/** The phases of a document's progress span (see {@link DOCUMENT_PHASES}). */
export function documentPhases(span: ProgressSpan | undefined): Record<keyof typeof DOCUMENT_PHASES, ProgressSpan> {
  return (span ?? silentSpan()).split(DOCUMENT_PHASES);
}

/**
 * The reporter of an ingest that reports to `opts.onProgress`: unforced notifications at most one per
 * `opts.progressEveryMs` (default {@link PROGRESS_EVERY_MS}), phase changes one per `phaseEveryMs`.
 */
export function reporterOf(opts: ProgressOptions, phaseEveryMs = 0): ProgressReporter {
  const every = opts.progressEveryMs ?? PROGRESS_EVERY_MS;
  return new ProgressReporter(opts.onProgress, every, Math.min(every, phaseEveryMs));
}

/** The span of an ingest of one source: the caller's, or a new run of {@link DOCUMENT_UNITS} whose total is known. */
export function singleSpan(opts: ProgressOptions): ProgressSpan {
  if (opts.progress) return opts.progress;
  const r = reporterOf(opts);
  r.setTotal(DOCUMENT_UNITS);
  return r.span(0, DOCUMENT_UNITS);
}
