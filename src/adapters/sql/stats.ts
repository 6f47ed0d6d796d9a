/** memory_stats counters, read in one round trip per group. */
import type { Sql } from "postgres";
import type { StoreStats } from "../../ports/store/maintenance.ts";

function tally(rows: readonly Record<string, unknown>[], key: string): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [String(r[key]), Number(r.n)]));
}

/** Reads every counter of {@link StoreStats}. */
export async function readStats(sql: Sql<any>): Promise<StoreStats> {
  const [byType, byStatus, byKind, embeddings, [c], [o], [v]] = await Promise.all([
    sql`SELECT type, count(*) AS n FROM pm_atom GROUP BY type`,
    sql`SELECT status, count(*) AS n FROM pm_atom GROUP BY status`,
    sql`SELECT kind, count(*) AS n FROM pm_document WHERE status = 'active' GROUP BY kind`,
    sql`SELECT model, count(*) AS n FROM pm_atom_embedding GROUP BY model`,
    sql`SELECT (SELECT count(*) FROM pm_chunk) AS chunks,
               (SELECT count(*) FROM pm_citation) AS citations,
               (SELECT count(*) FROM pm_atom_link) + (SELECT count(*) FROM pm_atom_symbol_link) AS links,
               (SELECT count(*) FROM pm_code_symbol) AS symbols,
               (SELECT count(*) FROM pm_code_dependency) AS dependencies,
               (SELECT count(*) FROM pm_research_gap WHERE status = 'open') AS open_gaps,
               (SELECT count(*) FROM pm_episodic_trace) AS traces,
               (SELECT count(*) FROM pm_atom_merge WHERE undone_at IS NULL) AS merges,
               (SELECT count(*) FROM pm_distill_quarantine WHERE resolved_at IS NULL) AS quarantined`,
    sql`SELECT count(*) FILTER (WHERE processed_at IS NULL AND dead_at IS NULL) AS pending,
               count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead,
               extract(epoch FROM now() - min(created_at) FILTER (WHERE processed_at IS NULL AND dead_at IS NULL)) AS age
          FROM pm_outbox`,
    sql`SELECT COALESCE(max(version), 0) AS version FROM pm_schema_migrations`,
  ]);
  const atomsByType = tally(byType, "type");
  const docsByKind = tally(byKind, "kind");
  return {
    atoms: {
      total: Object.values(atomsByType).reduce((a, b) => a + b, 0),
      by_type: atomsByType,
      by_status: tally(byStatus, "status"),
    },
    documents: { total: Object.values(docsByKind).reduce((a, b) => a + b, 0), by_kind: docsByKind },
    chunks: Number(c.chunks),
    citations: Number(c.citations),
    links: Number(c.links),
    symbols: Number(c.symbols),
    dependencies: Number(c.dependencies),
    open_gaps: Number(c.open_gaps),
    traces: Number(c.traces),
    merges: Number(c.merges),
    quarantined_chunks: Number(c.quarantined),
    embeddings: tally(embeddings, "model"),
    outbox: {
      pending: Number(o.pending),
      dead: Number(o.dead),
      oldest_pending_age_s: o.age === null ? null : Math.round(Number(o.age)),
    },
    schema_version: Number(v.version),
  };
}
