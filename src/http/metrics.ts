/**
 * `GET /metrics`: the Prometheus text exposition (format 0.0.4) of this process — tool calls, latency and ingest
 * counters (src/mcp/metrics.ts), requests /mcp refused, process gauges — and figures read from the database at scrape time: whether the store
 * answered (`pegas_store_up`, 0 also while the database could not be opened at all), and once it is open the outbox
 * backlog and external projection lag. The database part is cached for {@link DB_CACHE_MS} so that a tight scrape
 * loop does not load the database.
 */
import { Counter, Gauge, Registry } from "../platform/prometheus.ts";
import type { Services } from "../core/services.ts";
import { withDeadline } from "../domain/deadline.ts";
import { toPegasError } from "../errors.ts";
import { log } from "../log.ts";
import type { LazyServices } from "../wiring/lazy-services.ts";
import { processRegistry } from "../mcp/metrics.ts";

/** Content type of the Prometheus text exposition format 0.0.4. */
export const METRICS_CONTENT_TYPE: string = processRegistry.contentType;

/** How long figures read from the database are reused (ms). */
export const DB_CACHE_MS = 5_000;

/** How long a scrape waits for the database to open when it is not open yet (ms). */
export const METRICS_OPEN_MS = 2_000;

const startedAtS = Math.round(Date.now() / 1000 - process.uptime());

new Gauge({
  name: "process_resident_memory_bytes",
  help: "Resident memory size in bytes.",
  registers: [processRegistry],
  collect() {
    this.set(process.memoryUsage.rss());
  },
});
new Gauge({
  name: "process_start_time_seconds",
  help: "Start time of the process since unix epoch in seconds.",
  registers: [processRegistry],
  collect() {
    this.set(startedAtS);
  },
});
new Gauge({
  name: "pegas_uptime_seconds",
  help: "Seconds since this process started.",
  registers: [processRegistry],
  collect() {
    this.set(Math.round(process.uptime() * 1000) / 1000);
  },
});

/** Why /mcp refused a request before the MCP server saw it. */
export type McpRefusal = "origin" | "batch" | "rate_limit";

const mcpRefused = new Counter({
  name: "pegas_mcp_refused_total",
  help: "Requests to /mcp refused before the MCP server saw them, by reason: origin (403), batch (400), rate_limit (429).",
  labelNames: ["reason"] as const,
  registers: [processRegistry],
});

/** Counts one request refused by /mcp's Origin rule, batch refusal or tool-call rate limit. */
export function countRefused(reason: McpRefusal): void {
  mcpRefused.inc({ reason });
}

/** Figures read from the database at one instant. */
interface DbFigures {
  up: boolean;
  pending: number;
  dead: number;
  /** Seconds the oldest pending outbox row has waited (0 when none). */
  lagS: number;
  /** External projections fed by the outbox. */
  sinks: string[];
}

const cache = new WeakMap<Services, { at: number; figures: Promise<DbFigures> }>();

async function readFigures(services: Services): Promise<DbFigures> {
  const sinks = services.sinks.map((s) => s.name);
  try {
    const b = await services.outbox.backlog();
    return { up: true, pending: b.pending, dead: b.dead, lagS: b.oldestPendingAgeS ?? 0, sinks };
  } catch (err) {
    log.warn("metrics: the store did not answer", { err: toPegasError(err).message });
    return { up: false, pending: 0, dead: 0, lagS: 0, sinks };
  }
}

/** The database figures, read at most once per `maxAgeMs` per services bundle (concurrent scrapes share a read). */
function dbFigures(services: Services, maxAgeMs: number): Promise<DbFigures> {
  const now = Date.now();
  const hit = cache.get(services);
  if (hit && now - hit.at < maxAgeMs) return hit.figures;
  const figures = readFigures(services);
  cache.set(services, { at: now, figures });
  return figures;
}

/** The database figures as exposition text: a fresh registry per render, so concurrent scrapes never mix values. */
function dbText(f: DbFigures): Promise<string> {
  const registers = [new Registry()];
  const gauge = (name: string, help: string, value: number) => new Gauge({ name, help, registers }).set(value);
  gauge("pegas_store_up", "1 when the canonical store answered the last metrics read, 0 when it failed.", f.up ? 1 : 0);
  if (f.up) {
    gauge(
      "pegas_outbox_pending",
      "Outbox rows not yet applied to the external projections (excluding dead letters).",
      f.pending,
    );
    gauge(
      "pegas_outbox_dead",
      "Outbox rows dead-lettered after their last attempt (`pegas-memory sync --retry-dead` makes them pending again).",
      f.dead,
    );
    const lag = new Gauge({
      name: "pegas_projection_lag_seconds",
      help: "Age in seconds of the oldest outbox row the external projections have not applied yet (0 when in step), per projection.",
      labelNames: ["projection"] as const,
      registers,
    });
    for (const name of f.sinks) lag.set({ projection: name }, f.lagS);
  }
  return registers[0].metrics();
}

const STORE_DOWN: DbFigures = { up: false, pending: 0, dead: 0, lagS: 0, sinks: [] };

/**
 * The exposition text (content type {@link METRICS_CONTENT_TYPE}). `services` is null when the database is not open
 * (it failed to open, is still opening, or the server is stopping): then the process's own metrics and
 * `pegas_store_up 0`. Database figures are reused while younger than `maxAgeMs` (default {@link DB_CACHE_MS}). A
 * failing database read yields `pegas_store_up 0` too, not an error; the promise rejects only on a bug.
 */
export async function renderMetrics(services: Services | null, maxAgeMs = DB_CACHE_MS): Promise<string> {
  const own = await processRegistry.metrics();
  return `${own}\n${await dbText(services ? await dbFigures(services, maxAgeMs) : STORE_DOWN)}`;
}

/**
 * The services a scrape reports on: `open` when they are open, else an attempt to open them through `lazy` (as
 * /readyz does, so that a database that comes back after a failed start is seen without waiting for a tool call),
 * bounded by `waitMs` (default {@link METRICS_OPEN_MS}); null when that fails or takes longer (the opening goes on).
 * Never rejects.
 */
export async function servicesForMetrics(
  lazy: LazyServices,
  open: Services | null,
  waitMs = METRICS_OPEN_MS,
): Promise<Services | null> {
  if (open) return open;
  return withDeadline(lazy.get(), waitMs, () => new Error(`the database did not open within ${waitMs} ms`)).catch(
    (err) => {
      log.debug("metrics: the database is not open", { err: toPegasError(err).message });
      return null;
    },
  );
}
