/** memory_stats tool. */
import { z } from "zod";
import { stats } from "../../../core/projections/stats.ts";
import type { ToolDef } from "../../tool.ts";
import { renderStats } from "./render-writes.ts";

const counts = z.record(z.string(), z.number());

/** Counters of the memory and the state of the projections. */
export const memoryStats: ToolDef = {
  name: "memory_stats",
  title: "Statistics",
  description: "Counts of what is stored and each index's state.",
  details:
    "Counts: atoms by type and status, documents by kind, chunks, citations, links, code symbols, open research gaps, " +
    "traces, embeddings per model, the outbox backlog (pending rows, dead letters, age of the oldest pending row), " +
    "and every projection: this process's embedded indexes (atoms not yet indexed) and, when configured, Qdrant and " +
    "Memgraph with their counts beside the canonical counts (drift) and their lag in seconds.",
  inputSchema: {},
  outputSchema: {
    atoms: z.object({ total: z.number(), by_type: counts, by_status: counts }),
    documents: z.object({ total: z.number(), by_kind: counts }),
    chunks: z.number(),
    citations: z.number(),
    links: z.number(),
    symbols: z.number(),
    dependencies: z.number(),
    open_gaps: z.number(),
    suggested_gaps: z
      .number()
      .describe("queries that missed at least twice and no gap asks yet (memory_list_gaps lists them)"),
    search_misses: z
      .number()
      .describe("searches logged as misses: the best hit held less than half of the query's terms"),
    urls_due: z
      .number()
      .describe("fetched URL documents due for a re-check (last checked over 7 days ago; memory_refresh checks them)"),
    traces: z.number(),
    merges: z.number().describe("near-duplicate merges in force (memory_unmerge undoes one)"),
    quarantined_chunks: z.number().describe("chunks the distiller failed on, awaiting `pegas-memory distill --retry`"),
    embeddings: counts,
    outbox: z.object({ pending: z.number(), dead: z.number(), oldest_pending_age_s: z.number().nullable() }),
    schema_version: z.number(),
    store: z.object({ backend: z.string(), location: z.string() }),
    embedder: z.object({ model: z.string(), dim: z.number(), kind: z.string() }),
    projections: z.object({
      lexical: z.object({ atoms_indexed: z.number(), lag_atoms: z.number(), mark: z.string(), lag_s: z.number() }),
      vector: z.object({ backend: z.string(), model: z.string(), vectors: z.number(), lag_vectors: z.number() }),
      external: z.array(
        z.object({
          name: z.string(),
          held: counts.nullable(),
          canonical: counts,
          drift: counts.nullable().describe("canonical − held per entity; 0 everywhere when in step"),
          lag_s: z.number().describe("age of the oldest outbox row not yet applied (s)"),
          error: z.string().optional(),
        }),
      ),
    }),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services) => ({ ...(await stats(services)) }),
  render: renderStats,
};
