/**
 * A PostgreSQL wire-protocol server in front of one PGlite instance, on a unix socket.
 *
 * Why not @electric-sql/pglite-socket: it queues protocol messages one by one, so two clients' extended-protocol
 * sequences (Parse/Bind/Execute/Sync) interleave on PGlite's single backend session and return each other's
 * results. Here each connection's messages run as whole groups (up to Sync, Query or Flush) inside one exclusive
 * section, and a connection inside a transaction keeps the section until the transaction ends.
 *
 * Limits: COPY FROM STDIN, LISTEN/NOTIFY delivery and CancelRequest are not supported; session settings (SET) are
 * shared by all connections, as they run in one session.
 */
import { chmodSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { ExclusiveSection } from "./exclusive-section.ts";
import { type WireBackend, WireConnection } from "./wire-connection.ts";

/** The PGlite surface the wire server drives (re-exported for the host). */
export type { WireBackend } from "./wire-connection.ts";

/** Options of {@link WireServer}. */
export interface WireServerOptions {
  /** A connection that holds a transaction and sends nothing for this long (ms) is rolled back and closed. */
  idleInTransactionMs?: number;
  /** Such a connection whose client process is stopped is rolled back after this long (ms) when others wait. */
  stoppedClientMs?: number;
  /** Called once when PGlite throws outside SQL (e.g. a WASM abort): the owner should give the data dir up. */
  onBackendError?: (err: unknown) => void;
}

/** Serves one {@link WireBackend} to any number of postgres.js (or libpq) clients. */
export class WireServer {
  private readonly server: Server;
  private readonly connections = new Set<WireConnection>();
  private readonly section = new ExclusiveSection<WireConnection>();
  private backendFailed = false;

  /** Creates the server; nothing listens until {@link WireServer.listen}. */
  constructor(backend: WireBackend, opts: WireServerOptions = {}) {
    const ctx = {
      backend,
      section: this.section,
      idleInTransactionMs: opts.idleInTransactionMs ?? 60_000,
      stoppedClientMs: opts.stoppedClientMs ?? 5000,
      onBackendError: (err: unknown) => {
        if (this.backendFailed) return;
        this.backendFailed = true;
        opts.onBackendError?.(err);
      },
    };
    this.server = createServer((socket: Socket) => {
      socket.unref(); // serving others never keeps this process alive; its owner decides when to close
      const conn = new WireConnection(socket, ctx);
      this.connections.add(conn);
      void conn.done.then(() => this.connections.delete(conn));
    });
  }

  /** Number of open client connections. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Listens on the unix socket `path` (which must not exist) and makes it owner-only (0600).
   * @throws Error from listen (e.g. EADDRINUSE when the path exists).
   */
  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(path, () => {
        this.server.off("error", reject);
        this.server.unref();
        try {
          chmodSync(path, 0o600);
        } catch {
          // the dir is private anyway; a failed chmod only loses defence in depth
        }
        resolve();
      });
    });
  }

  /**
   * Stops accepting and drops idle connections at once; busy ones (running a request or holding a transaction) get
   * `graceMs` to finish, then are dropped too. Resolves after every transaction they held was rolled back, or after
   * a further max(`graceMs`, 1 s) at most. Never throws.
   */
  async close(graceMs = 1000): Promise<void> {
    // close() calls back only once every connection has ended, so don't wait for it before draining them.
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const deadline = Date.now() + graceMs;
    for (;;) {
      for (const conn of this.connections) if (!conn.busy) conn.destroy();
      if (![...this.connections].some((c) => c.busy) || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const conn of this.connections) conn.destroy();
    await settleWithin(Promise.all([...this.connections].map((c) => c.done)), Math.max(graceMs, 1000));
    await settleWithin(stopped, 100);
  }
}

/** Waits for `p` or `ms`, whichever comes first. */
function settleWithin(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void p.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
