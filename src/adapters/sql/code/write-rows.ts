/**
 * The symbol and dependency rows of a code commit (write.ts): built from the extracted files, checked, and inserted
 * in batches of ROWS.
 */
import type { TransactionSql } from "postgres";
import type { CodeFileWrite } from "../../../ports/store/code-store.ts";
import { type ExtractedSymbol, SYMBOL_KINDS } from "../../../ports/models/symbol-extractor.ts";
import { symbolKey } from "./write-atoms.ts";
import { storable } from "./text.ts";
import { symbolTsvectorLiteral, targetLeaf } from "./words.ts";

type Tx = TransactionSql<any>;

/** Rows per INSERT statement. */
const ROWS = 1000;

const KINDS: ReadonlySet<string> = new Set(SYMBOL_KINDS);
const DEPENDENCY_KIND = /^[a-z][a-z0-9_]{0,63}$/;

/** A 1-based line number as the schema takes it (anything else: line 1). */
function line(n: unknown): number {
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 2_000_000_000 ? n : 1;
}

/** A symbol row to insert; `file` marks the synthesized module symbol of a file. */
export interface SymbolRow {
  path: string;
  language: string;
  name: string;
  qn: string;
  kind: string;
  signature: string | null;
  start: number;
  end: number;
  doc: string | null;
  hash: string;
  file: boolean;
}

/**
 * The symbol rows of the parsed `files`: a module symbol for a file none of whose symbols spans it, then the
 * extracted symbols (those the schema would refuse left out).
 */
export function symbolRows(files: CodeFileWrite[]): SymbolRow[] {
  const rows: SymbolRow[] = [];
  for (const f of files) {
    const x = f.extracted;
    if (f.status !== "parsed" || !x) continue;
    const module = storable(x.module) || f.path;
    const base = { path: f.path, language: f.language, hash: f.contentHash };
    // An extracted module symbol stands for the file only when it spans the whole file; a `namespace geo { … }` in
    // geo.cpp (the same name as the file's module) is a symbol of its own beside the file's module symbol.
    const isFile = (s: ExtractedSymbol) =>
      s.kind === "module" && s.qualifiedName === module && line(s.lineStart) === 1 && line(s.lineEnd) >= f.lineCount;
    if (!x.symbols.some(isFile)) {
      rows.push({
        ...base,
        name: module.split("/").at(-1) || module,
        qn: module,
        kind: "module",
        signature: null,
        start: 1,
        end: Math.max(1, f.lineCount),
        doc: storable(x.moduleDoc ?? null),
        file: true,
      });
    }
    for (const s of x.symbols) {
      // What the schema would refuse is left out here, so one odd symbol never fails its batch.
      if (!s.name || !s.qualifiedName || !KINDS.has(s.kind)) continue;
      const start = line(s.lineStart);
      rows.push({
        ...base,
        name: storable(s.name),
        qn: storable(s.qualifiedName),
        kind: s.kind,
        signature: storable(s.signature),
        start,
        end: Math.max(start, line(s.lineEnd)),
        doc: storable(s.docstring),
        file: isFile(s),
      });
    }
  }
  return rows;
}

/** Inserts symbols; returns key → id (duplicates of a key keep the first). */
export async function insertSymbols(tx: Tx, repo: string, rows: SymbolRow[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < rows.length; i += ROWS) {
    const part = rows.slice(i, i + ROWS);
    const col = <T>(f: (r: SymbolRow) => T) => part.map(f);
    const out = await tx`
      INSERT INTO pm_code_symbol (repo, path, language, name, qualified_name, kind, signature, line_start, line_end, docstring, file_hash, metadata, search_tsv)
      SELECT ${repo}, p, l, n, q, k, sg, ls, le, d, h, md::jsonb, tv::tsvector || pm_code_stems(n, q, d)
        FROM unnest(${col((r) => r.path)}::text[], ${col((r) => r.language)}::text[], ${col((r) => r.name)}::text[],
                    ${col((r) => r.qn)}::text[], ${col((r) => r.kind)}::text[], ${col((r) => r.signature)}::text[],
                    ${col((r) => r.start)}::int[], ${col((r) => r.end)}::int[], ${col((r) => r.doc)}::text[], ${col((r) => r.hash)}::text[],
                    ${col((r) => JSON.stringify(r.file ? { file: true } : {}))}::text[],
                    ${col((r) => symbolTsvectorLiteral({ name: r.name, qualifiedName: r.qn, signature: r.signature, docstring: r.doc }))}::text[])
             AS x(p, l, n, q, k, sg, ls, le, d, h, md, tv)
      ON CONFLICT (repo, path, qualified_name, kind, line_start) DO NOTHING
      RETURNING id, path, qualified_name, kind, line_start`;
    for (const r of out)
      ids.set(symbolKey(String(r.path), String(r.qualified_name), String(r.kind), Number(r.line_start)), Number(r.id));
  }
  return ids;
}

