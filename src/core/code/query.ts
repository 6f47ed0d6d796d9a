/**
 * memory_search_code over the code store: ranked symbol hits with `path:line`; and the symbol view and repository
 * key that memory_code_graph (graph.ts) shares.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { invalidInput } from "../../errors.ts";
import type { CodeSymbolRow } from "../../ports/store/code-store.ts";
import { CODE_LANGUAGES, SYMBOL_KINDS, type SymbolKind } from "../../ports/models/symbol-extractor.ts";
import type { Services } from "../services.ts";

/** What code memory's queries read: the code store, the graph and atoms (a code atom's claim). */
export type CodeReads = Pick<Services, "code" | "graph" | "atomReads">;

/** A symbol as the tools show it; `location` is `path:line`. */
export interface SymbolView {
  symbol_id: string;
  name: string;
  qualified_name: string;
  kind: string;
  language: string;
  repo: string;
  path: string;
  line: number;
  line_end: number;
  location: string;
  signature: string | null;
  /** The docstring cut to {@link DOC_EXCERPT} characters. */
  docstring: string | null;
}

/** Docstring characters shown per symbol. */
export const DOC_EXCERPT = 300;

/** The view of a stored symbol. */
export function symbolView(s: CodeSymbolRow): SymbolView {
  const doc =
    s.docstring === null
      ? null
      : s.docstring.length > DOC_EXCERPT
        ? `${s.docstring.slice(0, DOC_EXCERPT - 1)}…`
        : s.docstring;
  return {
    symbol_id: `symbol:${s.id}`,
    name: s.name,
    qualified_name: s.qualifiedName,
    kind: s.kind,
    language: s.language,
    repo: s.repo,
    path: s.path,
    line: s.lineStart,
    line_end: s.lineEnd,
    location: `${s.path}:${s.lineStart}`,
    signature: s.signature,
    docstring: doc,
  };
}

/** memory_search_code input. */
export interface SearchCodeInput {
  query: string;
  kind?: string | string[];
  language?: string | string[];
  repo?: string;
  limit?: number;
}

/**
 * The repository key of a `repo` argument: as given, or — for a path (`.`, `../x`, `/a/b/`) that exists — its real
 * absolute path, which is the key memory_store_code uses when no repo name was given.
 */
export function repoKey(repo: string): string {
  const r = repo.trim();
  if (!/^(?:\/|\.{1,2}(?:\/|$))/.test(r)) return r;
  try {
    return realpathSync(resolve(r));
  } catch {
    return r;
  }
}

const list = (v: string | string[] | undefined): string[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v : [v];

/**
 * Ranked symbol hits. @throws PegasError INVALID_INPUT (empty query, unknown kind or language, limit outside 1..50),
 * NOT_FOUND (a `repo` with nothing stored: the hint names stored repositories).
 */
export async function searchCode(
  s: CodeReads,
  input: SearchCodeInput,
): Promise<{ query: string; hits: Array<SymbolView & { score: number; match: string }>; took_ms: number }> {
  const t0 = performance.now();
  const query = (input.query ?? "").trim();
  if (!query)
    throw invalidInput("query is empty", "give a name, a qualified name (HTMLParser.feed) or words of a docstring");
  const kinds = list(input.kind);
  const bad = kinds?.filter((k) => !(SYMBOL_KINDS as readonly string[]).includes(k)) ?? [];
  if (bad.length) throw invalidInput(`unknown symbol kind(s) ${bad.join(", ")}`, `use ${SYMBOL_KINDS.join(", ")}`);
  const languages = list(input.language);
  const unknown = languages?.filter((l) => !(CODE_LANGUAGES as readonly string[]).includes(l)) ?? [];
  if (unknown.length)
    throw invalidInput(`unknown language(s) ${unknown.join(", ")}`, `use ${CODE_LANGUAGES.join(", ")}`);
  const limit = input.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    throw invalidInput(`limit must be an integer in 1..50, got ${limit}`);
  const repo = input.repo === undefined ? undefined : repoKey(input.repo);
  const hits = await s.code.searchSymbols({
    query,
    kind: kinds as SymbolKind[] | undefined,
    language: languages,
    repo,
    limit,
  });
  return {
    query,
    hits: hits.map((h) => ({ ...symbolView(h), score: h.score, match: h.match })),
    took_ms: Math.round(performance.now() - t0),
  };
}
