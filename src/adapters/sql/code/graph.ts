/**
 * SQL reads behind memory_code_graph that the GraphStore port does not answer: finding a symbol by id, qualified
 * name, file or name (an ambiguous reference is an error listing the candidates), the outgoing dependencies of a
 * whole file, the lines of dependencies, which edge kinds exist, and a repository overview (files, symbols,
 * dependency counts, most-depended-on symbols, the module import graph, external imports).
 */
import type { Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import {
  type CodeEdgeRow,
  type CodeRepoSummary,
  type CodeSymbolRow,
  type FoundSymbol,
  STANDARD_EDGE_KINDS,
} from "../../../ports/store/code-store.ts";
import { SYMBOL_COLUMNS, symbolOfRow } from "./text.ts";

function repoFilter(sql: Sql<any>, repo: string | undefined) {
  return repo === undefined ? sql`` : sql`AND s.repo = ${repo}`;
}

/** Candidates listed in an ambiguity error. */
const CANDIDATES_SHOWN = 10;
/** Rows read to tell one symbol (with its overloads) from several. */
const CANDIDATE_ROWS = 200;

/**
 * Rows of one (repo, path, qualified name, kind), in row order: one symbol to the user — the declarations of an
 * overloaded function or method (TypeScript overload signatures, C++ and Java overloads) are several rows of it.
 */
function groupRows(rows: Array<Record<string, unknown>>): Array<Array<Record<string, unknown>>> {
  const groups = new Map<string, Array<Record<string, unknown>>>();
  for (const r of rows) {
    const key = JSON.stringify([r.repo, r.path, r.qualified_name, r.kind]);
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()];
}

/** The first symbol of a single group (its overload count beside it), or INVALID_INPUT listing the groups. */
function oneSymbol(
  ref: string,
  repo: string | undefined,
  rows: Array<Record<string, unknown>>,
  by: string,
): FoundSymbol | null {
  if (!rows.length) return null;
  const groups = groupRows(rows);
  if (groups.length === 1) return { ...symbolOfRow(rows[0]), overloads: rows.length };
  const shown = groups.slice(0, CANDIDATES_SHOWN).map((g) => {
    const s = symbolOfRow(g[0]);
    return `symbol:${s.id} ${repo === undefined ? `${s.repo}:` : ""}${s.path}:${s.lineStart} (${s.kind} ${s.qualifiedName})`;
  });
  const more = groups.length - shown.length;
  const count = rows.length >= CANDIDATE_ROWS ? `at least ${groups.length}` : String(groups.length);
  return ambiguous(ref, repo, by, count, shown, more);
}

function ambiguous(
  ref: string,
  repo: string | undefined,
  by: string,
  count: string,
  shown: string[],
  more: number,
): never {
  throw new PegasError(
    "INVALID_INPUT",
    `'${ref.slice(0, 200)}' is ambiguous${repo === undefined ? "" : ` in repo '${repo}'`}: ${count} symbols have this ${by}: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`,
    {
      hint: "pass one of them as symbol:<id>, or the file path for a whole file; memory_search_code lists more",
    },
  );
}

/**
 * A symbol by reference (see CodeStore.findSymbol): `symbol:<id>`; else a qualified name (a non-module symbol
 * first), a file path (its module symbol) or a module name (a file's module symbol before a namespace of that name);
 * else a bare name. Among the best matches, rows of one (path, qualified name, kind) are one symbol (overloads: the
 * first is returned with their count); matches in several files or of several kinds are an error. @throws PegasError INVALID_INPUT (ambiguous: the message lists
 * up to 10 candidates as `symbol:<id> path:line (kind qualified name)`)
 */
export async function findSymbol(sql: Sql<any>, ref: string, repo?: string): Promise<FoundSymbol | null> {
  const r = ref.trim();
  const m = /^symbol:([1-9]\d{0,15})$/.exec(r);
  if (m) {
    const rows =
      await sql`SELECT ${sql.unsafe(SYMBOL_COLUMNS)} FROM pm_code_symbol s WHERE s.id = ${Number(m[1])} ${repoFilter(sql, repo)}`;
    return rows.length ? { ...symbolOfRow(rows[0]), overloads: 1 } : null;
  }
  const path = r.replace(/^\.\//, "");
  const rows = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)},
           CASE WHEN s.qualified_name = ${r} AND s.kind <> 'module' THEN 0
                WHEN s.path = ${path} AND s.metadata @> '{"file": true}'::jsonb THEN 1
                WHEN s.qualified_name = ${r} AND s.metadata @> '{"file": true}'::jsonb THEN 2
                WHEN s.qualified_name = ${r} THEN 3 ELSE 4 END AS pref
      FROM pm_code_symbol s
     WHERE (s.qualified_name = ${r} OR (s.path = ${path} AND s.metadata @> '{"file": true}'::jsonb)) ${repoFilter(sql, repo)}
     ORDER BY pref, s.repo COLLATE "C", s.path COLLATE "C", s.line_start, s.id LIMIT ${CANDIDATE_ROWS}`;
  if (rows.length)
    return oneSymbol(
      r,
      repo,
      rows.filter((x) => x.pref === rows[0].pref),
      rows[0].pref === 1 ? "path" : "qualified name",
    );
  const byName = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)} FROM pm_code_symbol s WHERE s.name = ${r} ${repoFilter(sql, repo)}
     ORDER BY s.repo COLLATE "C", s.path COLLATE "C", s.line_start, s.id LIMIT ${CANDIDATE_ROWS}`;
  return oneSymbol(r, repo, [...byName], "name");
}

