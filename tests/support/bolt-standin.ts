/**
 * The Bolt stand-in: a loopback Bolt server (node:net, 127.0.0.1, an ephemeral port) that speaks enough of the
 * protocol for neo4j-driver to run real sessions against it, records every RUN with the wire type of each parameter,
 * and answers from a script. It proves what a Bolt client sends; it evaluates no Cypher.
 *
 * Protocol (neo4j.com/docs/bolt/current/bolt/handshake/, …/message/): the client opens with the magic 0x6060B017
 * and four 4-byte version proposals [0, range, minor, major]; the stand-in answers the first proposal it supports
 * (default 5.2 down to 4.3), or, when `manifest` is on and the client offers 255.1, with handshake manifest v1
 * (00 00 01 FF, a varint count, version ranges, varint capabilities) and reads the client's pick. Then chunked
 * PackStream messages: HELLO, LOGON, LOGOFF, BEGIN, RUN, PULL, DISCARD, COMMIT, ROLLBACK, RESET, TELEMETRY, ROUTE,
 * GOODBYE; answers SUCCESS (0x70), RECORD (0x71), IGNORED (0x7E) after a FAILURE (0x7F) until RESET.
 */
import { createServer, type Server, type Socket } from "node:net";
import {
  chunkMessage,
  Dechunker,
  handshakeReply,
  PackReader,
  PackWriter,
  parseClientPick,
  shapeOf,
  struct,
  toJs,
  type PackValue,
  type TypeShape,
} from "./packstream.ts";

/** A failure the stand-in sends: a Neo4j-style status code and a message. */
export type BoltFailure = { code: string; message: string };

/** The transient conflict failure Memgraph reports for a write-write conflict (code as sent since Memgraph 2.12). */
export const CONFLICT_FAILURE: BoltFailure = {
  code: "Memgraph.TransientError.MemgraphError.MemgraphError",
  message:
    "Cannot resolve conflicting transactions. You can retry this transaction when the conflicting transaction is finished",
};

/** One RUN as received: query text, parameters (wire-typed), their type shapes, extra map, connection number. */
export interface RecordedRun {
  query: string;
  params: Record<string, PackValue>;
  types: Record<string, TypeShape>;
  extra: Record<string, unknown>;
  connection: number;
  /** Whether it ran inside BEGIN … COMMIT/ROLLBACK. */
  inTransaction: boolean;
}

/** One received message: its connection, name and plain fields. */
export type RecordedMessage = { connection: number; name: string; fields: unknown[] };

/** A scripted answer: the first entry whose `match` fits the query text answers it (`times` bounds how often). */
export interface BoltScriptEntry {
  match: RegExp;
  /** Records as objects keyed by field; a function gets the RUN, and what it throws is a FAILURE ({code, message}). */
  rows?: Record<string, unknown>[] | ((run: RecordedRun) => Record<string, unknown>[]);
  /** Field names when `rows` may be empty (default: keys of the first row). */
  fields?: string[];
  failure?: BoltFailure;
  times?: number;
}

/** Options: versions supported ("major.minor", best first), handshake manifest v1, the script. */
export interface BoltStandinOptions {
  versions?: string[];
  manifest?: boolean;
  script?: BoltScriptEntry[];
}

/** Fault modes, switchable at any time. */
export interface BoltFaults {
  /** Close every new connection at once (before the handshake answer). */
  refuse: boolean;
  /** Accept and never answer anything (a hung server). */
  hang: boolean;
  /** Answer this many RUNs whose text matches `match` with `failure` (then behave normally). */
  failRuns: { remaining: number; failure: BoltFailure; match: RegExp };
}

const NAMES: Record<number, string> = {
  1: "HELLO",
  2: "GOODBYE",
  15: "RESET",
  16: "RUN",
  17: "BEGIN",
  18: "COMMIT",
  19: "ROLLBACK",
  47: "DISCARD",
  63: "PULL",
  84: "TELEMETRY",
  102: "ROUTE",
  106: "LOGON",
  107: "LOGOFF",
};

/** What Memgraph offers (Bolt 5.2 down to 4.3); the stand-in's default. */
const DEFAULT_VERSIONS = ["5.2", "5.1", "5.0", "4.4", "4.3"];

type OpenResult = { fields: string[]; rows: unknown[][] };

