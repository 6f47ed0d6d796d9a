/**
 * Progress of a memory_store_code run as one strictly increasing count across its phases, as the MCP spec asks
 * ("Progress": the value MUST increase with each notification, even if the total is unknown). Units: one per file
 * the walk looked at (phase `parse`: files are walked, read and parsed as a stream, so no total is known yet),
 * then one step for the last commit (`write`), one for removing gone files (`write`), then one per file whose
 * dependency targets are examined (`resolve`, with a total from then on), and a last step when the run is done
 * (progress = total). The numbers go through the run's {@link ProgressReporter} (domain/progress.ts): a value not
 * above the last one sent is never sent, a total once sent is never lowered; notifications are at least `everyMs`
 * apart except the forced ones (phase changes, the end).
 */
import { type ProgressFn, ProgressReporter } from "../../domain/progress.ts";

export type { ProgressFn } from "../../domain/progress.ts";

/** Phases named at the start of each message. */
export type CodePhase = "walk" | "parse" | "write" | "resolve" | "done";

/** The progress of one run. */
export class CodeProgress {
  private readonly reporter: ProgressReporter;
  /** Units before the resolve phase (set when the walk ends). */
  private resolveBase = -1;
  /** Files the resolve phase examines (0 until it says). */
  private resolveTotal = 0;

  constructor(send: ProgressFn | undefined, everyMs = 500) {
    this.reporter = new ProgressReporter(send, everyMs);
  }

  /** Sends `value` (see {@link ProgressReporter.report}), setting the total first when one is given. */
  private emit(value: number, total: number | undefined, phase: CodePhase, message: string, force: boolean): void {
    if (total !== undefined) this.reporter.setTotal(total);
    this.reporter.report(value, `${phase}: ${message}`, force);
  }

  /** The walk starts (progress 0). */
  start(root: string): void {
    this.emit(0, undefined, "walk", `walking ${root}`, true);
  }

  /** A file was counted: `seen` files so far (throttled). */
  file(seen: number, message: string): void {
    this.emit(seen, undefined, "parse", message, false);
  }

  /** The walk ended after `seen` files and its last batch was committed. */
  walked(seen: number, message: string): void {
    this.resolveBase = seen + 3;
    this.emit(seen + 1, undefined, "write", message, true);
  }

  /** Files that are gone are being removed. */
  removing(message: string): void {
    this.emit(this.resolveBase - 1, undefined, "write", message, true);
  }

  /** The resolve phase starts. */
  resolveStart(): void {
    this.emit(this.resolveBase, undefined, "resolve", "resolving dependency targets", true);
  }

  /** Dependency targets of `done` of `total` files examined (throttled; the last one forced). */
  resolving(done: number, total: number): void {
    this.resolveTotal = total;
    this.emit(
      this.resolveBase + done,
      this.resolveBase + total + 1,
      "resolve",
      `dependency targets of ${done} of ${total} files examined`,
      done >= total,
    );
  }

  /** The run is done; progress equals the total. */
  done(message: string): void {
    const end = this.resolveBase + this.resolveTotal + 1;
    this.emit(end, end, "done", message, true);
  }
}
