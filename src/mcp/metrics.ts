/**
 * The process-wide Prometheus registry (prom-client) and the metrics recorded as tool calls finish: calls by tool and
 * outcome, call latency, and what the ingest tools stored. The tool registry (src/mcp/registry.ts) records every
 * call here, so the stdio and HTTP transports count alike; `GET /metrics` renders it (src/http/metrics.ts).
 */
import { Counter, Histogram, Registry } from "../platform/prometheus.ts";

/** How a tool call ended: a result, an `isError` result, or cancelled (by the client, or by shutdown). */
export type ToolOutcome = "ok" | "error" | "cancelled";

/** The registry of this process's own metrics (tool calls, ingest, process gauges); never holds database figures. */
export const processRegistry = new Registry();

const toolCalls = new Counter({
  name: "pegas_tool_calls_total",
  help: "MCP tool calls finished, by tool and outcome (ok, error = an isError result, cancelled).",
  labelNames: ["tool", "outcome"] as const,
  registers: [processRegistry],
});

/** Upper bounds (s): from a cached search (ms) to a directory ingest or memory_infer (minutes). */
const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

const toolDuration = new Histogram({
  name: "pegas_tool_call_duration_seconds",
  help: "Wall time of MCP tool calls in seconds, by tool (every outcome).",
  labelNames: ["tool"] as const,
  buckets: LATENCY_BUCKETS_S,
  registers: [processRegistry],
});

const documentsIngested = new Counter({
  name: "pegas_ingest_documents_total",
  help: "Documents processed by memory_ingest (a new version, unchanged content, or nothing extractable).",
  registers: [processRegistry],
});

const atomsIngested = new Counter({
  name: "pegas_ingest_atoms_total",
  help: "Atoms from memory_ingest, memory_store and memory_store_code, by tool and result: created, existing (same content), near_duplicate (merged into a stored atom).",
  labelNames: ["tool", "result"] as const,
  registers: [processRegistry],
});

type AtomResult = "created" | "existing" | "near_duplicate";
type Out = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/** Atoms stored by a successful call of an ingest tool, read from its structured result (other tools: none). */
function atomCounts(tool: string, out: Out): Partial<Record<AtomResult, number>> | null {
  switch (tool) {
    case "memory_ingest":
      return {
        created: num(out.atoms_created),
        existing: num(out.atoms_existing),
        near_duplicate: num(out.atoms_near_duplicate),
      };
    case "memory_store": {
      if (out.created === true) return { created: 1 };
      return out.near_duplicate_of ? { near_duplicate: 1 } : { existing: 1 };
    }
    case "memory_store_code": {
      const atoms = (out.atoms ?? {}) as Out;
      return { created: num(atoms.created), existing: num(atoms.existing) };
    }
    default:
      return null;
  }
}

/**
 * Records one finished tool call: its outcome, its wall time in seconds, and, for a successful ingest tool, the
 * documents and atoms its structured result `out` reports. Never throws (a metric must not fail a call).
 */
export function recordToolCall(tool: string, outcome: ToolOutcome, seconds: number, out?: Out): void {
  try {
    toolCalls.inc({ tool, outcome });
    toolDuration.observe({ tool }, Math.max(0, seconds));
    if (outcome !== "ok" || !out) return;
    if (tool === "memory_ingest") documentsIngested.inc(num(out.documents_total));
    const atoms = atomCounts(tool, out);
    if (!atoms) return;
    for (const [result, n] of Object.entries(atoms)) {
      atomsIngested.inc({ tool, result }, n ?? 0);
    }
  } catch {
    // prom-client throws only on invalid label sets, which the fixed names above cannot produce.
  }
}