/** A dependency row to insert; `srcName`: the source as written when no symbol of the file has that name. */
interface DependencyRow {
  src: number;
  srcName: string | null;
  target: string;
  kind: string;
  path: string;
  line: number;
  receiver: string | null;
}

/**
 * Dependency rows of the files: the source is the symbol of that qualified name whose lines contain the edge (else
 * the first), or the file's module symbol; one row per (source, kind, target, receiver), at its first line. A source
 * named but not defined in the file (Rust `impl Area for Vec`, Vec defined elsewhere) is the module symbol with the
 * name kept in `src_module`; the resolution pass moves the edge to that type when it finds it (code-resolve.ts).
 */
export function dependencyRows(files: CodeFileWrite[], rows: SymbolRow[], ids: Map<string, number>): DependencyRow[] {
  const byQn = new Map<string, SymbolRow[]>();
  for (const r of rows) {
    const k = `${r.path}\u0000${r.qn}`;
    const list = byQn.get(k) ?? [];
    if (!r.file || !list.length) list.push(r);
    byQn.set(k, list);
  }
  const idOf = (r: SymbolRow) => ids.get(symbolKey(r.path, r.qn, r.kind, r.start));
  const moduleOf = new Map(rows.filter((r) => r.file).map((r) => [r.path, r]));
  const out: DependencyRow[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const x = f.extracted;
    if (f.status !== "parsed" || !x) continue;
    const moduleRow = moduleOf.get(f.path);
    for (const d of [...x.dependencies].sort((a, b) => a.line - b.line)) {
      const target = storable(d.target ?? "").trim();
      if (!target || !DEPENDENCY_KIND.test(d.kind)) continue;
      const cands =
        "symbol" in d.from ? (byQn.get(`${f.path}\u0000${storable(d.from.symbol)}`) ?? []).filter((r) => !r.file) : [];
      const at = line(d.line);
      const owner = cands.find((r) => r.start <= at && at <= r.end) ?? cands[0] ?? moduleRow;
      const src = owner && idOf(owner);
      if (src === undefined) continue;
      const srcName = "symbol" in d.from && !cands.length ? storable(d.from.symbol).slice(0, 1000) || null : null;
      const receiver = d.receiver === undefined || d.receiver === "" ? null : storable(d.receiver);
      const key = `${src}\u0000${srcName}\u0000${d.kind}\u0000${target}\u0000${receiver}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        src,
        srcName,
        target: target.slice(0, 1000),
        kind: d.kind,
        path: f.path,
        line: at,
        receiver: receiver?.slice(0, 200) ?? null,
      });
    }
  }
  return out;
}

/** Inserts dependencies with their outbox rows (one statement per {@link ROWS}); returns how many. */
export async function insertDependencies(tx: Tx, repo: string, rows: DependencyRow[]): Promise<number> {
  let count = 0;
  for (let i = 0; i < rows.length; i += ROWS) {
    const part = rows.slice(i, i + ROWS);
    // The new ids go to the outbox inside the statement: a batch of a large repository inserts ~100k edges, and
    // returning each id to the client only to send it back cost more than the insert.
    const [r] = await tx`
      WITH ins AS (
        INSERT INTO pm_code_dependency (repo, src_symbol_id, src_module, dst_name, kind, path, line, receiver, dst_leaf)
        SELECT ${repo}, s, sn, t, k, p, l, r, lf
          FROM unnest(${part.map((r) => r.src)}::bigint[], ${part.map((r) => r.srcName)}::text[], ${part.map((r) => r.target)}::text[],
                      ${part.map((r) => r.kind)}::text[], ${part.map((r) => r.path)}::text[], ${part.map((r) => r.line)}::int[],
                      ${part.map((r) => r.receiver)}::text[], ${part.map((r) => targetLeaf(r.target, r.kind))}::text[]) AS x(s, sn, t, k, p, l, r, lf)
        RETURNING id),
      queued AS (INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT 'code_dependency', id::text, 'upsert' FROM ins)
      SELECT count(*)::int AS n FROM ins`;
    count += Number(r.n);
  }
  return count;
}
