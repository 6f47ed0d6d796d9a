/**
 * Progress of a long run as the MCP spec asks ("Progress": `progress` MUST increase with each notification, even
 * when the total is unknown; `total` is optional). One {@link ProgressReporter} per run owns the numbers, and every
 * phase reports into a {@link ProgressSpan}: a slice `[from, to]` of the run's units, split by weights (e.g. parse,
 * distill, embed, write of one document; one equal part per file of a directory), so the count goes on across
 * phases instead of restarting. The reporter sends integer units only, drops a value not above the last one sent,
 * sends no total until one is set, never lowers a total once sent (nor sends one below the value), and throttles
 * notifications: ordinary ones to one per `everyMs`, forced ones (phase changes) to one per `phaseEveryMs` (0 by
 * default: every one), while a value reaching the total always goes out. Every front end (MCP notifications, the
 * CLI progress bar) reads these same numbers.
 */

/** Receives a notification: `progress` (integer units, strictly increasing), `total` once known, a message. */
export type ProgressFn = (progress: number, total: number | undefined, message: string) => void;

/** The numbers of one run: strictly increasing progress, a total that only goes up (see the module comment). */
export class ProgressReporter {
  private last = -1;
  private lastAt = Number.NEGATIVE_INFINITY;
  private knownTotal: number | undefined;

  /**
   * @param send where notifications go (none: every report is a no-op)
   * @param everyMs least time since the last notification for an unforced one (ms; 0 = no throttle)
   * @param phaseEveryMs the same for a forced one (ms; 0 = every forced report that moves the count goes out):
   *   runs over thousands of small items (a directory) set it so their phase changes do not flood the client
   */
  constructor(
    private readonly send: ProgressFn | undefined,
    private readonly everyMs = 0,
    private readonly phaseEveryMs = 0,
  ) {}

  /** The last progress sent (-1 before the first). */
  get sent(): number {
    return this.last;
  }

  /** The total from now on (units). A total below the current one is ignored: a total is never lowered. */
  setTotal(total: number): void {
    const t = Math.ceil(total);
    if (this.knownTotal === undefined || t > this.knownTotal) this.knownTotal = t;
  }

  /**
   * Sends `value` (floored to an integer unit) with `message` when it is above the last value sent and `everyMs`
   * (`phaseEveryMs` when `force`) have passed since the last notification, or it reaches the total. The total sent is
   * the one set, raised to the value if the value went past it. Returns whether a notification was sent.
   */
  report(value: number, message: string, force = false): boolean {
    if (!this.send) return false;
    const v = Math.floor(value);
    if (!Number.isFinite(v) || v <= this.last) return false;
    const now = Date.now();
    const end = this.knownTotal !== undefined && v >= this.knownTotal;
    if (!end && now - this.lastAt < (force ? this.phaseEveryMs : this.everyMs)) return false;
    if (this.knownTotal !== undefined && this.knownTotal < v) this.knownTotal = v;
    this.last = v;
    this.lastAt = now;
    this.send(v, this.knownTotal, message);
    return true;
  }

  /** The span `[from, to]` of this run's units. */
  span(from: number, to: number): ProgressSpan {
    return new ProgressSpan(this, from, to);
  }
}

/** A slice `[from, to]` of a run's units that one phase (or one item of a list) reports into by fraction. */
export class ProgressSpan {
  constructor(
    readonly reporter: ProgressReporter,
    readonly from: number,
    readonly to: number,
  ) {}

  /**
   * Reports `done` of `of` of this span (the fraction is clamped to 0..1; `of` ≤ 0 counts as done). A forced report
   * that the run's count already reached (the end of the span before lands on the start of this one) goes out one
   * unit above the last one sent, while that stays within this span, so a phase's first message is not lost.
   */
  at(done: number, of: number, message: string, force = false): boolean {
    const f = of > 0 ? Math.min(1, Math.max(0, done / of)) : 1;
    let value = this.from + f * (this.to - this.from);
    const next = this.reporter.sent + 1;
    if (force && Math.floor(value) < next && next <= Math.floor(this.to)) value = next;
    return this.reporter.report(value, message, force);
  }

  /** The phase starts (forced: phase changes are always sent when they move the count). */
  start(message: string): boolean {
    return this.at(0, 1, message, true);
  }

  /** The phase ends (forced). */
  end(message: string): boolean {
    return this.at(1, 1, message, true);
  }

  /** Part `i` (0-based) of `n` equal consecutive parts. */
  part(i: number, n: number): ProgressSpan {
    const w = (this.to - this.from) / Math.max(1, n);
    return new ProgressSpan(this.reporter, this.from + i * w, this.from + (i + 1) * w);
  }

  /** Consecutive parts in the order of `weights`' keys, each as wide as its weight's share of the sum. */
  split<K extends string>(weights: Record<K, number>): Record<K, ProgressSpan> {
    const keys = Object.keys(weights) as K[];
    const sum = keys.reduce((s, k) => s + weights[k], 0) || 1;
    const out = {} as Record<K, ProgressSpan>;
    let at = this.from;
    for (const k of keys) {
      const next = at + ((this.to - this.from) * weights[k]) / sum;
      out[k] = new ProgressSpan(this.reporter, at, next);
      at = next;
    }
    return out;
  }
}

/** A span that reports nowhere (callers that want no progress). */
export function silentSpan(): ProgressSpan {
  return new ProgressReporter(undefined).span(0, 1);
}
