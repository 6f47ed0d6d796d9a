/**
 * Progress of a memory_store_code run as one strictly increasing count across its phases, as the MCP spec asks
 * ("Progress": the value MUST increase with each notification, even if the total is unknown). Units: one per file
 * the walk looked at (phase `parse`: files are walked, read and parsed as a stream, so no total is known yet),
 * then one step for the last commit (`write`), one for removing gone files (`write`), then one per file whose
 * dependency targets are examined (`resolve`, with a total from then on), and a last step when the run is done
 * (progress = total). A value not above the last one sent is never sent; notifications are at least `everyMs`
 * apart except the forced ones (phase changes, the end).
 */

/** Receives a notification: progress (units, see the module comment), total when known, a message naming the phase. */
export type ProgressFn = (progress: number, total: number | undefined, message: string) => void;

/** Phases named at the start of each message. */
export type CodePhase = "walk" | "parse" | "write" | "resolve" | "done";

/** The progress of one run. */
export class CodeProgress {
  private last = -1;
  private lastAt = 0;
  /** Units before the resolve phase (set when the walk ends). */
  private resolveBase = -1;
  /** Files the resolve phase examines (0 until it says). */
  private resolveTotal = 0;

  constructor(
    private readonly send: ProgressFn | undefined,
    private readonly everyMs = 500,
  ) {}

  /**
   * Sends `value` when it is above the last value sent and (unless `force`) `everyMs` have passed since the last
   * notification; a total below the value is not sent.
   */
  private emit(value: number, total: number | undefined, phase: CodePhase, message: string, force: boolean): void {
    if (!this.send || value <= this.last) return;
    const now = Date.now();
    if (!force && now - this.lastAt < this.everyMs) return;
    this.last = value;
    this.lastAt = now;
    this.send(value, total !== undefined && total >= value ? total : undefined, `${phase}: ${message}`);
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
