/**
 * Stateful MCP sessions over Streamable HTTP: one McpServer and one Web-standard transport per session, kept in a
 * map by the `Mcp-Session-Id` the transport assigns. Sessions idle longer than `idleMs` are closed by a sweep; at
 * most `maxSessions` live at once: an initialize beyond evicts the least recently used session that has no request
 * in flight (so that idle sessions held by one client cannot lock the others out), and is 503 only when every
 * session is busy; a closed, expired, evicted or unknown id is 404, which tells the client to initialize again (MCP
 * spec, Streamable HTTP, "Session Management"). Each POST is read here first (src/http/rpc.ts): a batch is refused, and
 * a `tools/call` beyond the session's rate (src/http/rate-limit.ts) is 429. Each session keeps its SSE events for a
 * while (src/http/event-store.ts), so that `GET` with `Last-Event-ID` replays what a dropped connection missed.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { log } from "../log.ts";
import { ReplayBudget, type SessionEventStore } from "./event-store.ts";
import { type RateLimit, TokenBucket, rateLimited } from "./rate-limit.ts";
import { endAfterResponse, readPost, rpcError } from "./rpc.ts";

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
  /** Tool calls per second and burst of each session (src/http/rate-limit.ts); default none. */
  rate?: RateLimit;
  /** Where the sessions' SSE events are kept for replay (src/http/event-store.ts); default a budget of its own. */
  replay?: ReplayBudget;
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
  /**
   * Ids of requests posted and not answered yet, also when their connection dropped (the call goes on and its answer
   * is kept for replay): such a session is never evicted nor expired either.
   */
  calls: Set<string | number>;
  /** The session's tool-call rate limit. */
  bucket: TokenBucket;
  /** The session's SSE events, for replay after a dropped connection. */
  events: SessionEventStore;
}

/**
 * `res` with a body that calls `done` once, when the body has been read to its end (`completed` true), failed or been
 * cancelled by the client (false; an SSE answer of a POST ends when its last JSON-RPC response is written); at once
 * when there is no body (true).
 */
function onBodyEnd(res: Response, done: (completed: boolean) => void): Response {
  let settled = false;
  const finish = (completed = false) => {
    if (!settled) {
      settled = true;
      done(completed);
    }
  };
  if (!res.body) {
    finish(true);
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const r = await reader.read();
        if (r.done) {
          finish(true);
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

/** True when no request of `s` is in flight: neither an answer being written nor a call still running. */
const quiet = (s: Session): boolean => s.busy === 0 && s.calls.size === 0;

/** The `requestId` of a `notifications/cancelled` message (the SDK answers a cancelled request with nothing). */
function cancelledId(body: unknown): string | number {
  const id = (body as { params?: { requestId?: unknown } }).params?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : "";
}

/** Live sessions and the routing of /mcp requests to them. */
export class McpSessions {
  private readonly live = new Map<string, Session>();
  private opening = 0;
  private closed = false;
  private clock = 0;
  private readonly replay: ReplayBudget;
  private readonly rate: RateLimit;

  constructor(private readonly opts: SessionOptions) {
    this.replay = opts.replay ?? new ReplayBudget();
    this.rate = opts.rate ?? { perSecond: 0, burst: 1 };
  }

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
      const last = req.method === "GET" ? req.headers.get("last-event-id") : null;
      if (last !== null && !s.events.knows(last))
        return rpcError(
          400,
          -32000,
          `Bad Request: event '${last.slice(0, 64)}' is no longer kept (events are kept ` +
            `${Math.round(this.replay.limits.ttlMs / 60_000)} min, at most ${this.replay.limits.maxEvents} per session, ` +
            "and not once their answer was delivered whole); what followed it cannot be sent again: repeat the request",
        );
      const res = await s.transport.handleRequest(req);
      return last === null ? res : endAfterResponse(res);
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

  /**
   * A POST to a live session: a batch is refused, a tool call beyond the session's rate is 429; else busy until its
   * answer has been written (or the client went away).
   */
  private async post(s: Session, req: Request): Promise<Response> {
    this.touch(s);
    s.busy += 1;
    const done = () => {
      s.busy -= 1;
      this.touch(s);
    };
    try {
      const parsed = await readPost(req, this.opts.maxBodyBytes);
      const wait = parsed instanceof Response || parsed?.method !== "tools/call" ? 0 : s.bucket.take();
      if (parsed instanceof Response || wait > 0) {
        done();
        return parsed instanceof Response ? parsed : rateLimited(wait, this.rate, parsed?.id ?? null);
      }
      const request = parsed?.method && parsed.id !== null ? parsed.id : null;
      if (request !== null) s.calls.add(request);
      if (parsed?.method === "notifications/cancelled") s.calls.delete(cancelledId(parsed.body));
      const res = await s.transport.handleRequest(req, parsed && { parsedBody: parsed.body });
      if (request !== null && res.status !== 200) s.calls.delete(request);
      return onBodyEnd(res, (completed) => {
        // The answer went out whole: nothing of this stream will be asked for again.
        if (completed && request !== null) s.events.delivered(request);
        done();
      });
    } catch (err) {
      done();
      throw err;
    }
  }

  /** Closes the least recently used session without a request in flight; false when every session is busy. */
  private evictIdle(): boolean {
    let victim: [string, Session] | null = null;
    for (const entry of this.live) {
      if (quiet(entry[1]) && (!victim || entry[1].touched < victim[1].touched)) victim = entry;
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
    this.opening += 1;
    try {
      const parsed = await readPost(req, this.opts.maxBodyBytes);
      if (parsed instanceof Response) return parsed;
      const { server, transport, events } = this.create();
      await server.connect(transport);
      const res = await transport.handleRequest(req, parsed && { parsedBody: parsed.body });
      if (!transport.sessionId || !this.live.has(transport.sessionId)) await server.close().catch(() => {});
      const id = parsed?.id ?? null;
      return onBodyEnd(res, (completed) => completed && id !== null && events.delivered(id));
    } finally {
      this.opening -= 1;
    }
  }

  /** A server and its transport, entered in the map once the transport has assigned the session id. */
  private create(): Pick<Session, "server" | "transport" | "events"> {
    const hosts = this.opts.allowedHosts();
    const calls = new Set<string | number>();
    const events = this.replay.store((id) => calls.delete(id));
    const bucket = new TokenBucket(this.rate);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableDnsRebindingProtection: hosts !== undefined,
      allowedHosts: hosts,
      maxRequestBodySize: this.opts.maxBodyBytes,
      eventStore: events,
      onsessioninitialized: (id) => {
        const s = { server, transport, lastSeen: Date.now(), touched: ++this.clock, busy: 0, calls, bucket, events };
        this.live.set(id, s);
        log.debug("mcp session opened", { session: id, live: this.live.size });
      },
    });
    const server = this.opts.createServer();
    server.server.onclose = () => {
      events.clear();
      const id = transport.sessionId;
      if (id && this.live.get(id)?.transport === transport) {
        this.live.delete(id);
        log.debug("mcp session closed", { session: id, live: this.live.size });
      }
    };
    return { server, transport, events };
  }

  /** Closes sessions idle (no request in flight) since before `now - idleMs`; resolves with how many. */
  async sweep(now = Date.now()): Promise<number> {
    const idle = [...this.live.values()].filter((s) => quiet(s) && now - s.lastSeen >= this.opts.idleMs);
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
