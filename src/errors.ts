/**
 * Stable error codes of pegas-memory. Adapters wrap driver errors into a {@link PegasError} with one of these,
 * so the core, the MCP layer and the CLI never see a driver's own error.
 */
export type ErrorCode =
  | "NOT_FOUND"
  | "INVALID_INPUT"
  | "UNSUPPORTED_MEDIA"
  | "STORE_UNAVAILABLE"
  | "INDEX_UNAVAILABLE"
  | "LLM_FAILED"
  | "NETWORK_FAILED"
  | "MIGRATION_REQUIRED"
  | "LIMIT_EXCEEDED"
  | "CANCELLED"
  | "INTERNAL";

/** Process exit status per code (sysexits.h where one fits: 65 data error, 69 unavailable, 70 software). */
const EXIT_CODES: Record<ErrorCode, number> = {
  NOT_FOUND: 66,
  INVALID_INPUT: 65,
  UNSUPPORTED_MEDIA: 65,
  STORE_UNAVAILABLE: 69,
  INDEX_UNAVAILABLE: 69,
  LLM_FAILED: 69,
  NETWORK_FAILED: 69,
  MIGRATION_REQUIRED: 78,
  LIMIT_EXCEEDED: 65,
  CANCELLED: 130,
  INTERNAL: 70,
};

/**
 * The one error type that crosses layer boundaries: `code` is stable, `message` says what failed with the values
 * quoted, `hint` says what to do next, `cause` keeps the original error for logs (never shown to MCP clients).
 */
export class PegasError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;

  constructor(code: ErrorCode, message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = "PegasError";
    this.code = code;
    this.hint = opts.hint;
  }

  /** Message and hint in one line, as shown to users and agents. */
  get userMessage(): string {
    return this.hint ? `${this.message}. ${this.hint}` : this.message;
  }

  /** Exit status for the CLI. */
  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/** A command line that does not fit its command: INVALID_INPUT, exit status 64 (EX_USAGE of sysexits.h). */
export class UsageError extends PegasError {
  constructor(message: string, hint: string) {
    super("INVALID_INPUT", message, { hint });
  }

  override get exitCode(): number {
    return 64;
  }
}

/** Shorthand for `new PegasError("INVALID_INPUT", …)`. */
export function invalidInput(message: string, hint?: string): PegasError {
  return new PegasError("INVALID_INPUT", message, { hint });
}

/** Wraps anything thrown into a PegasError; a PegasError passes through unchanged. */
export function toPegasError(err: unknown, fallback: ErrorCode = "INTERNAL"): PegasError {
  if (err instanceof PegasError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new PegasError(fallback, fallback === "INTERNAL" ? `internal error: ${message}` : message, { cause: err });
}
