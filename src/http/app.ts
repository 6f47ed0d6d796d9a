/**
 * The HTTP endpoint of `pegas-memory serve --http`: a Hono app with
 * - `GET /healthz`: 200 `{"status":"ok"}` while the process lives (no database access, never a token);
 * - `GET /readyz`: each dependency's state (src/http/readiness.ts), 200 or 503; without the token (when one is set)
 *   only the states, no error texts;
 * - `GET /metrics`: Prometheus text (token when set);
 * - `/mcp`: MCP over Streamable HTTP, stateful sessions (src/http/sessions.ts; token when set; a browser's Origin
 *   only when loopback or configured: src/http/origin.ts);
 * - `/ui`: the admin web page (src/ui/; token prompt and cookie when set).
 * /readyz, /metrics and /ui answer Brotli or gzip when the client accepts it (src/platform/compress.ts); /mcp never is
 * compressed: its answers are event streams (SSE) that must reach the client frame by frame. HEAD on any route but
 * /mcp is answered with the GET's headers, Content-Length included (the length of the body a GET sends).
 */
import { Hono } from "hono";
import { log } from "../log.ts";
import { maxMessageBytes, type ServerRuntime, createMcpServer } from "../mcp/server.ts";
import { hasToken, requireToken } from "./auth.ts";
import { compressText, headLength } from "../platform/compress.ts";
import { METRICS_CONTENT_TYPE, renderMetrics, servicesForMetrics } from "./metrics.ts";
import { anonymousReadiness, checkReadiness } from "./readiness.ts";
import { mcpCors, requireOrigin } from "./origin.ts";
import { bodyTooLargeMessage, rpcError } from "./rpc.ts";
import { McpSessions } from "./sessions.ts";
import { createUiApp } from "../ui/app.ts";

/** Session limits of /mcp: most live sessions, and the idle time (ms) after which a session is closed. */
export interface SessionLimits {
  maxSessions: number;
  idleMs: number;
}

/** Default session limits of /mcp: 256 sessions, 30 min idle. */
export const MCP_SESSION_LIMITS: Readonly<SessionLimits> = { maxSessions: 256, idleMs: 30 * 60_000 };

/** What the app serves over. */
export interface HttpAppOptions {
  runtime: ServerRuntime;
  /** Host header values /mcp accepts (DNS-rebinding protection on loopback); undefined = any. */
  allowedHosts?: () => string[] | undefined;
  /** Overrides of {@link MCP_SESSION_LIMITS} (tests). */
  sessions?: Partial<SessionLimits>;
}

/** The app and its MCP session map (to sweep idle sessions and to close them all at shutdown). */
export interface HttpApp {
  app: Hono;
  sessions: McpSessions;
}

/** A 413 naming the size and the limit, before the transport reads a byte of the body. */
function tooLarge(declared: number, limit: number): Response {
  return rpcError(413, -32000, bodyTooLargeMessage(limit, declared));
}

/** Builds the app over a runtime's services and call tracker. */
export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const { runtime } = opts;
  const config = runtime.config;
  const token = config.http_token;
  const maxBody = maxMessageBytes(config);
  const sessions = new McpSessions({
    createServer: () => createMcpServer(runtime.services, runtime.calls, runtime.config),
    maxSessions: opts.sessions?.maxSessions ?? MCP_SESSION_LIMITS.maxSessions,
    idleMs: opts.sessions?.idleMs ?? MCP_SESSION_LIMITS.idleMs,
    maxBodyBytes: maxBody,
    allowedHosts: opts.allowedHosts ?? (() => undefined),
    rate: { perSecond: config.http_rate_limit, burst: config.http_rate_burst },
  });
  const app = new Hono();

  // HEAD answers tell the GET's Content-Length (Bun would send 0); outermost, and never over /mcp (event streams).
  const head = headLength();
  app.use("*", (c, next) => (c.req.path === "/mcp" ? next() : head(c, next)));
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // Not "*": /mcp must stay uncompressed and unbuffered; /ui compresses in its own app (src/ui/app.ts).
  for (const path of ["/readyz", "/metrics"]) app.use(path, compressText());
  app.get("/readyz", async (c) => {
    const r = await checkReadiness(config, runtime.services);
    const full = token === undefined || hasToken(c.req.header("authorization"), token);
    return c.json(full ? r : anonymousReadiness(r), r.status === "unavailable" ? 503 : 200);
  });
  app.get("/metrics", requireToken(token), async (c) => {
    const body = await renderMetrics(await servicesForMetrics(runtime.services, runtime.openServices));
    return c.body(body, 200, { "content-type": METRICS_CONTENT_TYPE });
  });
  const origins = config.allowed_origins;
  app.use("/mcp", requireOrigin(origins), mcpCors(origins), requireToken(token), async (c, next) => {
    const declared = Number(c.req.header("content-length") ?? 0);
    if (c.req.method === "POST" && declared > maxBody) return tooLarge(declared, maxBody);
    return next();
  });
  app.all("/mcp", (c) => sessions.handle(c.req.raw));
  app.route("/ui", createUiApp({ services: () => runtime.services.get(), token, allowedHosts: opts.allowedHosts }));

  app.get("/ui/", (c) => c.redirect("/ui", 301));
  app.notFound((c) =>
    c.json({ error: `no route ${c.req.method} ${c.req.path}; try /healthz, /readyz, /metrics, /mcp or /ui` }, 404),
  );
  app.onError((err, c) => {
    log.error("http request failed", { err, method: c.req.method, path: c.req.path });
    return c.json({ error: "internal error; see the server log" }, 500);
  });
  return { app, sessions };
}
