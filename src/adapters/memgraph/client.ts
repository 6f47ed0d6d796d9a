/**
 * The Bolt connection of the Memgraph adapter (neo4j-driver 6): one driver (a connection pool) per adapter, a
 * session per call, managed transactions (`executeRead` / `executeWrite`, which the driver retries on TransientError
 * and lost connections for up to `maxTransactionRetryTime`), plus a bounded retry of Memgraph's write conflicts that
 * the driver does not retry (Memgraph before 2.12 sent them as ClientError), a reachability probe so an unreachable
 * server fails at once instead of after the driver's retry window, and a deadline on every call.
 */
import neo4j, { type Driver, type ManagedTransaction, type QueryResult, type RecordShape } from "neo4j-driver";
import { maskUrl } from "../../config-redact.ts";
import { PegasError } from "../../errors.ts";
import { log } from "../../log.ts";
import { VERSION } from "../../version.ts";
import { driverRetries, isConflict, isUnreachable, MemgraphTimeout, memgraphFailure } from "./failures.ts";
import { withDeadline } from "../../domain/deadline.ts";

/** A Cypher statement: text and parameters (integers as driver Integers, see bolt-values.ts). */
export interface Statement {
  text: string;
  params: Record<string, unknown>;
}

/** Connection options: Bolt URL (bolt://, bolt+s://, neo4j://, memgraph:// = bolt://), credentials, timeout in ms. */
export interface MemgraphClientOptions {
  url: string;
  user?: string;
  password?: string;
  timeoutMs: number;
}

/** Attempts of a write that keeps hitting a conflict the driver does not retry, and the backoff between them. */
export const CONFLICT_RETRY = { attempts: 5, baseMs: 50, maxMs: 1_000 } as const;

const SCHEMES = /^(bolt|neo4j|memgraph)(\+s|\+ssc)?:\/\/[^\s/?#]+(\/\S*)?$/;

/** The URL handed to the driver: memgraph:// is an alias of bolt://. @throws PegasError INVALID_INPUT */
export function driverUrl(url: string): string {
  if (typeof url !== "string" || !SCHEMES.test(url)) {
    throw new PegasError("INVALID_INPUT", `memgraph_url '${maskUrl(String(url))}' is not a Bolt URL`, {
      hint: "use e.g. bolt://127.0.0.1:7687",
    });
  }
  return url.replace(/^memgraph/, "bolt");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rejects with MemgraphTimeout when `p` has not settled after `ms`. */
function deadline<T>(p: Promise<T>, ms: number): Promise<T> {
  return withDeadline(p, ms, () => new MemgraphTimeout(ms));
}

/** Runs statements on Memgraph; see the module comment. Errors: PegasError from {@link memgraphFailure}. */
export class MemgraphClient {
  /** The URL as configured (for messages). */
  readonly url: string;
  /** Connect, acquisition and retry-window bound in ms; each call's deadline is 3 × this. */
  readonly timeoutMs: number;
  private readonly driver: Driver;
  private reachable: Promise<void> | null = null;

  /** @throws PegasError INVALID_INPUT for a URL that is not Bolt. */
  constructor(opts: MemgraphClientOptions) {
    this.url = maskUrl(opts.url);
    this.timeoutMs = opts.timeoutMs;
    // Memgraph without authentication accepts any basic token; its docs use empty strings.
    const auth = neo4j.auth.basic(opts.user ?? "", opts.password ?? "");
    const url = driverUrl(opts.url);
    try {
      this.driver = neo4j.driver(url, auth, {
        connectionTimeout: opts.timeoutMs,
        connectionAcquisitionTimeout: opts.timeoutMs,
        maxTransactionRetryTime: opts.timeoutMs,
        userAgent: `pegas-memory/${VERSION}`,
        disableLosslessIntegers: false,
      });
    } catch (cause) {
      throw new PegasError(
        "INVALID_INPUT",
        `memgraph_url '${maskUrl(opts.url)}' is not usable: ${(cause as Error).message}`,
        { hint: "use e.g. bolt://127.0.0.1:7687", cause },
      );
    }
  }

  /** Runs `work` in one read transaction. */
  read<T>(op: string, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.call(op, async () => {
      const session = this.driver.session({ defaultAccessMode: neo4j.session.READ });
      try {
        return await session.executeRead(work);
      } finally {
        void session.close().catch(() => {});
      }
    });
  }

  /**
   * Runs `work` in one write transaction; a conflict the driver does not retry is retried here up to
   * {@link CONFLICT_RETRY}.attempts times with exponential backoff and jitter.
   */
  write<T>(op: string, work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.call(op, async () => {
      for (let attempt = 1; ; attempt++) {
        const session = this.driver.session({ defaultAccessMode: neo4j.session.WRITE });
        try {
          return await session.executeWrite(work);
        } catch (err) {
          if (!isConflict(err) || driverRetries(err) || attempt >= CONFLICT_RETRY.attempts) throw err;
          const ms =
            Math.min(CONFLICT_RETRY.maxMs, CONFLICT_RETRY.baseMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
          log.debug("memgraph write conflict, retrying", { op, attempt, delay_ms: Math.round(ms) });
          await sleep(ms);
        } finally {
          void session.close().catch(() => {});
        }
      }
    });
  }

  /** Runs one statement in an auto-commit transaction (Memgraph creates indexes and constraints only so). */
  autocommit(op: string, st: Statement): Promise<QueryResult<RecordShape>> {
    return this.call(op, async () => {
      const session = this.driver.session({ defaultAccessMode: neo4j.session.WRITE });
      try {
        return await session.run(st.text, st.params);
      } finally {
        void session.close().catch(() => {});
      }
    });
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    await this.driver.close();
  }

  /**
   * Probes the server once (and again after it was unreachable), then runs `fn` under a deadline: 3 × timeoutMs,
   * which covers connecting, the driver's retry window and the work itself.
   */
  private async call<T>(op: string, fn: () => Promise<T>): Promise<T> {
    try {
      await this.probe();
      return await deadline(fn(), 3 * this.timeoutMs);
    } catch (err) {
      if (isUnreachable(err) || err instanceof MemgraphTimeout) this.reachable = null;
      throw memgraphFailure(err, { url: this.url, op });
    }
  }

  /** Connects and greets the server (no retries), so an unreachable one fails within timeoutMs. */
  private probe(): Promise<void> {
    this.reachable ??= deadline(
      this.driver.getServerInfo().then(() => undefined),
      this.timeoutMs,
    ).catch((err) => {
      this.reachable = null;
      throw err;
    });
    return this.reachable;
  }
}
