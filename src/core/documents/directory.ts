/**
 * A directory ingest in one call, however many files it holds: the directory is walked as a stream
 * (source.ts `walkDirectory`) ahead of the ingest, which starts with the first file found; each file is stored in
 * its own transaction, so a crash or a cancellation keeps every file stored before it, and a re-run skips them
 * (their content hash is unchanged) and goes on with the rest. `max_directory_files` is a safety setting: past it
 * the walk stops and the result says so in `warnings`, the files taken are still ingested. Only totals and the first
 * MAX_LISTED results are kept (tally.ts), so memory does not grow with the number of files.
 */
import type { ProgressSpan } from "../../domain/progress.ts";
import { PegasError, invalidInput, toPegasError } from "../../errors.ts";
import type { DocumentResult } from "./ingest-document.ts";
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

/** What a directory ingest needs: its limits, the listing rules and how to ingest one file into a span. */
export interface DirectoryJob {
  dir: string;
  supported: ReadonlySet<string>;
  roots: string[] | null;
  maxFiles: number;
  ingestFile(file: string, span: ProgressSpan): Promise<DocumentResult>;
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
          "were taken; raise max_directory_files or ingest the rest by subdirectory",
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
  for (let i = 0; ; i++) {
    const file = await queue.take();
    if (file === null) break;
    if (opts.signal?.aborted)
      throw new PegasError("CANCELLED", `ingest cancelled after ${i} files of '${job.dir}'; each stored file is whole`);
    reporter?.setTotal(unitsOf(queue.found));
    const part = opts.progress ? opts.progress.part(i, queue.found) : reporter!.span(unitsOf(i), unitsOf(i + 1));
    const of = queue.done ? ` of ${queue.found}` : "";
    try {
      tally.add(await job.ingestFile(file, part));
    } catch (err) {
      const e = toPegasError(err);
      if (e.code === "CANCELLED") throw e;
      tally.fail({ source: file, code: e.code, message: e.userMessage });
    }
    part.end(`file ${i + 1}${of} done: ${file}`);
  }
  await walking;
  if (queue.found === 0)
    throw invalidInput(`'${job.dir}' holds no supported file`, `supported: ${[...job.supported].join(" ")}`);
  reporter?.setTotal(unitsOf(queue.found));
  (opts.progress ?? reporter!.span(0, unitsOf(queue.found))).end(
    `done: ${tally.documents} of ${queue.found} file(s) ingested`,
  );
  return tally.result(started, skipped);
}
