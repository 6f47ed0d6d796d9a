/**
 * A directory ingest in one call, however many files it holds: the directory is walked as a stream
 * (source.ts `walkDirectory`) ahead of the ingest, which starts with the first file found; files are read, distilled
 * and embedded one by one and stored in batches (≤ {@link BATCH_FILES} files, {@link BATCH_CHARS} characters,
 * {@link BATCH_DRAFTS} drafts), each batch in one transaction (store-documents.ts), so a crash or a cancellation
 * keeps every batch stored before it whole, and a re-run skips those files (their content hash is unchanged) and
 * goes on with the rest. `max_directory_files` is a safety setting: past it
 * the walk stops and the result says so in `warnings`, the files taken are still ingested. Only totals and the first
 * MAX_LISTED results are kept (tally.ts), so memory does not grow with the number of files.
 */
import type { ProgressSpan } from "../../domain/progress.ts";
import { PegasError, invalidInput, toPegasError } from "../../errors.ts";
import type { DocumentResult, PreparedDocument } from "./ingest-document.ts";
import { DIRECTORY_PHASE_EVERY_MS, DOCUMENT_UNITS, type ProgressOptions, reporterOf } from "./progress.ts";
import { type SkippedEntry, walkDirectory } from "./source.ts";
import { IngestTally } from "./tally.ts";

/** Files found by the walk, filled ahead of the ingest (paths only: ≈ 100 bytes a file). */
class FileQueue {
  private readonly files: string[] = [];
  private next = 0;
  private finished = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;

  /** Files found so far. */
  get found(): number {
    return this.files.length;
  }

  /** True once the walk has ended (every file is found). */
  get done(): boolean {
    return this.finished;
  }

  push(file: string): void {
    this.files.push(file);
    this.wake?.();
  }

  finish(err?: unknown): void {
    this.finished = true;
    this.failure = err ?? null;
    this.wake?.();
  }

  /** The next file, waiting for the walk if needed; null when the walk is over. @throws the walk's error. */
  async take(): Promise<string | null> {
    while (this.next >= this.files.length && !this.finished) await new Promise<void>((r) => (this.wake = r));
    this.wake = null;
    if (this.failure) throw this.failure;
    if (this.next >= this.files.length) return null;
    return this.files[this.next++];
  }
}

/**
 * What a directory ingest needs: its limits, the listing rules, how to prepare one file into a span (read, parse,
 * distill, embed: a final result when there is nothing to store) and how to store prepared files together.
 */
export interface DirectoryJob {
  dir: string;
  supported: ReadonlySet<string>;
  roots: string[] | null;
  maxFiles: number;
  prepareFile(file: string, span: ProgressSpan): Promise<DocumentResult | PreparedDocument>;
  /** Stores prepared files together; `signal` absent stores them even when the ingest was cancelled. */
  storeBatch(docs: PreparedDocument[], signal?: AbortSignal): Promise<Array<DocumentResult | PegasError>>;
}

/**
 * Limits of one batch of files stored in one transaction: files, characters of text (what the batch holds in
 * memory, with its drafts and vectors) and drafts (dedup compares a batch of up to MAX_PAIRWISE drafts pairwise).
 */
export const BATCH_FILES = 200;
export const BATCH_CHARS = 8_000_000;
export const BATCH_DRAFTS = 2000; // = MAX_PAIRWISE of core/knowledge/dedup.ts (loaded lazily, as ingest does)

/** Prepared files waiting for their transaction, with the file each came from. */
class Batch {
  docs: PreparedDocument[] = [];
  files: string[] = [];
  chars = 0;
  drafts = 0;

  /** True when `d` would take the batch past a limit (an empty batch takes any document). */
  full(d: PreparedDocument): boolean {
    if (!this.docs.length) return false;
    const chars = d.chunks.reduce((n, c) => n + c.text.length, 0);
    return (
      this.docs.length >= BATCH_FILES ||
      this.chars + chars > BATCH_CHARS ||
      this.drafts + d.distilled.drafts.length > BATCH_DRAFTS
    );
  }

  add(file: string, d: PreparedDocument): void {
    this.docs.push(d);
    this.files.push(file);
    this.chars += d.chunks.reduce((n, c) => n + c.text.length, 0);
    this.drafts += d.distilled.drafts.length;
  }

