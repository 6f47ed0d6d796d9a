/**
 * Stateful MCP sessions over Streamable HTTP: one McpServer and one Web-standard transport per session, kept in a
 * map by the `Mcp-Session-Id` the transport assigns. Sessions idle longer than `idleMs` are closed by a sweep; at
 * most `maxSessions` live at once: an initialize beyond evicts the least recently used session that has no request
 * in flight (so that idle sessions held by one client cannot lock the others out), and is 503 only when every
 * session is busy; a closed, expired, evicted or unknown id is 404, which tells the client to initialize again (MCP
 * spec, Streamable HTTP, "Session Management").
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { log } from "../log.ts";

/** A JSON-RPC error answer with id null, as the SDK's transport words its own. */
export function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Settings of the session map. */
export interface SessionOptions {
  /** Makes the McpServer of a new session (sharing the process's services and call tracker). */
  createServer: () => McpServer;
  /** Most sessions alive at once. */
  maxSessions: number;
  /** A session without a request for this long is closed (ms). */
  idleMs: number;
  /** Largest POST body the transport reads (bytes); larger is 413. */
  maxBodyBytes: number;
  /** Host header values accepted (DNS-rebinding protection), or undefined to accept any (a token guards instead). */
  allowedHosts: () => string[] | undefined;
}

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  /** Time of the last request's start or end (ms, Date.now()), for the idle expiry. */
  lastSeen: number;
  /** Order of the last activity (a counter: ties in ms cannot blur the least recently used). */
  touched: number;
  /** POSTs whose answer is still being written (a request in flight): such a session is never evicted. */
  busy: number;
}

/**
 * `res` with a body that calls `done` once, when the body has been read to its end, failed or been cancelled by the
 * client (an SSE answer of a POST ends when its last JSON-RPC response is written); at once when there is no body.
 */
function onBodyEnd(res: Response, done: () => void): Response {
  let settled = false;
  const finish = () => {
    if (!settled) {
      settled = true;
      done();
    }
  };
  if (!res.body) {
    finish();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const r = await reader.read();
        if (r.done) {
          finish();
          controller.close();
        } else controller.enqueue(r.value);
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** Live sessions and the routing of /mcp requests to them. */
export class McpSessions {
  private readonly live = new Map<string, Session>();
  private opening = 0;
  private closed = false;
  private clock = 0;

  constructor(private readonly opts: SessionOptions) {}

  /** Number of live sessions. */
  get size(): number {
    return this.live.size;
  }

  /** Answers one request to /mcp (POST, GET or DELETE); never throws for a client's mistake. */
  async handle(req: Request): Promise<Response> {
    const sid = req.headers.get("mcp-session-id");
    if (sid !== null) {
      const s = this.live.get(sid);
      if (!s) {
        const min = Math.round(this.opts.idleMs / 60_000);
        return rpcError(
          404,
          -32001,
          `Session not found: '${sid.slice(0, 64)}' was ended, expired after ${min} min idle, ` +
            `was evicted for a newer one (at most ${this.opts.maxSessions} live), or the server restarted; send initialize again`,
        );
      }
      if (req.method === "POST") return this.post(s, req);
      this.touch(s);
      return s.transport.handleRequest(req);
    }
    if (req.method !== "POST")
      return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required; POST an initialize request first");
    if (this.closed)
      return rpcError(503, -32000, "the server is shutting down; reconnect when it is back", { "retry-after": "5" });
    if (this.live.size + this.opening >= this.opts.maxSessions && !this.evictIdle()) {
      return rpcError(
        503,
        -32000,
        `too many MCP sessions: ${this.opts.maxSessions} are live and every one has a request in flight; ` +
          "retry shortly, or end unused sessions (HTTP DELETE /mcp)",
        { "retry-after": "5" },
      );
    }
    return this.open(req);
  }

  private touch(s: Session): void {
    s.lastSeen = Date.now();
    s.touched = ++this.clock;
  }

  /** A POST to a live session: busy until its answer has been written (or the client went away). */
  private async post(s: Session, req: Request): Promise<Response> {
    this.touch(s);
    s.busy += 1;
    const done = () => {
      s.busy -= 1;
      this.touch(s);
    };
    try {
      return onBodyEnd(await s.transport.handleRequest(req), done);
    } catch (err) {
      done();
      throw err;
    }
  }

  /** Closes the least recently used session without a request in flight; false when every session is busy. */
  private evictIdle(): boolean {
    let victim: [string, Session] | null = null;
    for (const entry of this.live) {
      if (entry[1].busy === 0 && (!victim || entry[1].touched < victim[1].touched)) victim = entry;
    }
    if (!victim) return false;
    const [id, s] = victim;
    this.live.delete(id);
    void s.server.close().catch(() => {});
    log.info("mcp session evicted: the session cap was reached", {
      session: id,
      idle_s: Math.round((Date.now() - s.lastSeen) / 1000),
      max: this.opts.maxSessions,
    });
    return true;
  }

  /** A new session for an initialize request (anything else is refused by the transport, and the session dropped). */
  private async open(req: Request): Promise<Response> {
    const hosts = this.opts.allowedHosts();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableDnsRebindingProtection: hosts !== undefined,
      allowedHosts: hosts,
      maxRequestBodySize: this.opts.maxBodyBytes,
      onsessioninitialized: (id) => {
        this.live.set(id, { server, transport, lastSeen: Date.now(), touched: ++this.clock, busy: 0 });
        log.debug("mcp session opened", { session: id, live: this.live.size });
      },
    });
    const server = this.opts.createServer();
    server.server.onclose = () => {
      const id = transport.sessionId;
      if (id && this.live.get(id)?.transport === transport) {
        this.live.delete(id);
        log.debug("mcp session closed", { session: id, live: this.live.size });
      }
    };
    this.opening += 1;
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(req);
      if (!transport.sessionId || !this.live.has(transport.sessionId)) await server.close().catch(() => {});
      return res;
    } finally {
      this.opening -= 1;
    }
  }

  /** Closes sessions idle (no request in flight) since before `now - idleMs`; resolves with how many. */
  async sweep(now = Date.now()): Promise<number> {
    const idle = [...this.live.values()].filter((s) => s.busy === 0 && now - s.lastSeen >= this.opts.idleMs);
    await Promise.all(idle.map((s) => s.server.close().catch(() => {})));
    if (idle.length)
      log.info("mcp sessions expired", {
        count: idle.length,
        idle_min: Math.round(this.opts.idleMs / 60_000),
        live: this.live.size,
      });
    return idle.length;
  }

  /** Refuses new sessions from now on and closes every live one (their in-flight calls are aborted). */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live.values()].map((s) => s.server.close().catch(() => {})));
    this.live.clear();
  }
}
