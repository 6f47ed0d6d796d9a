/**
 * ExtractorPool: the SymbolExtractor port over worker threads, each running the in-process tree-sitter extractor
 * (worker.ts). Parsing is CPU-bound WebAssembly, so a repository is extracted on up to `size` cores while the main
 * thread hashes files and writes to the database. Each worker takes one file at a time with at most
 * {@link PER_WORKER} queued, the pool queues the rest (FIFO). Workers start on demand, stop after `idleMs` without
 * work, and never keep the process alive while idle. A worker that dies (or reports an error that is not a
 * PegasError, such as a WebAssembly trap) is replaced: the file it was on fails with INTERNAL naming the file, the
 * files queued behind it go to other workers.
 */
import { availableParallelism } from "node:os";
import { type ErrorCode, PegasError } from "../../errors.ts";
import type { CodeLanguage, ExtractedFile, SymbolExtractor } from "../../ports/models/symbol-extractor.ts";
import { compiledWasm, type WasmId } from "./grammars.ts";
import { LANGUAGE_SPECS, languageOfPath } from "./languages/index.ts";

/** A request to a worker. */
export interface ExtractRequest {
  id: number;
  path: string;
  source: string;
  language: CodeLanguage;
  /** Compiled modules the worker has not been sent yet and needs for this file (grammars.ts adoptCompiled). */
  wasm?: Array<[WasmId, WebAssembly.Module]>;
}

/** A worker's answer: the extraction, or the error as data (`fatal`: the worker should be retired). */
export type ExtractReply =
  | { id: number; ok: true; file: ExtractedFile }
  | { id: number; ok: false; error: { code: ErrorCode; message: string; hint?: string }; fatal: boolean };

/** Files handed to one worker before the pool queues (one in work, one waiting: the worker never idles between). */
export const PER_WORKER = 2;
/** Default idle time before a worker stops (ms). */
export const DEFAULT_IDLE_MS = 30_000;

/** Worker threads worth starting on this machine: one per core, at most 4 (the database side needs CPU too). */
export function defaultWorkerCount(): number {
  return Math.min(4, availableParallelism());
}

interface Task {
  request: ExtractRequest;
  resolve: (file: ExtractedFile) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker | null;
  /** Tasks sent to this worker, in the order it takes them. */
  sent: Task[];
  idleTimer: ReturnType<typeof setTimeout> | null;
  /** Compiled modules already posted to this slot's current worker. */
  posted: Set<WasmId>;
}

/**
 * The worker script: the source file when running from source; inside a compiled executable (whose modules all
 * report the executable's own URL) the extra entrypoint, by its path under the build's `--root .` (package.json).
 */
function workerSpecifier(): string {
  return import.meta.url.includes("$bunfs")
    ? "./src/adapters/tree-sitter/worker.ts"
    : new URL("./worker.ts", import.meta.url).href;
}

/** The tree-sitter {@link SymbolExtractor} on worker threads (see the module comment). */
export class ExtractorPool implements SymbolExtractor {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  private readonly idleMs: number;
  private readonly script: string;

  /**
   * @param size worker threads, ≥ 1.
   * @param opts.idleMs how long a worker without work lives on (ms, default {@link DEFAULT_IDLE_MS});
   *   opts.script the worker script (default worker.ts; tests pass one that misbehaves).
   * @throws PegasError INVALID_INPUT for a size below 1.
   */
  constructor(size: number, opts: { idleMs?: number; script?: string } = {}) {
    if (!Number.isInteger(size) || size < 1)
      throw new PegasError("INVALID_INPUT", `an extractor pool needs at least one worker, got ${size}`);
    this.slots = Array.from({ length: size }, () => ({
      worker: null,
      sent: [],
      idleTimer: null,
      posted: new Set<WasmId>(),
    }));
    this.idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
    this.script = opts.script ?? workerSpecifier();
  }

  /** The language of a path by its extension or name (no worker involved). */
  languageOf(path: string): CodeLanguage | null {
    return languageOfPath(path);
  }