  /** Stores the batch, tallies each file's result or error, and empties it. @throws PegasError CANCELLED. */
  async flush(job: DirectoryJob, tally: IngestTally, signal?: AbortSignal): Promise<void> {
    if (!this.docs.length) return;
    const results = await job.storeBatch(this.docs, signal);
    results.forEach((r, k) => {
      if (r instanceof Error) tally.fail({ source: this.files[k], code: r.code, message: r.userMessage });
      else tally.add(r);
    });
    this.docs = [];
    this.files = [];
    this.chars = 0;
    this.drafts = 0;
  }
}

async function walkInto(
  job: DirectoryJob,
  queue: FileQueue,
  skipped: SkippedEntry[],
  tally: IngestTally,
  signal?: AbortSignal,
) {
  try {
    const onLimit = () =>
      tally.note(
        `'${job.dir}' holds more than ${job.maxFiles} supported files: the first ${job.maxFiles} (in sorted order) ` +
          "were taken; raise max_directory_files in the config file or ingest the rest by subdirectory",
      );
    const walk = walkDirectory(job.dir, { ...job, skipped, onLimit, signal });
    for await (const f of walk) queue.push(f);
    queue.finish();
  } catch (err) {
    queue.finish(err);
  }
}

/**
 * Ingests every supported file under `job.dir` (see module doc). Progress: one unit for the walk, then
 * DOCUMENT_UNITS per file; the total grows as files are found and is final once the walk ends. A file that fails is
 * reported in `errors` and the ingest goes on. @throws PegasError CANCELLED (the files stored so far stay whole),
 * INVALID_INPUT when the directory holds no supported file, or the walk's error (an unreadable directory).
 */
export async function ingestDirectory(
  job: DirectoryJob,
  opts: ProgressOptions & { signal?: AbortSignal },
  started: number,
) {
  const tally = new IngestTally(true);
  const skipped: SkippedEntry[] = [];
  const queue = new FileQueue();
  const walking = walkInto(job, queue, skipped, tally, opts.signal);
  const reporter = opts.progress ? null : reporterOf(opts, DIRECTORY_PHASE_EVERY_MS);
  reporter?.report(0, `list: walking ${job.dir}`, true);
  opts.progress?.start(`list: walking ${job.dir}`);
  // A caller's span must be cut into equal parts: its run waits for the whole walk (paths only) first.
  if (opts.progress) await walking;
  const unitsOf = (n: number) => 1 + n * DOCUMENT_UNITS;
  const batch = new Batch();
  for (let i = 0; ; i++) {
    const file = await queue.take();
    if (file === null) break;
    if (opts.signal?.aborted) {
      // The files read so far are stored (whole) before the cancellation is answered: their work is not lost.
      await batch.flush(job, tally);
      throw new PegasError("CANCELLED", `ingest cancelled after ${i} files of '${job.dir}'; each stored file is whole`);
    }
    reporter?.setTotal(unitsOf(queue.found));
    const part = opts.progress ? opts.progress.part(i, queue.found) : reporter!.span(unitsOf(i), unitsOf(i + 1));
    const of = queue.done ? ` of ${queue.found}` : "";
    try {
      const got = await job.prepareFile(file, part);
      if (!("document" in got)) tally.add(got);
      else {
        if (batch.full(got)) await batch.flush(job, tally, opts.signal);
        batch.add(file, got);
      }
    } catch (err) {
      const e = toPegasError(err);
      if (e.code === "CANCELLED") throw e;
      tally.fail({ source: file, code: e.code, message: e.userMessage });
    }
    part.end(`file ${i + 1}${of} done: ${file}`);
  }
  await batch.flush(job, tally, opts.signal);
  await walking;
  if (queue.found === 0)
    throw invalidInput(`'${job.dir}' holds no supported file`, `supported: ${[...job.supported].join(" ")}`);
  reporter?.setTotal(unitsOf(queue.found));
  (opts.progress ?? reporter!.span(0, unitsOf(queue.found))).end(
    `done: ${tally.documents} of ${queue.found} file(s) ingested`,
  );
  return tally.result(started, skipped);
}
