/**
 * Background ingest jobs: work that outlives a client's request timeout (a directory of 50,000 files, a 50 MiB text)
 * runs in the server process while the client follows it by id (memory_ingest `{job}`) and fetches its result once
 * it is done. A job is not tied to the request that started it, so a dropped connection or a client timeout does
 * not stop it; every file it stores is committed on its own, so a job cut short by the server's exit is resumed by
 * running the same ingest again (stored files are skipped). Jobs live in this process's memory only: the last
 * {@link MAX_FINISHED_JOBS} finished ones are kept, for {@link FINISHED_JOB_TTL_MS} at most.
 */
import { randomUUID } from "node:crypto";
import { PegasError, toPegasError } from "../../errors.ts";
import type { ProgressFn } from "../../domain/progress.ts";

/** What a client reads of a job: its state, the last progress notification and, once failed, the error. */
export interface JobState {
  id: string;
  state: "running" | "done" | "failed";
  /** The last progress of the run (units of its own progress, as notifications carry them). */
  progress: number;
  total: number | null;
  message: string;
  started_at: string;
  finished_at: string | null;
  error: { code: string; message: string } | null;
}

/** Finished jobs kept (the oldest go first). */
export const MAX_FINISHED_JOBS = 100;
/** How long a finished job stays readable (ms): one hour. */
export const FINISHED_JOB_TTL_MS = 60 * 60 * 1000;

interface Job<R> {
  state: JobState;
  result: R | null;
  finishedAt: number;
}

/** A registry of background jobs whose result is `R` (one per process: see {@link ingestJobs}). */
export class JobRegistry<R> {
  private readonly jobs = new Map<string, Job<R>>();

  /**
   * Starts `run` now, detached from the caller: it hears its own progress and its result or error is kept. Returns
   * the job's first state ("running").
   */
  start(run: (onProgress: ProgressFn) => Promise<R>): JobState {
    this.prune();
    const id = `job-${randomUUID()}`;
    const job: Job<R> = {
      state: {
        id,
        state: "running",
        progress: 0,
        total: null,
        message: "started",
        started_at: new Date().toISOString(),
        finished_at: null,
        error: null,
      },
      result: null,
      finishedAt: 0,
    };
    this.jobs.set(id, job);
    const onProgress: ProgressFn = (progress, total, message) => {
      Object.assign(job.state, { progress, total: total ?? null, message });
    };
    const finish = (patch: Partial<JobState>) => {
      job.finishedAt = Date.now();
      Object.assign(job.state, { ...patch, finished_at: new Date(job.finishedAt).toISOString() });
    };
    // Never awaited by the caller; every outcome lands in the job.
    void run(onProgress).then(
      (result) => {
        job.result = result;
        finish({ state: "done" });
      },
      (err: unknown) => {
        const e = toPegasError(err);
        finish({ state: "failed", error: { code: e.code, message: e.userMessage } });
      },
    );
    return { ...job.state };
  }

  /** A job's state and, once done, its result. @throws PegasError NOT_FOUND for an unknown or expired id. */
  get(id: string): { job: JobState; result: R | null } {
    this.prune();
    const job = this.jobs.get(id);
    if (!job)
      throw new PegasError("NOT_FOUND", `no job '${id.slice(0, 100)}' in this server`, {
        hint: "jobs live in the server process until it stops (finished ones for an hour); run the ingest again: stored files are skipped",
      });
    return { job: { ...job.state }, result: job.result };
  }

  private prune(): void {
    const finished = [...this.jobs.entries()].filter(([, j]) => j.finishedAt > 0);
    const old = Date.now() - FINISHED_JOB_TTL_MS;
    finished.forEach(([id, j], i) => {
      if (j.finishedAt < old || finished.length - i > MAX_FINISHED_JOBS) this.jobs.delete(id);
    });
  }
}
