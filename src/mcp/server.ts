/**
 * The MCP server factory, the runtime every transport shares (services, calls in flight, one shutdown path) and
 * the stdio transport (src/cli/serve.ts picks it or Streamable HTTP, src/http/). Over stdio, stdout
 * carries JSON-RPC only (logs go to stderr); the database opens on the first tool call, so `initialize` answers at
 * once; the process ends when stdin closes (stdio) or on SIGTERM/SIGINT: in-flight calls get 0.65 s to finish, then
 * are cancelled and rolled back, all within 1 s.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Config } from "../config.ts";
import { within } from "../domain/deadline.ts";
import { RAISE_INPUT_BYTES } from "../domain/limits.ts";
import { log } from "../log.ts";
import { VERSION } from "../version.ts";
import type { Services } from "../core/services.ts";
import { LazyServices } from "../wiring/lazy-services.ts";
import { withSamplingDistiller } from "../wiring/sampling.ts";
import { CallTracker } from "./calls.ts";
import { serverInstructions } from "./instructions.ts";
import { serveToolsOnFirstUse } from "./deferred-tools.ts";
import { StrictStdioTransport } from "./stdio-transport.ts";
import type { ToolOptions } from "./registry.ts";

/** The tool options of a configuration (`structured_content`, `text_format`, `strict_arguments`). */
export function toolOptions(
  config: Pick<Config, "structured_content" | "text_format" | "strict_arguments">,
): ToolOptions {
  return {
    structuredContent: config.structured_content !== "off",
    textFormat: config.text_format,
    strictArguments: config.strict_arguments,
  };
}

/**
 * Creates an McpServer with the tools of the configured toolsets served over lazily opened services (the tool
 * modules load on the first tools/list or tools/call: deferred-tools.ts). It declares
 * only what it does: tools (a list that never changes while it runs); no `logging`, as it sends no log messages
 * (warnings travel in the tool results that they concern, e.g. a degraded search).
 */
export function createMcpServer(services: LazyServices, calls: CallTracker, config: Config): McpServer {
  const server = new McpServer(
    { name: "pegas-memory", title: "pegas-memory", version: VERSION },
    { capabilities: { tools: {} }, instructions: serverInstructions(config.toolsets) },
  );
  // The distiller may ask the client's own model (config distiller = "mcp-sampling"); only this server can reach it.
  const getServices = withSamplingDistiller(server, () => services.get());
  // The tool modules load on the first tools/list or tools/call: `initialize` does not wait for them. A call that
  // comes first starts opening the services meanwhile (a failure there is the call's own to report).
  serveToolsOnFirstUse(
    server,
    async () => {
      const { toolRequestHandlers, toolsOf } = await import("./registry.ts");
      return toolRequestHandlers(getServices, calls, toolOptions(config), toolsOf(config.toolsets));
    },
    () => void services.get().catch(() => {}),
  );
  return server;
}

/** Grace period for in-flight calls at shutdown (ms): they may finish; then they are cancelled and rolled back. */
export const SHUTDOWN_GRACE_MS = 650;
/** Time the cancelled calls get to observe their abort, and the database connections to end, each (ms). */
export const SHUTDOWN_STEP_MS = 100;
/**
 * Longest wait, once the database is closed, for cancelled calls to fail and for their "cancelled" answers to be
 * written before the transports close (ms): a call busy outside the database (parsing, embedding) notices its abort
 * at its next check, and an answer written after its transport closed is lost (the client would wait for its own
 * timeout).
 */
export const SHUTDOWN_DRAIN_MS = 1000;
/** Time a finished call's answer gets to reach its transport's stream after the handler returned (ms). */
const ANSWER_FLUSH_MS = 50;

/** Largest JSON-RPC message taken (bytes): a whole text of max_input_bytes to ingest, escaped (×2), plus the envelope. */
export function maxMessageBytes(config: Pick<Config, "max_input_bytes">): number {
  return config.max_input_bytes * 2 + 1024 * 1024;
}

/**
 * The warning of an error the stdio transport reports (the SDK tells it nowhere else), or null for the ones logged
 * at debug level only: a message over `maxBytes` (then the transport closes) names the setting that raises it.
 */
export function stdioErrorMessage(err: Error, maxBytes: number): string | null {
  if (!/exceeded maximum size/i.test(err.message)) return null;
  return (
    `stdio: a JSON-RPC message over ${maxBytes} bytes (twice max_input_bytes, plus 1 MiB) closed the connection; ` +
    `give memory_ingest a path or URL instead of the text, or ${RAISE_INPUT_BYTES}`
  );
}

/** A transport's part in shutdown: `quiesce` stops taking new work at once; `close` ends it after calls are cancelled. */
export interface TransportCloser {
  quiesce?: () => void;
  close: () => Promise<void>;
}

/**
 * What every transport of `serve` shares: the lazily opened services (with the embedding backfill and the outbox
 * worker started once they open), the tracker of calls in flight, and the one shutdown path.
 */
