/**
 * Code atoms: every documented public symbol becomes one `code` atom — claim "<qualified name>: <first docstring
 * sentence>", content = signature + docstring — cited `path:line` in the repository's document (locator
 * {href: path, line_start, line_end}, quote = the definition's first line as written) and linked `defines` to its
 * symbol. Private means a `_name` segment (dunders such as `__init__` are public), a lower-case Go name, a
 * `private` signature or a `#name`.
 */
import { firstSentence } from "../domain/text.ts";
import type { AtomDraft } from "./atoms.ts";
import { draftAtom } from "./atoms.ts";
import type { CodeLanguage, ExtractedSymbol } from "../ports/symbol-extractor.ts";
import { toPegasError } from "../errors.ts";
import type { CodeServices } from "./code-services.ts";

/** Confidence of a code atom: the docstring is the code's own statement about itself. */
export const CODE_ATOM_CONFIDENCE = 0.8;

/** A planned code atom without its vector. */
export interface CodeAtomDraft {
  symbol: { qualifiedName: string; kind: ExtractedSymbol["kind"]; lineStart: number };
  draft: AtomDraft;
  citation: { locator: { href: string; line_start: number; line_end: number }; quote: string };
}

/** Whether a symbol is private by its name, its language's convention or its signature. */
export function isPrivateSymbol(s: ExtractedSymbol, language: CodeLanguage): boolean {
  if (s.name.startsWith("#")) return true;
  if (s.qualifiedName.split(".").some((seg) => seg.startsWith("_") && !/^__\w+__$/.test(seg))) return true;
  if (language === "go" && !/^\p{Lu}/u.test(s.name)) return true;
  return s.signature !== null && /(?:^|\s)private\b/.test(s.signature);
}

/** A docstring without comment markers (`/** … *\/`, `//`, `#` prefixes) when it still has them. */
export function cleanDocstring(doc: string): string {
  const t = doc.trim();
  if (!/^(?:\/\*|\/\/|#|--)/.test(t)) return t;
  return t
    .split("\n")
    .map((l) => l.replace(/^\s*(?:\/\*\*?|\*\/|\*(?!\/)|\/\/\/?|#+|--)\s?/, "").replace(/\s*\*\/\s*$/, ""))
    .join("\n")
    .trim();
}

/** The definition's first line as written: the first line of its range naming it (past decorators), trimmed. */
function quoteLine(lines: string[], s: ExtractedSymbol): string {
  const last = Math.min(s.lineEnd, s.lineStart + 5, lines.length);
  for (let n = s.lineStart; n <= last; n++) {
    const line = lines[n - 1]?.trim() ?? "";
    if (line.includes(s.name)) return line.slice(0, 500);
  }
  return (lines[s.lineStart - 1]?.trim() || s.signature || s.qualifiedName).slice(0, 500);
}

/** The code atoms of one file's symbols (module symbols and undocumented or private ones give none). */
export function planCodeAtoms(path: string, language: CodeLanguage, symbols: ExtractedSymbol[], source: string, repo: string): CodeAtomDraft[] {
  const out: CodeAtomDraft[] = [];
  let lines: string[] | null = null;
  for (const s of symbols) {
    if (s.kind === "module" || !s.docstring || isPrivateSymbol(s, language)) continue;
    const doc = cleanDocstring(s.docstring);
    if (!doc) continue;
    lines ??= source.split("\n");
    const header = s.signature?.trim() || s.qualifiedName;
    const draft = draftAtom({
      type: "code",
      claim: `${s.qualifiedName}: ${firstSentence(doc)}`,
      content: `${header}\n\n${doc}`,
      confidence: CODE_ATOM_CONFIDENCE,
      metadata: { source: "code", repo, path, language, kind: s.kind, qualified_name: s.qualifiedName, line_start: s.lineStart },
    });
    out.push({
      symbol: { qualifiedName: s.qualifiedName, kind: s.kind, lineStart: s.lineStart },
      draft,
      citation: { locator: { href: path, line_start: s.lineStart, line_end: Math.max(s.lineStart, s.lineEnd) }, quote: quoteLine(lines, s) },
    });
  }
  return out;
}

/**
 * Embeddings of the drafts whose atom is not stored yet (exact content hash), by content hash. An embedder failure
 * gives no vectors and a `warning` (the atoms are stored without and backfilled when the embedder is back); a
 * cancellation is reported as `cancelled`.
 */
export async function embedNewCodeAtoms(
  s: Pick<CodeServices, "code" | "embedder">, drafts: CodeAtomDraft[], signal?: AbortSignal,
): Promise<{ vectors: Map<string, Float32Array>; warning?: string; cancelled?: boolean }> {
  const unique = [...new Map(drafts.map((d) => [d.draft.contentHash, d.draft])).values()];
  if (!unique.length) return { vectors: new Map() };
  const existing = await s.code.existingAtomHashes(unique.map((d) => d.contentHash));
  const fresh = unique.filter((d) => !existing.has(d.contentHash));
  if (!fresh.length) return { vectors: new Map() };
  try {
    const vs = await s.embedder.embedDocuments(fresh.map((d) => d.searchText), signal);
    return { vectors: new Map(fresh.map((d, i) => [d.contentHash, vs[i]])) };
  } catch (err) {
    const e = toPegasError(err);
    if (e.code === "CANCELLED") return { vectors: new Map(), cancelled: true };
    return { vectors: new Map(), warning: `embedding failed (${e.code}: ${e.message.slice(0, 200)}); ${fresh.length} code atom(s) stored without vectors, backfilled when the embedder is back` };
  }
}
