/**
 * What the resolution pass (resolve.ts) reads for one chunk of files: their symbols and unresolved dependencies,
 * and the lookups its rules need (resolve-rules.ts).
 */
import type { Sql } from "postgres";
import type { ImportBinding } from "../../../ports/models/symbol-extractor.ts";
import type { ModuleIndex } from "./module-index.ts";
import {
  type ResolveEdge,
  type ResolveLookup,
  type ResolveStep,
  type ResolveSymbol,
  stepNeeds,
} from "./resolve-rules.ts";

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

/** A symbol of a chunk's file, with whether it is the file's module symbol. */
export type ChunkSymbol = ResolveSymbol & { file: boolean };

/** What a chunk's resolution reads: its unresolved edges, its files' import bindings and every symbol of its files. */
export interface Chunk {
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
export async function loadChunk(sql: Sql<any>, repo: string, paths: string[]): Promise<Chunk> {
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
export async function lookupFor(
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