/**
 * Which of `kinds` no edge the walk from a symbol of `repo` could follow has (see CodeStore.unknownEdgeKinds):
 * neither a standard kind ({@link STANDARD_EDGE_KINDS}) nor the kind of a dependency of the repository
 * (extracted, memory_link's or inferred), of a link from an atom to one of its symbols, or of an atom link.
 */
export async function unknownEdgeKinds(sql: Sql<any>, repo: string, kinds: string[]): Promise<string[]> {
  const rest = [...new Set(kinds)].filter((k) => !(STANDARD_EDGE_KINDS as readonly string[]).includes(k));
  if (!rest.length) return [];
  const rows = await sql`
    SELECT k FROM unnest(${rest}::text[]) AS k
     WHERE NOT EXISTS (SELECT 1 FROM pm_code_dependency d WHERE d.repo = ${repo} AND d.kind = k)
       AND NOT EXISTS (SELECT 1 FROM pm_atom_symbol_link l JOIN pm_code_symbol s ON s.id = l.symbol_id WHERE l.kind = k AND s.repo = ${repo})
       AND NOT EXISTS (SELECT 1 FROM pm_atom_link l WHERE l.kind = k)`;
  const unknown = new Set(rows.map((x) => String(x.k)));
  return rest.filter((k) => unknown.has(k));
}

/** Edge kinds of a repository's graph beside the standard ones, for the error about an unknown kind (at most 20). */
export async function repoEdgeKinds(sql: Sql<any>, repo: string): Promise<string[]> {
  const rows = await sql`
    SELECT DISTINCT kind COLLATE "C" AS kind FROM pm_code_dependency WHERE repo = ${repo} AND kind <> ALL(${[...STANDARD_EDGE_KINDS]}::text[])
     ORDER BY kind LIMIT 20`;
  return rows.map((x) => String(x.kind));
}

/** The line of each dependency's site (call, import, inherits), by dependency id; null when it has none. */
export async function dependencyLines(sql: Sql<any>, ids: number[]): Promise<Map<number, number | null>> {
  if (!ids.length) return new Map();
  const rows = await sql`SELECT id, line FROM pm_code_dependency WHERE id = ANY(${ids}::bigint[])`;
  return new Map(rows.map((x) => [Number(x.id), x.line === null ? null : Number(x.line)]));
}

/** Symbols by id, in id order. */
export async function symbolsByIds(sql: Sql<any>, ids: number[]): Promise<CodeSymbolRow[]> {
  if (!ids.length) return [];
  const rows =
    await sql`SELECT ${sql.unsafe(SYMBOL_COLUMNS)} FROM pm_code_symbol s WHERE s.id = ANY(${ids}::bigint[]) ORDER BY s.id`;
  return rows.map(symbolOfRow);
}

/** Outgoing dependencies of every symbol of a file (see CodeStore.fileEdges). */
export async function fileEdges(
  sql: Sql<any>,
  repo: string,
  path: string,
  kinds: string[] | undefined,
  limit: number,
): Promise<{ edges: CodeEdgeRow[]; truncated: boolean }> {
  const rows = await sql`
    SELECT d.id, d.kind, d.src_symbol_id, s.qualified_name AS src_qn, d.dst_symbol_id, d.dst_name, t.path AS dst_path,
           t.qualified_name AS dst_qn, d.line, d.confidence
      FROM pm_code_dependency d
      JOIN pm_code_symbol s ON s.id = d.src_symbol_id
      LEFT JOIN pm_code_symbol t ON t.id = d.dst_symbol_id
     WHERE d.repo = ${repo} AND d.path = ${path} ${kinds?.length ? sql`AND d.kind = ANY(${kinds}::text[])` : sql``}
     ORDER BY d.line, d.id LIMIT ${limit + 1}`;
  const edges = rows.slice(0, limit).map((r) => ({
    id: Number(r.id),
    kind: String(r.kind),
    srcSymbolId: Number(r.src_symbol_id),
    srcQualifiedName: String(r.src_qn),
    dstSymbolId: r.dst_symbol_id === null ? null : Number(r.dst_symbol_id),
    dstName: String(r.dst_name),
    dstPath: (r.dst_path as string | null) ?? null,
    dstQualifiedName: (r.dst_qn as string | null) ?? null,
    line: r.line === null ? null : Number(r.line),
    confidence: Number(r.confidence),
  }));
  return { edges, truncated: rows.length > limit };
}

