/**
 * The resolution pass after a walk: unresolved dependency targets of the changed files, and still-unresolved ones
 * elsewhere whose last identifier names a symbol of those files (a file they call may just have been stored), are
 * resolved by the rules of code-resolve-rules.ts, a chunk of files at a time: a few lookups per chunk, then one
 * transaction that sets the targets and queues their outbox rows.
 */
import type { Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import type { ResolveOutcome } from "../../../ports/store/code-store.ts";
import { ModuleIndex } from "./module-index.ts";
import { decide, planSteps, sourceSteps, TYPE_KINDS } from "./resolve-rules.ts";
import { loadChunk, lookupFor } from "./resolve-chunk.ts";
import { lockRepo } from "./write.ts";
import { analyzeStaleTables } from "../statistics.ts";

/** Runs `fn` on the database (retried when an embedded host changed), driver errors mapped; `what` names it. */
export type SqlRunner = <T>(what: string, fn: (sql: Sql<any>) => Promise<T>) => Promise<T>;

/** Files per chunk. */
const CHUNK = 100;

/** The tables the pass reads, whose statistics it refreshes when stale. */
const CODE_TABLES = ["pm_code_file", "pm_code_symbol", "pm_code_dependency"];

/** Fresh planner statistics for the code tables a store just wrote in bulk (statistics.ts). */
async function refreshStatistics(run: SqlRunner): Promise<void> {
  await run("refresh code table statistics", (sql) => analyzeStaleTables(sql, CODE_TABLES));
}

/**
 * The files whose unresolved edges this pass examines: the changed ones and every file still marked
 * `resolve_pending` (written by a run that stopped before its pass finished), then those naming their symbols.
 */
async function filesToExamine(run: SqlRunner, repo: string, changed: string[]): Promise<string[]> {
  const pending = await run(
    "find files awaiting resolution",
    (sql) => sql`
    SELECT path FROM pm_code_file WHERE repo = ${repo} AND resolve_pending`,
  );
  const written = [...new Set([...changed, ...pending.map((r) => String(r.path))])];
  // Edges with a path are those of parsed files (commitFiles writes no other, and clears a file's when it is
  // written again): when every parsed file was written (a first store), no other file can be added, and the search
  // below (a semi-join over every unresolved edge of the repository) is skipped.
  const [rest] = await run(
    "count files not written",
    (sql) => sql`
    SELECT count(*)::int AS n FROM pm_code_file WHERE repo = ${repo} AND status = 'parsed' AND NOT (path = ANY(${written}::text[]))`,
  );
  if (Number(rest.n) === 0) return written.sort();
  const others = await run(
    "find dependencies to resolve",
    (sql) => sql`
    SELECT DISTINCT d.path FROM pm_code_dependency d
     WHERE d.repo = ${repo} AND d.dst_symbol_id IS NULL AND d.path IS NOT NULL
       AND d.dst_leaf IN (SELECT s.name FROM pm_code_symbol s WHERE s.repo = ${repo} AND s.path = ANY(${written}::text[]))`,
  );
  // Edges whose source is a type named but not defined in their file (src_module; code-write.ts), not found yet.
  const sources = await run(
    "find dependency sources to resolve",
    (sql) => sql`
    SELECT DISTINCT d.path FROM pm_code_dependency d JOIN pm_code_symbol m ON m.id = d.src_symbol_id AND m.path = d.path
     WHERE d.repo = ${repo} AND d.src_module IS NOT NULL AND d.path IS NOT NULL AND m.metadata @> '{"file": true}'
       AND regexp_replace(d.src_module, '^.*(::|[.])', '') IN (SELECT s.name FROM pm_code_symbol s WHERE s.repo = ${repo} AND s.path = ANY(${written}::text[]))`,
  );
  const set = new Set(written);
  for (const r of [...others, ...sources]) set.add(String(r.path));
  return [...set].sort();
}

/** Resolves one chunk of files; returns [examined, resolved]. */
async function resolveChunk(
  run: SqlRunner,
  repo: string,
  paths: string[],
  modules: ModuleIndex,
): Promise<[number, number]> {
  const updates = await run("resolve dependency targets", async (sql) => {
    const chunk = await loadChunk(sql, repo, paths);
    const { edges } = chunk;
    const steps = edges.map((e) => (e.resolved ? [] : planSteps(e, chunk.imports.get(e.path) ?? [], modules)));
    const srcSteps = edges.map((e) => sourceSteps(e, chunk.imports.get(e.path) ?? [], modules));
    const lookup = await lookupFor(sql, repo, chunk, [...steps, ...srcSteps], modules);
    const out: Array<{ id: number; symbolId: number; confidence: number }> = [];
    const moved: Array<{ id: number; symbolId: number }> = [];
    edges.forEach((e, i) => {
      const d = decide(steps[i], lookup);
      if (d) out.push({ id: e.id, ...d });
      const src = decide(srcSteps[i], lookup, TYPE_KINDS);
      if (src) moved.push({ id: e.id, symbolId: src.symbolId });
    });
    return { examined: edges.filter((e) => !e.resolved).length, out, moved };
  });
  const done = await run(
    "store resolved dependency targets",
    (sql) =>
      sql.begin(async (tx) => {
        await lockRepo(tx, repo);
        // Examined now: a later run need not come back to these files (unless they are written again).
        await tx`UPDATE pm_code_file SET resolve_pending = false WHERE repo = ${repo} AND path = ANY(${paths}::text[]) AND resolve_pending`;
        if (updates.moved.length) {
          // The source type found: the edge leaves its file's module symbol (src_module keeps the name as written).
          await tx`
          WITH upd AS (
            UPDATE pm_code_dependency d SET src_symbol_id = x.s
              FROM unnest(${updates.moved.map((u) => u.id)}::bigint[], ${updates.moved.map((u) => u.symbolId)}::bigint[]) AS x(i, s)
             WHERE d.id = x.i AND EXISTS (SELECT 1 FROM pm_code_symbol t WHERE t.id = x.s)
            RETURNING d.id)
          INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT 'code_dependency', id::text, 'upsert' FROM upd`;
        }
        if (!updates.out.length) return 0;
        // The updated edges' outbox rows are queued inside the statement (their ids never travel to the client).
        const [r] = await tx`
        WITH upd AS (
          UPDATE pm_code_dependency d SET dst_symbol_id = x.s, confidence = x.c
            FROM unnest(${updates.out.map((u) => u.id)}::bigint[], ${updates.out.map((u) => u.symbolId)}::bigint[],
                        ${updates.out.map((u) => u.confidence)}::real[]) AS x(i, s, c)
           WHERE d.id = x.i AND d.dst_symbol_id IS NULL AND EXISTS (SELECT 1 FROM pm_code_symbol t WHERE t.id = x.s)
          RETURNING d.id),
        queued AS (INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT 'code_dependency', id::text, 'upsert' FROM upd)
        SELECT count(*)::int AS n FROM upd`;
        return Number(r.n);
      }) as Promise<number>,
  );
  return [updates.examined, done];
}

/** The pass (see CodeStore.resolveDependencies). @throws PegasError CANCELLED, STORE_UNAVAILABLE */
export async function resolvePass(
  run: SqlRunner,
  repo: string,
  changed: string[],
  onProgress?: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<ResolveOutcome> {
  await refreshStatistics(run);
  const paths = await filesToExamine(run, repo, changed);
  let examined = 0;
  let resolved = 0;
  if (paths.length) {
    const moduleRows = await run(
      "read module symbols",
      (sql) => sql`
      SELECT id, path, qualified_name FROM pm_code_symbol WHERE repo = ${repo} AND kind = 'module' AND metadata @> '{"file": true}'`,
    );
    const modules = new ModuleIndex(
      moduleRows.map((r) => ({ id: Number(r.id), path: String(r.path), module: String(r.qualified_name) })),
    );
    for (let i = 0; i < paths.length; i += CHUNK) {
      if (signal?.aborted)
        throw new PegasError(
          "CANCELLED",
          `resolving dependencies cancelled after ${i} of ${paths.length} files; what was resolved stays`,
        );
      const [e, r] = await resolveChunk(run, repo, paths.slice(i, i + CHUNK), modules);
      examined += e;
      resolved += r;
      onProgress?.(Math.min(i + CHUNK, paths.length), paths.length);
    }
  }
  const [t] = await run(
    "count dependencies",
    (sql) => sql`
    SELECT count(*) FILTER (WHERE dst_symbol_id IS NULL) AS unresolved, count(*) FILTER (WHERE dst_symbol_id IS NOT NULL) AS resolved
      FROM pm_code_dependency WHERE repo = ${repo}`,
  );
  return { examined, resolved, resolvedTotal: Number(t.resolved), unresolved: Number(t.unresolved) };
}
