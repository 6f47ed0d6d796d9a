/**
 * projections: at 100k atoms (SciFact sentences, bench/lib/synthetic-atoms.ts) on PostgreSQL (PGlite when no server
 * answers): the outbox worker's throughput (claim → resolve current state → apply → ack, events/s) into an in-memory
 * sink, which measures the outbox machinery itself; the embedded projections' catch-up by high-water mark (rows/s,
 * what every process does at start and before each answer); and `rebuild all` (embedded indexes plus a full copy of
 * every entity into the sink). Search latency at 100k through the embedded index is the search_latency benchmark.
 */
import { setLogLevel } from "../../src/log.ts";
import { rebuildProjections } from "../../src/worker/projections.ts";
import type { Services } from "../../src/core/services.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { readerOf } from "../../src/ports/projections/outbox.ts";
import { type BenchServices, pgliteServices, postgresServices } from "../lib/env.ts";
import { MemorySink } from "../lib/memory-sink.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";
import { buildAtomTexts, loadAtoms } from "../lib/synthetic-atoms.ts";

const ATOMS = 100_000;

async function open(): Promise<{ s: BenchServices; backend: string; note?: string }> {
  const pg = await postgresServices();
  if (typeof pg !== "string") return { s: pg, backend: "postgres" };
  return { s: await pgliteServices(), backend: "pglite", note: pg };
}

async function measure(services: Services) {
  const sink = new MemorySink();
  const withSink: Services = { ...services, sinks: [sink] };
  const backlog = await services.outbox.backlog();
  const worker = new OutboxWorker({
    outbox: services.outbox,
    sinks: [sink],
    model: services.embedder.model,
    batchSize: services.config.outbox_batch_size,
  });
  let t0 = performance.now();
  const drained = await worker.runOnce();
  const drainMs = performance.now() - t0;
  t0 = performance.now();
  const caughtUp = await services.projection.rebuild();
  const catchUpMs = performance.now() - t0;
  t0 = performance.now();
  const rebuilt = await rebuildProjections(withSink, "all");
  const rebuildMs = performance.now() - t0;
  return {
    outbox: {
      events: drained.applied,
      batches: drained.batches,
      pending_before: backlog.pending,
      ms: round(drainMs),
      events_per_s: round(drained.applied / (drainMs / 1000)),
    },
    embedded_catch_up: { rows: caughtUp, ms: round(catchUpMs), rows_per_s: round(caughtUp / (catchUpMs / 1000)) },
    rebuild_all: { ms: round(rebuildMs), projections: rebuilt.projections, embedded_atoms_first: rebuilt.embedded },
  };
}

/** The projections benchmark (see module doc). */
export const projectionsBench: Benchmark = {
  name: "projections",
  description: "outbox worker events/s, embedded catch-up rows/s and rebuild all at 100k atoms",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const { texts, kinds } = buildAtomTexts(ATOMS);
    const { s, backend, note } = await open();
    try {
      // The in-memory sink reads the outbox as Memgraph would (with no reader registered nothing is queued).
      await s.services.outbox.registerReaders([readerOf(new MemorySink())]);
      const load = await loadAtoms(s.services, texts, 0, ATOMS);
      const r = await measure(s.services);
      const summary: SummaryRow[] = [
        {
          metric: `outbox worker → in-memory sink, 100k atoms (${backend})`,
          value: r.outbox.events_per_s,
          unit: "events/s",
        },
        {
          metric: `embedded catch-up by high-water mark, 100k atoms (${backend})`,
          value: r.embedded_catch_up.rows_per_s,
          unit: "rows/s",
        },
        {
          metric: `rebuild all, 100k atoms (${backend}; embedded + full copy to a sink)`,
          value: round(r.rebuild_all.ms / 1000),
          unit: "s",
        },
      ];
      return {
        params: {
          atoms: ATOMS,
          backend,
          batch_size: s.services.config.outbox_batch_size,
          atoms_source: kinds,
          embedder: s.services.embedder.model,
        },
        results: { load_ms: round(load.ms), ...r },
        summary,
        notes: note ? [`PostgreSQL unavailable, ran on PGlite: ${note}`] : undefined,
      };
    } finally {
      await s.dispose();
    }
  },
};
