/**
 * Turns what neo4j-driver throws into PegasError. The driver raises `Neo4jError` with a `code`: `ServiceUnavailable`
 * or `SessionExpired` when no connection can be made or it broke; the server's status code otherwise
 * (`Memgraph.ClientError.*`, `Memgraph.TransientError.*`, `Neo.ClientError.Security.*` …). Memgraph reports a
 * write-write conflict as "Cannot resolve conflicting transactions" (a TransientError since Memgraph 2.12, a
 * ClientError before) or "Unable to commit due to serialization error" (memgraph.com/docs/help-center/errors/
 * transactions); a concurrent MERGE of the same new key can end in a unique-constraint violation instead.
 */
import { Neo4jError } from "neo4j-driver";
import { PegasError } from "../../errors.ts";

/** Where and what: the Bolt URL and the operation (e.g. `apply`). */
export interface MemgraphTarget {
  url: string;
  op: string;
}

const CONFLICT =
  /cannot resolve conflicting transactions|unable to commit due to serialization error|unique constraint violation/i;
const UNREACHABLE_CODES = new Set(["ServiceUnavailable", "SessionExpired"]);
/** The driver's own deadlines ("Connection acquisition timed out in 400 ms", "… establishment timed out …"). */
const DRIVER_TIMEOUT = /timed out/i;

/** The error's `code` when it is a driver error, else undefined. */
function codeOf(err: unknown): string | undefined {
  return err instanceof Neo4jError ? err.code : undefined;
}

/** True for Memgraph's write-conflict failures (any code), which a later attempt may pass. */
export function isConflict(err: unknown): boolean {
  return err instanceof Neo4jError && CONFLICT.test(err.message);
}

/** True when the driver itself retries `err` inside executeRead/executeWrite (TransientError, unavailable). */
export function driverRetries(err: unknown): boolean {
  return err instanceof Neo4jError && err.retryable === true;
}

/** True when no connection could be made or it broke. */
export function isUnreachable(err: unknown): boolean {
  return UNREACHABLE_CODES.has(codeOf(err) ?? "");
}

/** The error raised when Memgraph did not answer within `ms` milliseconds. */
export class MemgraphTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "MemgraphTimeout";
  }
}

/** The hint for an unreachable Memgraph. */
export function unreachableHint(url: string): string {
  return `is Memgraph running and serving Bolt at ${url}? Check MEMGRAPH_URL, or unset MEMGRAPH_URL to use SQL graph reads`;
}

function clip(s: string): string {
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/**
 * Maps a thrown value to PegasError (a PegasError passes through; `cause` keeps `err`): unreachable, timed out,
 * authentication refused, transient failures, conflicts left after retrying and queries Memgraph rejected are all
 * INDEX_UNAVAILABLE (the outbox worker retries later, reads fall back to SQL); anything else is INTERNAL.
 */
export function memgraphFailure(err: unknown, t: MemgraphTarget): PegasError {
  if (err instanceof PegasError) return err;
  const unavailable = (message: string, hint: string) =>
    new PegasError("INDEX_UNAVAILABLE", message, { hint, cause: err });
  if (err instanceof MemgraphTimeout) {
    return unavailable(
      `Memgraph at ${t.url} did not answer ${t.op} within ${err.ms} ms`,
      `${unreachableHint(t.url)}; a busy server may need a larger timeout`,
    );
  }
  if (!(err instanceof Neo4jError)) {
    const message = err instanceof Error ? err.message : String(err);
    return new PegasError("INTERNAL", `internal error during Memgraph ${t.op}: ${message}`, { cause: err });
  }
  const said = clip(err.message);
  if (isUnreachable(err))
    return unavailable(`cannot reach Memgraph at ${t.url} for ${t.op}: ${said}`, unreachableHint(t.url));
  if (!err.code.includes("Error.") && DRIVER_TIMEOUT.test(err.message)) {
    return unavailable(
      `Memgraph at ${t.url} did not answer ${t.op} in time: ${said}`,
      `${unreachableHint(t.url)}; a busy server may need a larger timeout`,
    );
  }
  if (isConflict(err)) {
    return unavailable(
      `Memgraph kept reporting conflicting transactions for ${t.op} at ${t.url}: '${said}'`,
      "other writers hold the same nodes; the outbox worker retries with backoff",
    );
  }
  if (err.code.includes(".Security.")) {
    return unavailable(
      `Memgraph at ${t.url} refused the credentials for ${t.op}: '${said}'`,
      "set MEMGRAPH_USER and MEMGRAPH_PASSWORD to an account of that server",
    );
  }
  if (err.code.includes("TransientError")) {
    return unavailable(
      `Memgraph at ${t.url} failed ${t.op} for now (${err.code}): '${said}'`,
      "retry later; check the Memgraph log",
    );
  }
  return unavailable(
    `Memgraph at ${t.url} rejected ${t.op} (${err.code}): '${said}'`,
    "this Memgraph may be too old or lack --storage-properties-on-edges=true; see the message and the Memgraph log",
  );
}
