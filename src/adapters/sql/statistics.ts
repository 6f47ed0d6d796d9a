/**
 * Planner statistics after bulk writes. PGlite never analyzes (no autovacuum) and a PostgreSQL server may not have
 * come round yet, so a planner that kept the sizes of a nearly empty table picks plans that scan everything: code
 * resolution scanned every edge of a repository per chunk (0.5 s against 10 ms), dedup's candidate lookup hashed every
 * embedding (ingest cost per file grew with the store). ANALYZE samples at most 30,000 rows, so its cost is bounded.
 */
import type { Sql } from "postgres";

/**
 * ANALYZEs those of `tables` that changed by more than a fifth of their rows (at least 1000) since their last ANALYZE;
 * resolves to the tables analyzed. `tables` are trusted names of ours (they are spliced into the statement).
 * @throws the driver's error (callers wrap it).
 */
export async function analyzeStaleTables(sql: Sql<any>, tables: readonly string[]): Promise<string[]> {
  const stale = await sql`
    SELECT relname FROM pg_stat_user_tables
     WHERE relname = ANY(${[...tables]}::text[]) AND n_mod_since_analyze > greatest(1000, n_live_tup / 5)`;
  const done: string[] = [];
  for (const r of stale) {
    const table = String(r.relname);
    if (!tables.includes(table)) continue;
    await sql.unsafe(`ANALYZE ${table}`);
    done.push(table);
  }
  return done;
}
