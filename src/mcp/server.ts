/**
 * The MCP server factory and the stdio runner. stdout carries JSON-RPC only (logs go to stderr); the database
 * opens on the first tool call, so `initialize` answers at once; the process ends when stdin closes or on
 * SIGTERM/SIGINT: in-flight calls get 0.65 s to finish, then are cancelled and rolled back, all within 1 s.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config } from "../config.ts";
import { log } from "../log.ts";
import { VERSION } from "../version.ts";
import { backfillEmbeddings } from "../core/backfill.ts";
import { LazyServices } from "../wiring.ts";
import { withSamplingDistiller } from "../adapters/mcp-sampling/services.ts";
import { CallTracker } from "./calls.ts";
import { registerTools } from "./registry.ts";

const INSTRUCTIONS =
  "pegas-memory is your long-term memory. Before answering from memory, call memory_get_context {question}: cited " +
  "context packed to a token budget. memory_search finds cited knowledge atoms (any language; Russian and English " +
  "are stemmed); memory_get reads one atom whole; memory_ingest stores a text, URL or file as typed atoms with exact " +
  "provenance; memory_store stores one typed atom you learned (duplicates merge, contradictions are linked); " +
  "memory_link asserts a relation, memory_forget retracts an atom or document (undoable); memory_verify checks atoms " +
  "against each other and across independent sources; memory_infer applies logical_rule atoms to the graph, " +
  "memory_query_graph reads it; memory_add_gap / memory_list_gaps track open questions (pegas-memory research fills " +
  "them); memory_trace_add / memory_trace_search keep your own plans and observations apart from knowledge; " +
  "memory_store_code stores a code repository's symbols and dependencies, memory_search_code finds symbols with " +
  "path:line, memory_code_graph shows what a symbol or file uses and is used by; memory_stats shows what is stored. " +
  "Cite the citations you get back.";

/** Creates an McpServer with every tool registered over lazily opened services. */
export function createMcpServer(services: LazyServices, calls: CallTracker): McpServer {
  const server = new McpServer(
    { name: "pegas-memory", title: "pegas-memory", version: VERSION },
    { capabilities: { tools: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  // The distiller may ask the client's own model (config distiller = "mcp-sampling"); only this server can reach it.
  registerTools(server, withSamplingDistiller(server, () => services.get()), calls);
  return server;
}

/** Grace period for in-flight calls at shutdown (ms): they may finish; then they are cancelled and rolled back. */
export const SHUTDOWN_GRACE_MS = 650;
/** Time the cancelled calls get to observe their abort, and the database connections to end, each (ms). */
const SHUTDOWN_STEP_MS = 100;

/**
 * Serves MCP over stdio until stdin closes or a termination signal arrives; resolves with the exit status.
 * In-flight calls get {@link SHUTDOWN_GRACE_MS}, then are aborted, and the database is closed. `onStopping` is
 * called once when shutdown begins (main uses it to arm a hard exit deadline).
 */
export async function serveStdio(config: Config, onStopping?: () => void): Promise<number> {
  const background = new AbortController();
  const services = new LazyServices(config, (s) => {
    backfillEmbeddings(s, background.signal).catch((err) => log.warn("embedding backfill stopped", { err }));
    // Feeds Qdrant / Memgraph when configured (and acknowledges rows when neither is, so that the backlog stays 0).
    void import("../core/outbox-worker.ts").then((m) => m.startOutboxWorker(s, background.signal));
  });
  const calls = new CallTracker();
  const server = createMcpServer(services, calls);
  // One JSON-RPC line may carry a whole text to ingest: allow max_input_bytes, escaped (×2), plus the envelope.
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: config.max_input_bytes * 2 + 1024 * 1024 });
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    calls.stopping = true;
    onStopping?.();
    background.abort();
    log.info("shutting down", { why, inflight: calls.inflight.size });
    try {
      await calls.settle(SHUTDOWN_GRACE_MS);
      calls.abortAll(new Error("server shutting down"));
      await calls.settle(SHUTDOWN_STEP_MS);
      await services.close(SHUTDOWN_STEP_MS);
      await server.close().catch(() => {});
    } catch (err) {
      log.error("shutdown failed", { err });
    } finally {
      resolveDone(0);
    }
  };
  // The transport closes itself on a message over maxBufferSize or a broken stdout: shut down cleanly then too.
  server.server.onclose = () => void stop("transport closed");
  process.stdin.on("end", () => void stop("stdin closed"));
  process.stdin.on("close", () => void stop("stdin closed"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  await server.connect(transport);
  log.debug("mcp server ready on stdio");
  return done;
}
