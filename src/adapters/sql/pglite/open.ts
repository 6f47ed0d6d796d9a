/**
 * Canonical store backend (a): the embedded PGlite, shared safely by every process that opens the same data dir.
 *
 * PGlite does not lock its data dir, and two processes writing one dir silently lose rows. So exactly one process,
 * the holder of an abstract-socket lock, runs PGlite and serves it over a unix socket; every process, the owner
 * included, speaks SQL to it through postgres.js. When the owner dies or closes, a client takes the lock over.
 */
import { createConnection } from "node:net";
import postgres, { type Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { CLIENT_OPTIONS } from "../client-options.ts";
import { type Database, isConnectionLost } from "../database.ts";
import { type PgliteHost, startHost } from "./host.ts";
import { clientName, readHost } from "./host-process.ts";
import { tryLock } from "./lock.ts";
import { type PglitePaths, resolvePaths } from "./paths.ts";
import { stalledHost, stoppedHostError, watch } from "./stall.ts";

/** Options of {@link openPglite}. */
export interface PgliteOptions {
  /** The data dir (PGlite's PGDATA); created with mode 0700 when missing. */
  dataDir: string;
  /** postgres.js pool size of this process (default 4; PGlite runs one statement at a time anyway). */
  max?: number;
  /** How long to wait for another process's host to answer, in ms (default 20 000: it may be running initdb). */
  waitMs?: number;
  /**
   * How long a call waits for another process's host that is stopped (SIGSTOP, Ctrl-Z, a debugger) before it fails
   * with STORE_UNAVAILABLE, in ms (default 5000; config `store_wait_ms`). A busy host is waited for.
   */
  hostWaitMs?: number;
  /** Per-user runtime dir for the socket when the data dir's path is too long (default: the OS temp dir). */
  runtimeDir?: string;
  /**
   * Create a missing cluster from the migrated template embedded in the executable (template.ts) instead of running
   * initdb, when there is one that fits this build (default false: initdb, a cluster without migrations).
   */
  template?: boolean;
}

/** An open embedded database; `isOwner` tells whether this process hosts PGlite right now (for logs and tests). */
export interface PgliteDatabase extends Database {
  readonly kind: "pglite";
  /** True while this process owns the data dir and serves it. */
  readonly isOwner: boolean;
}

/** Rounds of "connection lost → take over or wait → run again" before {@link Database.run} gives up. */
const MAX_ATTEMPTS = 5;

/**
 * Opens the embedded database in `opts.dataDir`: hosts it when no other process does (first open runs initdb,
 * ≈ 2–3 s, or unpacks the embedded template with `opts.template`, ≈ 0.2 s), otherwise connects to the process that does (waiting up to `waitMs` for it to come up, `hostWaitMs`
 * when it is stopped).
 * @throws PegasError STORE_UNAVAILABLE when no host answers in time or PGlite cannot open the dir; INVALID_INPUT
 *   when the dir cannot be created or holds foreign files.
 */
export async function openPglite(opts: PgliteOptions): Promise<PgliteDatabase> {
  const paths = resolvePaths(opts.dataDir, opts.runtimeDir);
  const db = new SharedPglite(paths, opts.max ?? 4, opts.waitMs ?? 20_000, opts.hostWaitMs ?? 5000, !!opts.template);
  try {
    await db.reachHost();
  } catch (err) {
    await db.close(0); // the client never connected; this only marks it ended
    throw err;
  }
  return db;
}

class SharedPglite implements PgliteDatabase {
  readonly kind = "pglite" as const;
  readonly location: string;
  private client: Sql<any>;
  private host: PgliteHost | null = null;
  private recovering: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly paths: PglitePaths,
    private readonly max: number,
    private readonly waitMs: number,
    private readonly hostWaitMs: number,
    private readonly template: boolean,
  ) {
    this.location = paths.dataDir;
    this.client = this.newClient(max);
  }

  /** No connection is made until the first query. */
  private newClient(max: number): Sql<any> {
    return postgres({
      ...CLIENT_OPTIONS,
      path: this.paths.socketPath,
      user: "postgres",
      database: "postgres",
      connection: { ...CLIENT_OPTIONS.connection, application_name: clientName() },
      max,
      connect_timeout: 10,
      idle_timeout: 60,
    });
  }

  /** The current client; it is replaced after the host changed (see {@link SharedPglite.run}). */
  get sql(): Sql<any> {
    return this.client;
  }

  get isOwner(): boolean {
    return this.host !== null;
  }

  /** Also fails with STORE_UNAVAILABLE once a call has waited `hostWaitMs` for another process's stopped host. */
  async run<T>(fn: (sql: Sql<any>) => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.hostWaitMs;
    for (let attempt = 1; ; attempt++) {
      const client = this.client;
      let stalled: PegasError | null = null;
      try {
        // This process's own host cannot be stopped while this runs: no watch on the common path.
        if (this.host) return await fn(client);
        return await watch(fn(client), deadline, async () => (stalled = await this.stalled()));
      } catch (err) {
        if (err === stalled) {
          // Drop the stuck connections: fn stops, and what they held rolls back once the host runs again.
          this.replaceClient(client);
          throw err;
        }
        if (!isConnectionLost(err) || this.closing) throw err;
        if (Date.now() >= deadline) {
          const now = await this.stalled();
          if (now) throw now;
        }
        if (attempt >= MAX_ATTEMPTS) throw unavailable(this.paths, `lost its connection ${attempt} times`, err);
        log.warn("embedded database host went away; taking over or waiting for the next host", {
          dataDir: this.paths.dataDir,
          attempt,
          err,
        });
        // One takeover at a time, shared by every run() that lost its connection meanwhile.
        await (this.recovering ??= this.recover().finally(() => (this.recovering = undefined)));
      }
    }
  }

  /**
   * After a lost connection: make sure a host answers (maybe this process), then start over with a fresh client.
   * postgres.js reuses a connection's socket object when it reconnects before the old socket's close event ran;
   * under Bun such a socket may connect without ever sending its startup message (porsager/postgres#1066 family),
   * which stalls until connect_timeout. Fresh connections avoid that state.
   */
  private async recover(): Promise<void> {
    await this.reachHost();
    this.replaceClient(this.client);
  }

  /** Starts over with a fresh client unless `old` was replaced already; `old`'s connections are dropped. */
  private replaceClient(old: Sql<any>): void {
    if (this.client !== old || this.closing) return;
    this.client = this.newClient(this.max);
    void old.end({ timeout: 0 }).catch(() => {});
  }

  /** Why another process's host cannot answer now (stopped), or null; null too while this process hosts. */
  private stalled(): Promise<PegasError | null> {
    return this.host ? Promise.resolve(null) : stalledHost(this.paths, this.hostWaitMs);
  }

  close(graceMs = 1000): Promise<void> {
    return (this.closing ??= (async () => {
      await settle(this.client.end({ timeout: graceMs / 1000 }), graceMs + 1000);
      if (this.recovering) await settle(this.recovering, this.waitMs);
      await this.host?.close(graceMs);
      this.host = null;
    })());
  }

  /** Makes sure some process (maybe this one) hosts the data dir and answers on its socket. */
  async reachHost(): Promise<void> {
    if (this.host) {
      // We host it ourselves and it is alive: the lost connection was transient (e.g. a connect timeout while
      // another connection held a long transaction). Pause briefly and let run() try again.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return;
    }
    const host = await waitForHost(this.paths, this.waitMs, this.hostWaitMs, this.template, () => (this.host = null));
    if (host && this.closing)
      await host.close(0); // close() began meanwhile and did not see this host
    else this.host = host;
  }
}

