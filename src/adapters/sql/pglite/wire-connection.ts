/**
 * One client connection of the wire server. PGlite has a single backend session, so a connection's message
 * groups run whole, one group at a time across all connections, and a connection inside a transaction (or in the
 * middle of an extended-protocol sequence ended by Flush) keeps the session until it leaves it.
 */
import type { Socket } from "node:net";
import { log } from "../../../log.ts";
import type { ExclusiveSection } from "./exclusive-section.ts";
import { clientProcess, processState } from "./host-process.ts";
import {
  CANCEL_REQUEST,
  closeStatementMessage,
  closedStatementName,
  GSSENC_REQUEST,
  MSG,
  messageLength,
  PROTOCOL_3,
  ProtocolError,
  parsedStatementName,
  queryMessage,
  SSL_REQUEST,
  startupPacketLength,
  startupParameters,
  syncMessage,
} from "./wire-messages.ts";

/** How often the process of a client that holds the session idle is looked at, in ms. */
const STOP_CHECK_MS = 250;

/** The part of PGlite the wire server drives. */
export interface WireBackend {
  execProtocolRawStream(message: Uint8Array, opts: { onRawData: (data: Uint8Array) => void }): Promise<void>;
  execProtocolRaw(message: Uint8Array): Promise<Uint8Array>;
  isInTransaction(): boolean;
}

/** Settings and callbacks shared by the connections of one server. */
export interface WireContext {
  backend: WireBackend;
  section: ExclusiveSection<WireConnection>;
  /** How long a connection may hold the session without sending anything, in ms. */
  idleInTransactionMs: number;
  /** How long a client's stopped process (SIGSTOP, Ctrl-Z) may hold the session while others wait for it, in ms. */
  stoppedClientMs: number;
  /** Called when PGlite itself threw (not an SQL error): the backend may be unusable. */
  onBackendError: (err: unknown) => void;
}