/** NOT_FOUND for a repository with no stored file; the hint names up to 5 stored repositories. */
export async function repoNotFound(sql: Sql<any>, repo: string): Promise<PegasError> {
  const known = await sql`SELECT DISTINCT repo COLLATE "C" AS repo FROM pm_code_file ORDER BY repo LIMIT 5`;
  const list = known.map((r) => `'${String(r.repo)}'`).join(", ");
  return new PegasError("NOT_FOUND", `no code stored for repo '${repo}'`, {
    hint: list
      ? `stored repos include ${list}; or call memory_store_code first`
      : "call memory_store_code {path} first",
  });
}

/** Counts of files, symbols and dependencies. */
async function counts(
  sql: Sql<any>,
  repo: string,
): Promise<Pick<CodeRepoSummary, "files" | "symbols" | "dependencies">> {
  const files = await sql`SELECT status, count(*) AS n FROM pm_code_file WHERE repo = ${repo} GROUP BY status`;
  const syms = await sql`
    SELECT kind, language, count(*) AS n FROM pm_code_symbol s WHERE s.repo = ${repo} AND NOT s.metadata @> '{"file": true}'::jsonb GROUP BY kind, language`;
  const deps = await sql`
    SELECT kind, count(*) FILTER (WHERE dst_symbol_id IS NOT NULL) AS resolved, count(*) FILTER (WHERE dst_symbol_id IS NULL) AS unresolved
      FROM pm_code_dependency WHERE repo = ${repo} GROUP BY kind ORDER BY kind COLLATE "C"`;
  const f = { total: 0, parsed: 0, failed: 0, skipped: 0 };
  for (const r of files) {
    f[r.status as "parsed" | "failed" | "skipped"] = Number(r.n);
    f.total += Number(r.n);
  }
  const byKind: Record<string, number> = {};
  const byLanguage: Record<string, number> = {};
  let total = 0;
  for (const r of syms) {
    byKind[r.kind] = (byKind[r.kind] ?? 0) + Number(r.n);
    byLanguage[r.language] = (byLanguage[r.language] ?? 0) + Number(r.n);
    total += Number(r.n);
  }
  const dependencies: CodeRepoSummary["dependencies"] = {};
  for (const r of deps)
    dependencies[String(r.kind)] = { resolved: Number(r.resolved), unresolved: Number(r.unresolved) };
  return { files: f, symbols: { total, byKind, byLanguage }, dependencies };
}

/** Repository overview (see CodeStore.repoSummary). @throws PegasError NOT_FOUND */
export async function repoSummary(
  sql: Sql<any>,
  repo: string,
  limits: { top: number; edges: number },
): Promise<CodeRepoSummary> {
  const base = await counts(sql, repo);
  if (base.files.total === 0) throw await repoNotFound(sql, repo);
  const top = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)}, x.n FROM (
      SELECT dst_symbol_id, count(*) AS n FROM pm_code_dependency
       WHERE repo = ${repo} AND dst_symbol_id IS NOT NULL AND kind <> 'imports' GROUP BY dst_symbol_id
       ORDER BY count(*) DESC, dst_symbol_id LIMIT ${limits.top}) x
      JOIN pm_code_symbol s ON s.id = x.dst_symbol_id
     ORDER BY x.n DESC, s.id`;
  const imports = await sql`
    SELECT DISTINCT s.path COLLATE "C" AS src, t.path COLLATE "C" AS dst FROM pm_code_dependency d
      JOIN pm_code_symbol s ON s.id = d.src_symbol_id JOIN pm_code_symbol t ON t.id = d.dst_symbol_id
     WHERE d.repo = ${repo} AND d.kind = 'imports' AND s.path <> t.path
     ORDER BY src, dst LIMIT ${limits.edges}`;
  const external = await sql`
    SELECT dst_name, count(DISTINCT path) AS n FROM pm_code_dependency
     WHERE repo = ${repo} AND kind = 'imports' AND dst_symbol_id IS NULL GROUP BY dst_name
     ORDER BY n DESC, dst_name COLLATE "C" LIMIT ${limits.top}`;
  return {
    ...base,
    mostDependedOn: top.map((r) => ({ symbol: symbolOfRow(r), dependents: Number(r.n) })),
    moduleImports: imports.map((r) => ({ from: String(r.src), to: String(r.dst) })),
    externalImports: external.map((r) => ({ name: String(r.dst_name), importers: Number(r.n) })),
  };
}