/**
 * Becomes the host when the lock is free, otherwise waits (backing off up to 0.5 s) until the owner's socket
 * accepts and the owner is not stopped; tries the lock again each round, since the owner may be gone by then.
 * Resolves the new host, or null when another process hosts.
 * @throws PegasError STORE_UNAVAILABLE after `waitMs` without a host, after `hostWaitMs` with a stopped one, or when
 *   the lock cannot be taken at all; errors of {@link startHost}.
 */
async function waitForHost(
  paths: PglitePaths,
  waitMs: number,
  hostWaitMs: number,
  template: boolean,
  onLost: () => void,
): Promise<PgliteHost | null> {
  const started = Date.now();
  const deadline = started + waitMs;
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    const lock = await tryLock(paths.lockName).catch((err: Error) => {
      throw new PegasError(
        "STORE_UNAVAILABLE",
        `cannot take the lock of the embedded database at '${paths.dataDir}': ${err.message}`,
        {
          hint: "the embedded database needs Linux (abstract unix sockets); elsewhere use PostgreSQL (PEGAS_DATABASE_URL)",
          cause: err,
        },
      );
    });
    if (lock) {
      const host = await startHost(paths, lock, onLost, hostWaitMs, template);
      log.info("hosting the embedded database", { dataDir: paths.dataDir, socket: paths.socketPath });
      return host;
    }
    // A stopped owner's socket still accepts (the kernel queues the connection), but nothing answers on it.
    const owner = readHost(paths.hostRecordPath);
    if (owner?.state === "stopped") {
      if (Date.now() - started >= hostWaitMs) throw stoppedHostError(paths, owner.pid, hostWaitMs, "is stopped");
    } else if (await canConnect(paths.socketPath)) return null;
    if (Date.now() >= deadline) {
      throw unavailable(
        paths,
        `is owned by another process that did not answer on '${paths.socketPath}' within ${waitMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Whether a unix socket accepts a connection within 1 s (the probe sends nothing). */
function canConnect(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 1000);
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

function unavailable(paths: PglitePaths, what: string, cause?: unknown): PegasError {
  return new PegasError("STORE_UNAVAILABLE", `the embedded database at '${paths.dataDir}' ${what}`, {
    hint: "the first start runs initdb and may take seconds: retry; if it persists, stop the other pegas-memory processes that use this data dir",
    cause,
  });
}

/** Waits for `p` (ignoring its outcome) or `ms`, whichever comes first. */
function settle(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    p.then(
      () => (clearTimeout(timer), resolve()),
      () => (clearTimeout(timer), resolve()),
    );
  });
}