/** One accepted socket speaking protocol v3; `done` resolves after it closed and its session state was cleaned. */
export class WireConnection {
  /** Resolves once the socket is closed and any transaction it held was rolled back. */
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  private buf: Buffer = Buffer.alloc(0);
  private started = false;
  private closed = false;
  private ending = false;
  private running = false;
  private midExtended = false;
  private pending: Buffer[] = [];
  private readonly groups: Array<{ bytes: Buffer; last: number }> = [];
  private readonly statements = new Set<string>();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  /** The client's process, when it named itself (host-process.ts clientName). */
  private client: { pid: number; start: string } | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly ctx: WireContext,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.onClose());
  }

  /** Whether the client has work queued or running, or holds the session (a transaction). */
  get busy(): boolean {
    return !this.closed && (this.running || this.groups.length > 0 || this.ctx.section.holds(this));
  }

  /** Drops the connection; an open transaction is rolled back before `done` resolves. */
  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.closed || this.ending) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    try {
      this.split();
    } catch (err) {
      log.warn("pglite wire: dropping a client that broke the protocol", { err });
      this.socket.destroy();
      return;
    }
    void this.pump();
  }

  /** Moves every complete message from `buf` into groups that end with Sync, Query or Flush. */
  private split(): void {
    while (!this.ending) {
      const len = this.started ? messageLength(this.buf) : startupPacketLength(this.buf);
      if (len === 0) return;
      const msg = this.buf.subarray(0, len);
      this.buf = this.buf.subarray(len);
      if (this.started) this.onMessage(msg);
      else this.onStartupPacket(msg);
    }
  }

  private onStartupPacket(msg: Buffer): void {
    const code = msg.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write("N"); // no encryption on a local socket; the client goes on in plain text
    } else if (code === CANCEL_REQUEST) {
      this.ending = true; // cancelling is not supported; PostgreSQL also just closes such a connection
      this.socket.destroy();
    } else if (code === PROTOCOL_3) {
      this.client = clientProcess(startupParameters(msg).get("application_name"));
      this.groups.push({ bytes: Buffer.from(msg), last: 0 });
      this.started = true;
    } else {
      throw new ProtocolError(`unsupported protocol ${code}`);
    }
  }

  private onMessage(msg: Buffer): void {
    const type = msg[0];
    if (type === MSG.terminate) {
      // Never hand Terminate to PGlite: it would end the one session every connection shares.
      this.ending = true;
      this.pending = [];
      return;
    }
    if (type === MSG.parse) {
      const name = parsedStatementName(msg);
      if (name) this.statements.add(name);
    } else if (type === MSG.close) {
      const name = closedStatementName(msg);
      if (name) this.statements.delete(name);
    }
    this.pending.push(Buffer.from(msg));
    if (type === MSG.sync || type === MSG.query || type === MSG.flush) {
      this.groups.push({
        bytes: this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending),
        last: type,
      });
      this.pending = [];
    }
  }

  /** Runs queued groups in order, each inside the shared section; the only place that executes client bytes. */
  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.groups.length && !this.closed) {
        const group = this.groups.shift()!;
        this.clearIdleTimer();
        await this.ctx.section.acquire(this);
        if (this.closed) break;
        if (!(await this.execute(group.bytes))) break;
        this.midExtended = group.last === MSG.flush;
        if (!this.midExtended && !this.ctx.backend.isInTransaction()) this.ctx.section.release(this);
      }
    } finally {
      this.running = false;
    }
    if (this.closed) return this.cleanup();
    if (this.ending && this.groups.length === 0) this.socket.end();
    else if (this.ctx.section.holds(this) && this.groups.length === 0) this.armIdleTimer();
  }

  /** Executes one group, streaming PGlite's output to the socket; false when PGlite threw. */
  private async execute(group: Buffer): Promise<boolean> {
    try {
      await this.ctx.backend.execProtocolRawStream(group, {
        onRawData: (data) => {
          // `data` is a view into WASM memory that PGlite reuses: copy before queueing it on the socket.
          if (!this.socket.destroyed) this.socket.write(Buffer.from(data));
        },
      });
      return true;
    } catch (err) {
      log.error("pglite wire: the embedded database failed while executing a request", { err });
      this.socket.destroy();
      this.ctx.onBackendError(err);
      return false;
    }
  }

  private armIdleTimer(): void {
    this.clearIdleTimer(); // a pump with no complete message re-arms: never leak the previous timer
    this.idleTimer = setTimeout(() => {
      log.warn("pglite wire: a client held a transaction idle too long; rolling it back", {
        idleMs: this.ctx.idleInTransactionMs,
      });
      this.socket.destroy();
    }, this.ctx.idleInTransactionMs);
    this.idleTimer.unref?.();
    if (this.client) this.watchStoppedClient(this.client);
  }

  /**
   * Rolls back the session this connection holds idle once its client's process has been stopped for
   * `stoppedClientMs` while other connections wait: a stopped process answers nothing and would stall them all.
   * Resumed, the client finds its connection closed and runs its transaction again (Database.run).
   */
  private watchStoppedClient(client: { pid: number; start: string }): void {
    let stoppedSince: number | undefined;
    // Not at once: a transaction's statements come in quick succession, and each one re-arms this.
    const later = () => {
      this.stopTimer = setTimeout(check, STOP_CHECK_MS);
      this.stopTimer.unref?.();
    };
    const check = () => {
      if (processState(client.pid, client.start) !== "stopped") stoppedSince = undefined;
      else if (Date.now() - (stoppedSince ??= Date.now()) >= this.ctx.stoppedClientMs && this.ctx.section.contended) {
        log.warn("pglite wire: a stopped process holds a transaction others wait for; rolling it back", {
          pid: client.pid,
          hint: `resumed (kill -CONT ${client.pid}), it runs the transaction again`,
        });
        this.socket.destroy();
        return;
      }
      later();
    };
    later();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.idleTimer = undefined;
    this.stopTimer = undefined;
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearIdleTimer();
    if (!this.running) void this.cleanup();
  }

  /** Ends what the closed client left in the shared session: an open transaction and its prepared statements. */
  private async cleanup(): Promise<void> {
    const section = this.ctx.section;
    try {
      const holding = section.holds(this);
      if (!holding && this.statements.size === 0) return;
      await section.acquire(this);
      const parts: Buffer[] = [];
      if (this.midExtended) parts.push(syncMessage()); // leaves an unfinished extended sequence (and its error state)
      if (holding && this.ctx.backend.isInTransaction()) parts.push(queryMessage("ROLLBACK"));
      for (const name of this.statements) parts.push(closeStatementMessage(name));
      if (this.statements.size) parts.push(syncMessage());
      if (parts.length) await this.ctx.backend.execProtocolRaw(Buffer.concat(parts));
    } catch (err) {
      log.warn("pglite wire: cleanup after a closed client failed", { err });
    } finally {
      section.release(this);
      this.resolveDone();
    }
  }
}