export class ServerRuntime {
  readonly calls = new CallTracker();
  readonly services: LazyServices;
  /** Resolves with the exit status once shutdown has finished. */
  readonly done: Promise<number>;
  private readonly background = new AbortController();
  private readonly closers: TransportCloser[] = [];
  private worker: Promise<void> = Promise.resolve();
  private opened: Services | null = null;
  private stopping: Promise<void> | null = null;
  private resolveDone!: (code: number) => void;

  /** `onStopping` is called once when shutdown begins (main arms a hard exit deadline with it). */
  constructor(
    readonly config: Config,
    private readonly onStopping?: () => void,
  ) {
    this.done = new Promise<number>((r) => (this.resolveDone = r));
    this.services = new LazyServices(config, (s) => {
      this.opened = s;
      import("../core/projections/backfill.ts")
        .then((m) => m.backfillLive(s, this.background.signal))
        .catch((err) => log.warn("embedding backfill stopped", { err }));
      // Feeds Qdrant / Memgraph when configured; with neither it only deletes rows no projection reads (retention).
      this.worker = import("../worker/projections.ts").then((m) => m.startOutboxWorker(s, this.background.signal));
    });
  }

  /** The services when they are open, without opening them (null before the first use and after shutdown). */
  get openServices(): Services | null {
    return this.stopping ? null : this.opened;
  }

  /** Registers a transport to quiesce and close at shutdown. */
  attach(closer: TransportCloser): void {
    this.closers.push(closer);
  }

  /** Stops on SIGTERM and SIGINT. */
  handleSignals(): void {
    process.on("SIGTERM", () => void this.stop("SIGTERM"));
    process.on("SIGINT", () => void this.stop("SIGINT"));
  }

  /**
   * Shuts down once (later calls share the first): transports stop taking work, in-flight calls and the outbox
   * worker's batch get {@link SHUTDOWN_GRACE_MS}, remaining calls are aborted, the databases are closed (what still
   * runs rolls back and answers "cancelled"; their answers get up to {@link SHUTDOWN_DRAIN_MS}), then the transports:
   * ≈ 0.1 s when idle, ≈ 1 s with calls in flight, 2 s at most. Resolves {@link done} with 0.
   */
  stop(why: string): Promise<void> {
    this.stopping ??= this.shutdown(why);
    return this.stopping;
  }

  private async shutdown(why: string): Promise<void> {
    this.calls.stopping = true;
    this.onStopping?.();
    this.background.abort();
    log.info("shutting down", { why, inflight: this.calls.inflight.size });
    const answering = this.calls.inflight.size > 0;
    try {
      for (const c of this.closers) c.quiesce?.();
      await Promise.all([this.calls.settle(SHUTDOWN_GRACE_MS), within(this.worker, SHUTDOWN_GRACE_MS)]);
      this.calls.abortAll(new Error("server shutting down"));
      await this.calls.settle(SHUTDOWN_STEP_MS);
      // A call still running is inside a database statement: closing the database rolls it back and makes it fail,
      // and it answers "cancelled" while its transport is still open.
      await this.services.close(SHUTDOWN_STEP_MS);
      await this.calls.settle(SHUTDOWN_DRAIN_MS);
      if (answering) await new Promise((r) => setTimeout(r, ANSWER_FLUSH_MS));
      await Promise.all(this.closers.map((c) => c.close().catch((err) => log.warn("transport close failed", { err }))));
    } catch (err) {
      log.error("shutdown failed", { err });
    } finally {
      this.resolveDone(0);
    }
  }
}

/**
 * Serves MCP over stdio until stdin closes or a termination signal arrives; resolves with the exit status.
 * In-flight calls get {@link SHUTDOWN_GRACE_MS}, then are aborted, and the database is closed. `onStopping` is
 * called once when shutdown begins (main uses it to arm a hard exit deadline).
 */
export async function serveStdio(config: Config, onStopping?: () => void): Promise<number> {
  const runtime = new ServerRuntime(config, onStopping);
  const server = createMcpServer(runtime.services, runtime.calls, config);
  const transport = new StrictStdioTransport(process.stdin, process.stdout, maxMessageBytes(config));
  runtime.attach({ close: () => server.close() });
  const stop = (why: string) => void runtime.stop(why);
  // The transport closes itself on a message over maxBufferSize or a broken stdout: shut down cleanly then too.
  server.server.onclose = () => stop("transport closed");
  server.server.onerror = (err) => {
    const text = stdioErrorMessage(err, maxMessageBytes(config));
    if (text) log.warn(text);
    else log.debug("stdio transport error", { err });
  };
  process.stdin.on("end", () => stop("stdin closed"));
  process.stdin.on("close", () => stop("stdin closed"));
  runtime.handleSignals();
  await server.connect(transport);
  log.debug("mcp server ready on stdio");
  return runtime.done;
}
