/**
 * The resolution pass after a walk: unresolved dependency targets of the changed files, and still-unresolved ones
 * elsewhere whose last identifier names a symbol of those files (a file they call may just have been stored), are
 * resolved by the rules of code-resolve-rules.ts, a chunk of files at a time: a few lookups per chunk, then one
 * transaction that sets the targets and queues their outbox rows.
 */
import type { Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import type { ResolveOutcome } from "../../../ports/store/code-store.ts";
import type { ImportBinding } from "../../../ports/models/symbol-extractor.ts";
import { ModuleIndex } from "./module-index.ts";
import {
  decide,
  planSteps,
  type ResolveEdge,
  type ResolveLookup,
  type ResolveStep,
  type ResolveSymbol,
  sourceSteps,
  stepNeeds,
  TYPE_KINDS,
} from "./resolve-rules.ts";
import { lockRepo } from "./write.ts";

/** Runs `fn` on the database (retried when an embedded host changed), driver errors mapped; `what` names it. */
export type SqlRunner = <T>(what: string, fn: (sql: Sql<any>) => Promise<T>) => Promise<T>;

/** Files per chunk. */
const CHUNK = 100;

function toSymbol(r: Record<string, unknown>): ResolveSymbol {
  return {
    id: Number(r.id),
    path: String(r.path),
    name: String(r.name),
    qualifiedName: String(r.qualified_name),
    kind: String(r.kind),
    lineStart: Number(r.line_start),
  };
}

function group<K>(rows: ResolveSymbol[], key: (s: ResolveSymbol) => K): Map<K, ResolveSymbol[]> {
  const m = new Map<K, ResolveSymbol[]>();
  for (const s of rows) {
    const k = key(s);
    const list = m.get(k);
    if (list) list.push(s);
    else m.set(k, [s]);
  }
  return m;
}

/** The tables the pass reads, whose statistics it refreshes when stale. */
const CODE_TABLES = ["pm_code_file", "pm_code_symbol", "pm_code_dependency"];

/**
 * ANALYZEs the code tables that changed by more than a fifth (at least 1000 rows) since their last ANALYZE. A store
 * just wrote them in bulk, and without statistics (PGlite never analyzes; autovacuum may be off, or not yet come)
 * the planner takes the partial index of unresolved edges for a few rows and scans every edge of the repository for
 * each chunk: 0.5 s per chunk of 100 files on the standard library's 221k edges, against 10 ms with statistics.
 * ANALYZE samples at most 30 000 rows, so its cost stays bounded (≈ 0.2–0.7 s per table).
 */
async function refreshStatistics(run: SqlRunner): Promise<void> {
  const stale = await run(
    "check code table statistics",
    (sql) => sql`
    SELECT relname FROM pg_stat_user_tables
     WHERE relname = ANY(${CODE_TABLES}::text[]) AND n_mod_since_analyze > greatest(1000, n_live_tup / 5)`,
  );
  for (const r of stale) {
    const table = String(r.relname);
    if (CODE_TABLES.includes(table)) await run(`analyze ${table}`, (sql) => sql.unsafe(`ANALYZE ${table}`));
  }
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

/** A symbol of a chunk's file, with whether it is the file's module symbol. */
type ChunkSymbol = ResolveSymbol & { file: boolean };

/** What a chunk's resolution reads: its unresolved edges, its files' import bindings and every symbol of its files. */
interface Chunk {
  edges: ResolveEdge[];
  imports: Map<string, ImportBinding[]>;
  /** The symbols of the chunk's files, by `path \0 qualified name`. */
  byQn: Map<string, ChunkSymbol[]>;
  /** The chunk's nested functions (`outer.inner`), by `path \0 name`. */
  nested: Map<string, ChunkSymbol[]>;
}

/**
 * Reads a chunk in three index scans on (repo, path) — edges, files, symbols — and joins them here: the edges'
 * sources are symbols of the same file, and the symbols also answer the rules' lookups within the chunk's files.
 * (A join in SQL hashed every symbol of the repository once per chunk.) Sources in another file (moved there by an
 * earlier pass) are fetched by id; an edge without a source symbol or a file row is skipped. Edges with a resolved
 * target come only while their source is a type still to be found (`src_module` on the file's module symbol).
 */
async function loadChunk(sql: Sql<any>, repo: string, paths: string[]): Promise<Chunk> {
  const edgeRows = await sql`
    SELECT id, kind, dst_name, receiver, path, src_symbol_id, src_module, dst_symbol_id FROM pm_code_dependency
     WHERE repo = ${repo} AND path = ANY(${paths}::text[]) AND (dst_symbol_id IS NULL OR src_module IS NOT NULL)`;
  const files =
    await sql`SELECT path, language, imports FROM pm_code_file WHERE repo = ${repo} AND path = ANY(${paths}::text[])`;
  const symbolRows = await sql`
    SELECT id, path, name, qualified_name, kind, line_start, (metadata @> '{"file": true}') AS is_file FROM pm_code_symbol
     WHERE repo = ${repo} AND path = ANY(${paths}::text[])`;
  const symbols: ChunkSymbol[] = symbolRows.map((r) => ({ ...toSymbol(r), file: r.is_file === true }));
  const byId = new Map<number, ChunkSymbol>(symbols.map((x) => [x.id, x]));
  const elsewhere = [...new Set(edgeRows.map((r) => Number(r.src_symbol_id)).filter((id) => id > 0 && !byId.has(id)))];
  if (elsewhere.length) {
    const rows = await sql`
      SELECT id, path, name, qualified_name, kind, line_start, (metadata @> '{"file": true}') AS is_file FROM pm_code_symbol
       WHERE id = ANY(${elsewhere}::bigint[])`;
    for (const r of rows) byId.set(Number(r.id), { ...toSymbol(r), file: r.is_file === true });
  }
  const language = new Map(files.map((f) => [String(f.path), String(f.language)]));
  const edges: ResolveEdge[] = [];
  for (const r of edgeRows) {
    const src = r.src_symbol_id === null ? undefined : byId.get(Number(r.src_symbol_id));
    const lang = language.get(String(r.path));
    if (!src || lang === undefined) continue;
    const srcName = r.src_module !== null && src.file && src.path === String(r.path) ? String(r.src_module) : null;
    const resolved = r.dst_symbol_id !== null;
    if (resolved && srcName === null) continue;
    edges.push({
      id: Number(r.id),
      kind: String(r.kind),
      target: String(r.dst_name),
      receiver: (r.receiver as string | null) ?? null,
      path: String(r.path),
      language: lang,
      srcQualifiedName: src.file ? null : src.qualifiedName,
      srcName,
      resolved,
    });
  }
  return {
    edges,
    imports: new Map(
      files.map((f) => [String(f.path), (Array.isArray(f.imports) ? f.imports : []) as ImportBinding[]]),
    ),
    byQn: group(symbols, (x) => `${x.path}\u0000${x.qualifiedName}`) as Map<string, ChunkSymbol[]>,
    nested: group(
      symbols.filter((x) => x.kind === "function" && x.name !== x.qualifiedName),
      (x) => `${x.path}\u0000${x.name}`,
    ) as Map<string, ChunkSymbol[]>,
  };
}

/** Fetches what the chunk's steps ask for beyond its own files and answers them. */
async function lookupFor(
  sql: Sql<any>,
  repo: string,
  chunk: Chunk,
  steps: ResolveStep[][],
  modules: ModuleIndex,
): Promise<ResolveLookup> {
  const qnByPath = new Map<string, Set<string>>();
  const qnByDir = new Map<string, Set<string>>();
  for (const s of steps) stepNeeds(s, qnByPath, qnByDir);
  const inChunk = new Set(chunk.imports.keys());
  const flat = (m: Map<string, Set<string>>) => [...m].flatMap(([k, qs]) => [...qs].map((q) => [k, q] as const));
  const pq = flat(qnByPath).filter(([p]) => !inChunk.has(p));
  const dq = flat(qnByDir);
  const byQnRows = pq.length
    ? await sql`
    SELECT s.id, s.path, s.name, s.qualified_name, s.kind, s.line_start FROM pm_code_symbol s
      JOIN unnest(${pq.map((x) => x[0])}::text[], ${pq.map((x) => x[1])}::text[]) AS x(p, q)
        ON s.repo = ${repo} AND s.path = x.p AND s.qualified_name = x.q`
    : [];
  const dirRows = dq.length
    ? await sql`
    SELECT s.id, s.path, s.name, s.qualified_name, s.kind, s.line_start, x.d FROM pm_code_symbol s
      JOIN unnest(${dq.map((x) => x[0])}::text[], ${dq.map((x) => x[1])}::text[]) AS x(d, q)
        ON s.repo = ${repo} AND s.name = x.q AND s.qualified_name = x.q AND (CASE WHEN strpos(s.path, '/') > 0 THEN regexp_replace(s.path, '/[^/]*$', '') ELSE '' END) = x.d`
    : [];
  const byQn = group(byQnRows.map(toSymbol), (s) => `${s.path}\u0000${s.qualifiedName}`);
  const inDir = group(
    dirRows.map((r) => ({ ...toSymbol(r), dir: String(r.d) })),
    (s) => `${(s as ResolveSymbol & { dir: string }).dir}\u0000${s.qualifiedName}`,
  );
  return {
    moduleSymbol: (p) => modules.moduleSymbol(p),
    byQn: (p, q) => (inChunk.has(p) ? chunk.byQn : byQn).get(`${p}\u0000${q}`) ?? [],
    byName: (p, n) => chunk.nested.get(`${p}\u0000${n}`) ?? [],
    inDir: (d, q) => inDir.get(`${d}\u0000${q}`) ?? [],
  };
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
