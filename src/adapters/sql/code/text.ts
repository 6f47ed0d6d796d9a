/** Text hygiene and row mapping shared by the code-memory SQL files. */
import type { CodeSymbolRow } from "../../../ports/store/code-store.ts";
import type { SymbolKind } from "../../../ports/models/symbol-extractor.ts";

/** Text PostgreSQL can store: no NUL, no lone surrogate. */
export function storable(s: string): string;
export function storable(s: string | null | undefined): string | null;
export function storable(s: string | null | undefined): string | null {
  if (s === null || s === undefined) return null;
  const t = s.includes("\u0000") ? s.replaceAll("\u0000", "") : s;
  return t.isWellFormed() ? t : t.toWellFormed();
}

/** The columns {@link symbolOfRow} reads, for SELECT lists (alias `s`). */
export const SYMBOL_COLUMNS =
  "s.id, s.repo, s.path, s.language, s.name, s.qualified_name, s.kind, s.signature, s.line_start, s.line_end, s.docstring, (s.metadata @> '{\"file\": true}') AS is_file";

/** A symbol from a row of {@link SYMBOL_COLUMNS}. */
export function symbolOfRow(r: Record<string, unknown>): CodeSymbolRow {
  return {
    id: Number(r.id),
    repo: String(r.repo),
    path: String(r.path),
    language: String(r.language),
    name: String(r.name),
    qualifiedName: String(r.qualified_name),
    kind: r.kind as SymbolKind,
    signature: (r.signature as string | null) ?? null,
    lineStart: Number(r.line_start),
    lineEnd: Number(r.line_end),
    docstring: (r.docstring as string | null) ?? null,
    file: r.is_file === true,
  };
}
