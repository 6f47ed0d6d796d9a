/**
 * Guards every parser shares: the source size limit, cancellation, and yielding to the event loop during long
 * synchronous work so that an abort (or an MCP cancellation notification) can be delivered mid-parse.
 */
import { RAISE_INPUT_BYTES } from "../../../domain/limits.ts";
import { PegasError } from "../../../errors.ts";
import type { ParseLimits } from "../../../ports/models/parser.ts";

/** @throws PegasError LIMIT_EXCEEDED when `bytes` is larger than `limits.maxBytes`. */
export function checkSourceSize(bytes: Uint8Array, limits: ParseLimits, uri: string): void {
  if (bytes.byteLength > limits.maxBytes) {
    throw new PegasError(
      "LIMIT_EXCEEDED",
      `'${uri}' has ${bytes.byteLength} bytes; the limit max_input_bytes is ${limits.maxBytes}`,
      { hint: `${RAISE_INPUT_BYTES}, or split the source` },
    );
  }
}

/** @throws PegasError CANCELLED when `signal` has been aborted. */
export function checkAborted(signal: AbortSignal | undefined, uri: string): void {
  if (signal?.aborted) {
    throw new PegasError("CANCELLED", `parsing '${uri}' was cancelled`, { cause: signal.reason });
  }
}

/**
 * Cooperative yielding: `await pause()` gives timers and I/O a turn once at least `everyMs` milliseconds of
 * synchronous work have passed (the first call always yields), then checks the signal.
 * @throws PegasError CANCELLED when the signal was aborted meanwhile.
 */
export function cancellationPoint(signal: AbortSignal | undefined, uri: string, everyMs = 25): () => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    checkAborted(signal, uri);
    const now = performance.now();
    if (now - last < everyMs) return;
    // setTimeout, not a microtask: abort() called from a timer or an I/O callback only runs on a macrotask turn.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    last = performance.now();
    checkAborted(signal, uri);
  };
}