/** Per-connection protocol state. */
class Conn {
  stage: "handshake" | "manifest" | "messages" = "handshake";
  buf = new Uint8Array(0);
  readonly dechunker = new Dechunker();
  failed = false;
  inTx = false;
  result: OpenResult | null = null;
  constructor(
    readonly id: number,
    readonly socket: Socket,
  ) {}
}

/** The Bolt stand-in server; see the module comment. Start with {@link BoltStandin.start}. */
export class BoltStandin {
  /** Every RUN received, in order. */
  readonly runs: RecordedRun[] = [];
  /** Every message received, in order. */
  readonly messages: RecordedMessage[] = [];
  /** The negotiated version of each connection ("5.2"). */
  readonly negotiated: string[] = [];
  /** The script; edit freely between calls. */
  script: BoltScriptEntry[];
  readonly faults: BoltFaults = {
    refuse: false,
    hang: false,
    failRuns: { remaining: 0, failure: CONFLICT_FAILURE, match: /./ },
  };
  private readonly sockets = new Set<Socket>();
  private connections = 0;
  private bookmarks = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly opts: BoltStandinOptions,
  ) {
    this.script = opts.script ?? [];
  }

  /** Listens on 127.0.0.1 at an ephemeral port. */
  static async start(opts: BoltStandinOptions = {}): Promise<BoltStandin> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const port = (server.address() as { port: number }).port;
    const s = new BoltStandin(server, port, opts);
    server.on("connection", (sock) => s.accept(sock));
    return s;
  }

  /** `bolt://127.0.0.1:<port>`. */
  get url(): string {
    return `bolt://127.0.0.1:${this.port}`;
  }

  /** Fails the next `n` RUNs matching `match` (default: every query) with `failure` (default Memgraph's conflict). */
  failNextRuns(n: number, failure: BoltFailure = CONFLICT_FAILURE, match: RegExp = /./): void {
    this.faults.failRuns = { remaining: n, failure, match };
  }

  /** Forgets recorded runs and messages. */
  clear(): void {
    this.runs.length = 0;
    this.messages.length = 0;
  }

  /** Closes every connection and the listener. */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(socket: Socket): void {
    if (this.faults.refuse) return void socket.destroy();
    const conn = new Conn(++this.connections, socket);
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.on("data", (data: Buffer) => {
      if (this.faults.hang) return;
      try {
        this.receive(conn, new Uint8Array(data));
      } catch (err) {
        socket.destroy(err as Error);
      }
    });
  }

  private receive(conn: Conn, data: Uint8Array): void {
    if (conn.stage !== "messages") {
      conn.buf = Uint8Array.from([...conn.buf, ...data]);
      if (!this.shake(conn)) return;
      data = conn.buf;
      conn.buf = new Uint8Array(0);
    }
    for (const msg of conn.dechunker.push(data)) this.handle(conn, msg);
  }

  /** Advances the handshake; true once messages may follow (leftover bytes stay in conn.buf). */
  private shake(conn: Conn): boolean {
    if (conn.stage === "handshake") {
      if (conn.buf.length < 20) return false;
      const n = handshakeReply(
        conn.buf.subarray(0, 20),
        this.opts.versions ?? DEFAULT_VERSIONS,
        this.opts.manifest ?? false,
      );
      conn.buf = conn.buf.slice(20);
      conn.socket.write(n.reply);
      if (!n.manifest) {
        if (n.version === null) conn.socket.end();
        else this.agree(conn, n.version);
        return n.version !== null;
      }
      conn.stage = "manifest";
    }
    const pick = parseClientPick(conn.buf);
    if (!pick) return false;
    conn.buf = conn.buf.slice(pick.length);
    this.agree(conn, pick.version);
    return true;
  }

  private agree(conn: Conn, version: string): void {
    this.negotiated.push(version);
    conn.stage = "messages";
  }

  private send(conn: Conn, tag: number, ...fields: unknown[]): void {
    conn.socket.write(chunkMessage(new PackWriter().write(struct(tag, fields)).finish()));
  }

  private success(conn: Conn, meta: Record<string, unknown> = {}): void {
    this.send(conn, 0x70, meta);
  }

  private fail(conn: Conn, f: BoltFailure): void {
    conn.failed = true;
    conn.result = null;
    this.send(conn, 0x7f, { code: f.code, message: f.message });
  }

  private handle(conn: Conn, bytes: Uint8Array) {
    const reader = new PackReader(bytes);
    const msg = reader.read();
    if (msg.type !== "Structure") throw new Error(`Bolt message is a ${msg.type}, not a structure`);
    const name = NAMES[msg.tag] ?? `0x${msg.tag.toString(16)}`;
    this.messages.push({ connection: conn.id, name, fields: msg.fields.map(toJs) });
    if (name === "GOODBYE") return void conn.socket.end();
    if (name === "RESET") {
      Object.assign(conn, { failed: false, inTx: false, result: null });
      return this.success(conn);
    }
    if (conn.failed) return this.send(conn, 0x7e);
    this.dispatch(conn, name, msg.fields);
  }

  private dispatch(conn: Conn, name: string, fields: PackValue[]) {
    switch (name) {
      case "HELLO":
        return this.success(conn, {
          server: "Neo4j/5.2.0 (pegas Bolt stand-in)",
          connection_id: `standin-${conn.id}`,
          hints: {},
        });
      case "LOGON":
      case "LOGOFF":
      case "TELEMETRY":
        return this.success(conn);
      case "BEGIN":
      case "COMMIT":
      case "ROLLBACK":
        conn.inTx = name === "BEGIN";
        return this.success(conn, name === "COMMIT" ? { bookmark: `standin:bk${++this.bookmarks}` } : {});
      case "RUN":
        return this.run(conn, fields);
      case "PULL":
        return this.pull(conn, fields[0]);
      case "DISCARD":
        conn.result = null;
        return this.success(conn, { has_more: false });
      default:
        return this.fail(conn, {
          code: "Neo.ClientError.Request.Invalid",
          message: `the Bolt stand-in does not handle ${name}`,
        });
    }
  }

  private run(conn: Conn, fields: PackValue[]) {
    const [q, p, x] = fields;
    const params = p?.type === "Map" ? Object.fromEntries(p.entries) : {};
    const run: RecordedRun = {
      query: q?.type === "String" ? q.value : "",
      params,
      types: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, shapeOf(v)])),
      extra: (x ? toJs(x) : {}) as Record<string, unknown>,
      connection: conn.id,
      inTransaction: conn.inTx,
    };
    this.runs.push(run);
    const fault = this.faults.failRuns;
    if (fault.remaining > 0 && fault.match.test(run.query)) {
      fault.remaining--;
      return this.fail(conn, fault.failure);
    }
    const entry = this.script.find((e) => e.match.test(run.query) && (e.times === undefined || e.times > 0));
    if (entry?.times !== undefined) entry.times--;
    if (entry?.failure) return this.fail(conn, entry.failure);
    let rows: Record<string, unknown>[];
    try {
      rows = typeof entry?.rows === "function" ? entry.rows(run) : (entry?.rows ?? []);
    } catch (err) {
      const e = err as Partial<BoltFailure> & { message?: string };
      return this.fail(conn, {
        code: e.code ?? "Neo.DatabaseError.General.UnknownError",
        message: e.message ?? String(err),
      });
    }
    const names = entry?.fields ?? (rows.length > 0 ? Object.keys(rows[0]) : []);
    conn.result = { fields: names, rows: rows.map((r) => names.map((f) => r[f])) };
    this.success(conn, { fields: names, t_first: 0, ...(conn.inTx ? { qid: 0 } : {}) });
  }

  private pull(conn: Conn, extra: PackValue | undefined) {
    const result = conn.result;
    if (!result)
      return this.fail(conn, { code: "Neo.ClientError.Request.Invalid", message: "PULL without an open result" });
    const meta = (extra ? toJs(extra) : {}) as { n?: bigint };
    const n = meta.n === undefined || meta.n < 0n ? result.rows.length : Number(meta.n);
    for (const row of result.rows.splice(0, n)) this.send(conn, 0x71, row);
    if (result.rows.length > 0) return this.success(conn, { has_more: true });
    conn.result = null;
    const done: Record<string, unknown> = { has_more: false, t_last: 0, type: "rw", db: "standin" };
    if (!conn.inTx) done.bookmark = `standin:bk${++this.bookmarks}`;
    this.success(conn, done);
  }
}

/** A loopback port on which nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = await BoltStandin.start();
  const port = s.port;
  await s.stop();
  return port;
}