  /**
   * Extracts one file on a worker thread; the same result and errors as the in-process extractor.
   * @throws PegasError as TreeSitterExtractor.extract; INTERNAL when the worker died on this file; CANCELLED after
   *   {@link close}.
   */
  extract(path: string, source: string, language: CodeLanguage): Promise<ExtractedFile> {
    if (this.closed) return Promise.reject(new PegasError("CANCELLED", "the extractor pool is closed"));
    return new Promise<ExtractedFile>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, path, source, language }, resolve, reject });
      this.pump();
    });
  }

  /** Workers currently running (for tests and stats). */
  get running(): number {
    return this.slots.filter((s) => s.worker !== null).length;
  }

  /** Stops every worker; pending and queued extractions fail with CANCELLED. */
  async close(): Promise<void> {
    this.closed = true;
    const cancelled = new PegasError("CANCELLED", "the extractor pool was closed");
    for (const task of this.queue.splice(0)) task.reject(cancelled);
    for (const slot of this.slots) {
      for (const task of slot.sent.splice(0)) task.reject(cancelled);
      this.stop(slot);
    }
  }

  /** Hands queued tasks to the least-loaded workers that have room. */
  private pump(): void {
    while (this.queue.length > 0) {
      let best: Slot | null = null;
      for (const slot of this.slots) {
        if (slot.sent.length < PER_WORKER && (!best || slot.sent.length < best.sent.length)) best = slot;
      }
      if (!best) return;
      const task = this.queue.shift()!;
      this.send(best, task);
    }
  }

  private send(slot: Slot, task: Task): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const worker = slot.worker ?? this.spawn(slot);
    let wasm: ExtractRequest["wasm"];
    try {
      wasm = this.modulesFor(slot, task.request.language);
    } catch (err) {
      task.reject(err); // a grammar that does not compile: this file fails, the worker stays as it was
      if (slot.sent.length === 0) this.idle(slot, worker);
      return;
    }
    worker.ref(); // work in flight keeps the process alive
    slot.sent.push(task);
    worker.postMessage(wasm ? { ...task.request, wasm } : task.request);
  }

  /**
   * The compiled runtime and grammar for `language` that this slot's worker has not been posted yet (compiled here
   * once per process, shared by every worker: grammars.ts), or undefined when it has them all.
   * @throws PegasError INTERNAL when a module cannot be compiled.
   */
  private modulesFor(slot: Slot, language: CodeLanguage): ExtractRequest["wasm"] {
    const grammar = LANGUAGE_SPECS[language]?.grammar;
    const ids = (["runtime", grammar] as const).filter((id): id is WasmId => id !== undefined && !slot.posted.has(id));
    if (!ids.length) return undefined;
    const out: Array<[WasmId, WebAssembly.Module]> = ids.map((id) => [id, compiledWasm(id)]);
    for (const id of ids) slot.posted.add(id);
    return out;
  }

  private spawn(slot: Slot): Worker {
    const worker = new Worker(this.script);
    slot.worker = worker;
    slot.posted = new Set();
    worker.onmessage = (event: MessageEvent<ExtractReply>) => this.answer(slot, worker, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.died(slot, worker, event.message || "uncaught error");
    };
    worker.addEventListener("close", () => this.died(slot, worker, "the thread exited"));
    return worker;
  }

  private answer(slot: Slot, worker: Worker, reply: ExtractReply): void {
    if (slot.worker !== worker) return;
    const index = slot.sent.findIndex((t) => t.request.id === reply.id);
    if (index < 0) return;
    const [task] = slot.sent.splice(index, 1);
    if (reply.ok) task.resolve(reply.file);
    else {
      const { code, message, hint } = reply.error;
      task.reject(new PegasError(code, message, { hint }));
      if (reply.fatal) this.retire(slot);
    }
    if (slot.worker === worker && slot.sent.length === 0) this.idle(slot, worker);
    this.pump();
  }

  /** A worker that died: the file it was on fails, the files queued behind it are handed out again. */
  private died(slot: Slot, worker: Worker, reason: string): void {
    if (slot.worker !== worker) return;
    const [current, ...rest] = slot.sent.splice(0);
    slot.worker = null;
    worker.terminate();
    if (current) {
      current.reject(
        new PegasError("INTERNAL", `the extraction worker died while extracting '${current.request.path}': ${reason}`, {
          hint: "the file is reported as failed; the other files go on in a new worker",
        }),
      );
    }
    this.queue.unshift(...rest);
    if (!this.closed) this.pump();
  }

  /** Replaces a worker whose runtime may be broken; its queued files move to the pool queue. */
  private retire(slot: Slot): void {
    this.queue.unshift(...slot.sent.splice(0));
    this.stop(slot);
  }

  /** An idle worker stops holding the process and stops after {@link idleMs}. */
  private idle(slot: Slot, worker: Worker): void {
    worker.unref();
    slot.idleTimer = setTimeout(() => {
      if (slot.worker === worker && slot.sent.length === 0) this.stop(slot);
    }, this.idleMs);
    slot.idleTimer.unref?.();
  }

  private stop(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const worker = slot.worker;
    slot.worker = null;
    worker?.terminate();
  }
}
