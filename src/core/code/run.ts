/**
 * The state of one memory_store_code run (ingest.ts): the result being counted, the batch being filled and
 * committed, the files kept and changed, and the progress reported.
 */
import { PegasError, toPegasError } from "../../errors.ts";
import type { CodeCommitResult, CodeFileWrite, CodeRepo, StoredCodeFile } from "../../ports/store/code-store.ts";
import { type CodeAtomDraft, embedNewCodeAtoms } from "./atoms.ts";
import { failureText, type Outcome, type Pending, storedFailure } from "./prepare.ts";
import { CodeProgress } from "./progress.ts";
import type { RunInput, StoreCodeOptions, StoreCodeResult } from "./input.ts";
import type { Services } from "../services.ts";

/** What a code ingest runs on: the code store, the symbol extractor, the embedder and the configuration. */
export type CodeIngestServices = Pick<Services, "config" | "embedder" | "code" | "extractor">;

/** Files per commit. */
export const BATCH_FILES = 200;
/** Symbols per commit (a few huge files flush early). */
const BATCH_SYMBOLS = 20_000;
/** Longest error list in a result. */
const MAX_ERRORS = 100;
/** Skip reasons whose files are listed in the result's `noted` (not the walk's everyday ones: ignored, unsupported). */
const NOTED_SKIPS = new Set(["too_large", "generated", "binary"]);

/** One run's state. */
export class CodeRun {
  readonly result: StoreCodeResult;
  private batch: Pending[] = [];
  private batchSymbols = 0;
  /** Stored paths this run keeps (written, unchanged, or unreadable now). */
  readonly kept = new Set<string>();
  /** Paths parsed now: their dependencies are resolved at the end. */
  readonly changed: string[] = [];
  readonly unreadableDirs: string[] = [];
  readonly progress: CodeProgress;
  /** The commit in flight: batch N commits while batch N+1 is read and parsed (one at a time, in order). */
  private inflight: Promise<void> | null = null;

  constructor(
    readonly s: CodeIngestServices,
    readonly input: RunInput,
    readonly repo: CodeRepo,
    readonly stored: Map<string, StoredCodeFile>,
    readonly opts: StoreCodeOptions,
  ) {
    this.result = {
      repo: input.repo,
      doc_id: repo.docId,
      root: input.root,
      files: { seen: 0, parsed: 0, unchanged: 0, failed: 0, removed: 0, skipped: {} },
      directories_skipped: {},
      symbols: 0,
      dependencies: { stored: 0, resolved_now: 0, resolved: 0, unresolved: 0 },
      atoms: { created: 0, existing: 0, staled: 0 },
      syntax_error_files: 0,
      noted: [],
      noted_total: 0,
      errors: [],
      errors_total: 0,
      warnings: [],
      took_ms: 0,
    };
    this.progress = new CodeProgress(opts.onProgress, opts.progressEveryMs);
  }

  skip(reason: string, dir = false): void {
    const m = dir ? this.result.directories_skipped : this.result.files.skipped;
    m[reason] = (m[reason] ?? 0) + 1;
    if (!dir) this.result.files.seen++;
  }

  /** Records a file worth a look (see StoreCodeResult.noted). */
  note(path: string, reason: string): void {
    this.result.noted_total++;
    if (this.result.noted.length < MAX_ERRORS) this.result.noted.push({ path, reason });
  }

  error(path: string, err: unknown): void {
    const e = toPegasError(err);
    this.result.errors_total++;
    if (this.result.errors.length < MAX_ERRORS)
      this.result.errors.push({ path, code: e.code, message: e.message.slice(0, 500) });
  }

  /** Counts a file that failed (read, parse or store) and lists its error. */
  failed(path: string, err: unknown): void {
    this.result.files.seen++;
    this.result.files.failed++;
    this.error(path, err);
  }

  /** The counts so far, for a progress message. */
  tally(): string {
    const f = this.result.files;
    return `${f.seen} files: ${f.parsed} parsed, ${f.unchanged} unchanged, ${f.failed} failed`;
  }

  /** Counts a prepared file and queues what must be written (committing a full batch). */
  async apply(o: Outcome): Promise<void> {
    switch (o.kind) {
      case "skip":
        if (NOTED_SKIPS.has(o.reason)) this.note(o.path, o.reason);
        return this.skip(o.reason);
      case "unreadable":
        this.kept.add(o.path); // unreadable now: what is stored stays
        return this.failed(o.path, o.error);
      case "unchanged":
        this.kept.add(o.path);
        if (o.note) this.note(o.path, o.note); // its charset, as on the run that parsed it
        // Still binary or generated, or still failing: counted and listed as on the run that read it.
        if (o.prev.status === "skipped") {
          const reason = o.prev.error ?? "skipped";
          this.note(o.path, reason);
          return this.skip(reason);
        }
        if (o.prev.status === "failed") return this.failed(o.path, storedFailure(o.prev.error));
        this.result.files.seen++;
        this.result.files.unchanged++;
        if (o.prev.syntaxErrors > 0) {
          this.result.syntax_error_files++;
          this.note(o.path, "syntax_errors");
        }
        return;
      case "write":
        if (o.write.status === "skipped") this.note(o.path, o.skipped ?? "skipped");
        if (o.note) this.note(o.path, o.note); // a guessed charset or a lossy decode
        if (o.write.status === "parsed") {
          if (o.write.extracted && o.write.extracted.syntaxErrors > 0) {
            this.result.syntax_error_files++;
            this.note(o.path, "syntax_errors");
          }
          this.result.files.parsed++;
          this.changed.push(o.path);
        } else if (o.write.status === "failed") {
          this.result.files.failed++;
          this.error(o.path, o.error);
        }
        return this.queue(o.write, o.drafts, o.skipped);
    }
  }

