/**
 * The write side of code memory, inside one transaction per call: a batch of files replaces what was stored for
 * them (symbols, dependencies, code atoms' citations and `defines` links; links made by hand to a replaced symbol
 * move to its successor of the same path, qualified name and kind), or files are removed. Old rows go, new
 * rows come, and every row that appeared, disappeared or changed gets its outbox row (`code_symbol`,
 * `code_dependency`, `atom_symbol_link`, `atom`). Set-based: a few statements per batch, whatever its size.
 */
import type { TransactionSql } from "postgres";
import type { CodeCommitResult, CodeFileWrite, CodeRepo } from "../../../ports/store/code-store.ts";
import { insertCodeAtoms, type KeptSymbolLink, reattachLinks } from "./write-atoms.ts";
import { dependencyRows, insertDependencies, insertSymbols, symbolRows } from "./write-rows.ts";
import { storable } from "./text.ts";
import { retractAfterCodeClear } from "../inference/tms.ts";
import { enqueueOutbox } from "../knowledge/table-writes.ts";

type Tx = TransactionSql<any>;

/** Rows per multi-row statement. */
const ROWS = 1000;

/** Serializes writers of one repository (transaction-scoped advisory lock on its name). */
export async function lockRepo(tx: Tx, repo: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`pm_code:${repo}`}, 0))`;
}

/** What clearing files removed, for outbox rows and for staling orphaned atoms. */
interface Cleared {
  symbols: number[];
  dependencies: number[];
  links: number[];
  /** Dependencies of other files whose target symbol went: now unresolved. */
  unresolved: number[];
  /** Atoms that defined a removed symbol. */
  atoms: number[];
  /** Links made by hand to the removed symbols, to re-attach to their successors (code-write-atoms.ts). */
  kept: KeptSymbolLink[];
}

/** Deletes the files' symbols, dependencies and code citations (links cascade; other files' targets go NULL). */
async function clearFiles(tx: Tx, repo: CodeRepo, paths: string[]): Promise<Cleared> {
  const symbols = (
    await tx`SELECT id FROM pm_code_symbol WHERE repo = ${repo.repo} AND path = ANY(${paths}::text[])`
  ).map((r) => Number(r.id));
  // Edges of other files whose source the resolution pass moved to a type of these files (`impl Trait for Type`
  // with Type defined here, code-resolve.ts) go back to their own file's module symbol, to be resolved again.
  const moved = await tx`
    UPDATE pm_code_dependency d SET src_symbol_id = m.id FROM pm_code_symbol m
     WHERE d.src_symbol_id = ANY(${symbols}::bigint[]) AND d.src_module IS NOT NULL AND d.path IS NOT NULL
       AND NOT (d.path = ANY(${paths}::text[])) AND m.repo = d.repo AND m.path = d.path AND m.metadata @> '{"file": true}'
    RETURNING d.id, d.path`;
  if (moved.length)
    await tx`UPDATE pm_code_file SET resolve_pending = true WHERE repo = ${repo.repo} AND path = ANY(${moved.map((r) => String(r.path))}::text[])`;
  // Two index scans: the files' own edges, and edges from their symbols written elsewhere (inferred ones have no path).
  const dependencies = (
    await tx`
    SELECT id FROM pm_code_dependency WHERE repo = ${repo.repo} AND path = ANY(${paths}::text[])
    UNION SELECT id FROM pm_code_dependency WHERE src_symbol_id = ANY(${symbols}::bigint[])`
  ).map((r) => Number(r.id));
  const unresolved = (
    await tx`
    SELECT id FROM pm_code_dependency WHERE dst_symbol_id = ANY(${symbols}::bigint[]) AND NOT (id = ANY(${dependencies}::bigint[]))`
  ).map((r) => Number(r.id));
  const linkRows = await tx`
    SELECT l.id, l.atom_id, l.kind, l.confidence, l.source, l.inferred, s.path, s.qualified_name, s.kind AS symbol_kind
      FROM pm_atom_symbol_link l JOIN pm_code_symbol s ON s.id = l.symbol_id
     WHERE l.symbol_id = ANY(${symbols}::bigint[])`;
  await tx`DELETE FROM pm_code_dependency WHERE id = ANY(${dependencies}::bigint[])`;
  await tx`DELETE FROM pm_code_symbol WHERE id = ANY(${symbols}::bigint[])`;
  await tx`DELETE FROM pm_citation WHERE doc_id = ${repo.docId} AND locator->>'href' = ANY(${paths}::text[])`;
  return {
    symbols,
    dependencies,
    unresolved: [...unresolved, ...moved.map((r) => Number(r.id))],
    links: linkRows.map((r) => Number(r.id)),
    atoms: [...new Set(linkRows.filter((r) => r.kind === "defines").map((r) => Number(r.atom_id)))],
    kept: linkRows
      .filter((r) => r.kind !== "defines" && r.inferred !== true)
      .map((r) => ({
        atomId: Number(r.atom_id),
        kind: String(r.kind),
        confidence: Number(r.confidence),
        source: String(r.source),
        path: String(r.path),
        qualifiedName: String(r.qualified_name),
        symbolKind: String(r.symbol_kind),
      })),
  };
}

async function upsertFileRows(
  tx: Tx,
  repo: string,
  files: CodeFileWrite[],
  counts: Map<string, { symbols: number; deps: number }>,
): Promise<void> {
  for (let i = 0; i < files.length; i += ROWS) {
    const part = files.slice(i, i + ROWS);
    const c = (f: CodeFileWrite) => counts.get(f.path) ?? { symbols: 0, deps: 0 };
    await tx`
      INSERT INTO pm_code_file (repo, path, language, module, content_hash, byte_size, status, error, symbols, dependencies, syntax_errors, imports, updated_at, resolve_pending)
      SELECT ${repo}, p, l, m, h, b, st, e, s, d, se, im::jsonb, now(), st = 'parsed'
        FROM unnest(${part.map((f) => f.path)}::text[], ${part.map((f) => f.language)}::text[],
                    ${part.map((f) => (f.extracted ? storable(f.extracted.module) : null))}::text[], ${part.map((f) => f.contentHash)}::text[],
                    ${part.map((f) => f.byteSize)}::bigint[], ${part.map((f) => f.status)}::text[],
                    ${part.map((f) => (f.error === null ? null : storable(f.error).slice(0, 500)))}::text[],
                    ${part.map((f) => c(f).symbols)}::int[], ${part.map((f) => c(f).deps)}::int[],
                    ${part.map((f) => f.extracted?.syntaxErrors ?? 0)}::int[],
                    ${part.map((f) => storable(JSON.stringify(f.extracted?.imports ?? [])))}::text[]) AS x(p, l, m, h, b, st, e, s, d, se, im)
      ON CONFLICT (repo, path) DO UPDATE SET language = EXCLUDED.language, module = EXCLUDED.module,
        content_hash = EXCLUDED.content_hash, byte_size = EXCLUDED.byte_size, status = EXCLUDED.status, error = EXCLUDED.error,
        symbols = EXCLUDED.symbols, dependencies = EXCLUDED.dependencies, syntax_errors = EXCLUDED.syntax_errors,
        imports = EXCLUDED.imports, updated_at = now(), resolve_pending = EXCLUDED.resolve_pending`;
  }
}

/** Code atoms that lost every `defines` link become `stale` (their source changed or went); returns their ids. */
async function staleOrphans(tx: Tx, atomIds: number[]): Promise<number[]> {
  if (!atomIds.length) return [];
  const rows = await tx`
    UPDATE pm_atom a SET status = 'stale'
     WHERE a.id = ANY(${atomIds}::bigint[]) AND a.type = 'code' AND a.status IN ('candidate', 'verified', 'contested')
       AND NOT EXISTS (SELECT 1 FROM pm_atom_symbol_link l WHERE l.atom_id = a.id AND l.kind = 'defines')
    RETURNING a.id`;
  return rows.map((r) => Number(r.id));
}

/** Outbox rows of what clearing removed. */
async function enqueueCleared(tx: Tx, c: Cleared): Promise<void> {
  await enqueueOutbox(tx, "code_dependency", c.dependencies, "delete");
  await enqueueOutbox(tx, "code_dependency", c.unresolved, "upsert");
  await enqueueOutbox(tx, "atom_symbol_link", c.links, "delete");
  await enqueueOutbox(tx, "code_symbol", c.symbols, "delete");
}

/** Replaces a batch of files (see CodeStore.commitFiles) inside `tx`. */
export async function commitFilesTx(
  tx: Tx,
  repo: CodeRepo,
  files: CodeFileWrite[],
  model: string,
): Promise<CodeCommitResult> {
  await lockRepo(tx, repo.repo);
  const cleared = await clearFiles(
    tx,
    repo,
    files.map((f) => f.path),
  );
  const rows = symbolRows(files);
  const ids = await insertSymbols(tx, repo.repo, rows);
  await enqueueOutbox(tx, "code_symbol", [...new Set(ids.values())], "upsert"); // nodes before their edges
  const deps = dependencyRows(files, rows, ids);
  const depCount = await insertDependencies(tx, repo.repo, deps);
  const atoms = await insertCodeAtoms(tx, repo, files, ids, model);
  const relinked = await reattachLinks(tx, cleared.kept, ids);
  const counts = new Map<string, { symbols: number; deps: number }>();
  for (const r of rows) if (!r.file) counts.set(r.path, { symbols: (counts.get(r.path)?.symbols ?? 0) + 1, deps: 0 });
  for (const d of deps) {
    const c = counts.get(d.path) ?? { symbols: 0, deps: 0 };
    counts.set(d.path, { ...c, deps: c.deps + 1 });
  }
  await upsertFileRows(tx, repo.repo, files, counts);
  const staled = await staleOrphans(tx, cleared.atoms);
  await enqueueCleared(tx, cleared);
  await retractAfterCodeClear(tx, cleared); // inferred edges that depended on the cleared rows (inference-tms.ts)
  await enqueueOutbox(tx, "atom_symbol_link", [...atoms.linkIds, ...relinked], "upsert");
  await enqueueOutbox(tx, "atom", [...atoms.changed, ...staled], "upsert");
  return {
    symbols: rows.filter((r) => !r.file).length,
    dependencies: depCount,
    atomsCreated: atoms.created,
    atomsExisting: atoms.existing,
    atomsStaled: staled.length,
  };
}

/** Removes files (see CodeStore.removeFiles) inside `tx`. */
export async function removeFilesTx(tx: Tx, repo: CodeRepo, paths: string[]): Promise<CodeCommitResult> {
  await lockRepo(tx, repo.repo);
  const cleared = await clearFiles(tx, repo, paths);
  await tx`DELETE FROM pm_code_file WHERE repo = ${repo.repo} AND path = ANY(${paths}::text[])`;
  const staled = await staleOrphans(tx, cleared.atoms);
  await enqueueCleared(tx, cleared);
  await retractAfterCodeClear(tx, cleared); // inferred edges that depended on the cleared rows (inference-tms.ts)
  await enqueueOutbox(tx, "atom", staled, "upsert");
  return { symbols: 0, dependencies: 0, atomsCreated: 0, atomsExisting: 0, atomsStaled: staled.length };
}