  private async queue(write: Pending["write"], drafts: CodeAtomDraft[], skipped?: string): Promise<void> {
    if (skipped) this.skip(skipped);
    else this.result.files.seen++;
    this.kept.add(write.path);
    this.batch.push({ write, drafts });
    this.batchSymbols += write.extracted?.symbols.length ?? 0;
    if (this.batch.length >= BATCH_FILES || this.batchSymbols >= BATCH_SYMBOLS) await this.flush();
  }

  /** Embeds the batch's new atoms and commits the batch in one transaction. */
  async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchSymbols = 0;
    if (!batch.length) return;
    const drafts = batch.flatMap((p) => p.drafts);
    const vectors = await this.vectors(drafts);
    const files: CodeFileWrite[] = batch.map((p) => ({
      ...p.write,
      atoms: p.drafts.map((d) => ({
        symbol: d.symbol,
        citation: d.citation,
        atom: { ...d.draft, vector: vectors.get(d.draft.contentHash) ?? new Float32Array(0) },
      })),
    }));
    await this.drain();
    if (this.opts.signal?.aborted) throw cancelled(this.result);
    const commit = this.commit(files);
    commit.catch(() => {}); // observed by the next drain(); never an unhandled rejection meanwhile
    this.inflight = commit;
  }

  /** Waits for the commit in flight; its error surfaces here. */
  async drain(): Promise<void> {
    const p = this.inflight;
    this.inflight = null;
    await p;
  }

  /**
   * Commits a batch. When the store rejects its data (INVALID_INPUT: a value the schema refuses), the files are
   * committed one by one and a rejected file is recorded as failed, so one bad file never costs its batch.
   */
  private async commit(files: CodeFileWrite[]): Promise<void> {
    const model = this.s.embedder.model;
    try {
      return this.count(await this.s.code.commitFiles(this.repo, files, model));
    } catch (err) {
      if (!(err instanceof PegasError && err.code === "INVALID_INPUT")) throw err;
    }
    for (const f of files) {
      try {
        this.count(await this.s.code.commitFiles(this.repo, [f], model));
      } catch (err) {
        if (!(err instanceof PegasError && err.code === "INVALID_INPUT")) throw err;
        this.rejected(f, err);
        const failed: CodeFileWrite = { ...f, status: "failed", extracted: null, atoms: [], error: failureText(err) };
        this.count(await this.s.code.commitFiles(this.repo, [failed], model));
      }
    }
  }

  /** A file the store refused: counted as failed instead of what it was counted as (its error listed once). */
  private rejected(f: CodeFileWrite, err: PegasError): void {
    const files = this.result.files;
    if (f.status === "failed") return; // counted and listed already
    if (f.status === "parsed") files.parsed--;
    else if (f.error && files.skipped[f.error] && --files.skipped[f.error] === 0) delete files.skipped[f.error];
    files.seen--;
    this.failed(f.path, err);
  }

  private count(r: CodeCommitResult): void {
    this.result.symbols += r.symbols;
    this.result.dependencies.stored += r.dependencies;
    this.result.atoms.created += r.atomsCreated;
    this.result.atoms.existing += r.atomsExisting;
    this.result.atoms.staled += r.atomsStaled;
  }

  /** Vectors of the atoms not stored yet; an embedder failure becomes a warning (backfilled later). */
  private async vectors(drafts: CodeAtomDraft[]): Promise<Map<string, Float32Array>> {
    const r = await embedNewCodeAtoms(this.s, drafts, this.opts.signal);
    if (r.cancelled || this.opts.signal?.aborted) throw cancelled(this.result);
    if (r.warning && this.result.warnings.length < 10) this.result.warnings.push(r.warning);
    return r.vectors;
  }
}

/** The CANCELLED error of a run stopped after `r.files.seen` files. */
export function cancelled(r: StoreCodeResult): PegasError {
  return new PegasError(
    "CANCELLED",
    `memory_store_code cancelled after ${r.files.seen} files; each committed file is whole`,
    {
      hint: "run it again: unchanged files are not parsed twice",
    },
  );
}
