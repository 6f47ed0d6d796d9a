/**
 * Code atoms: every documented public symbol becomes one `code` atom — claim "<qualified name>: <first docstring
 * sentence>", content = signature + docstring — cited `path:line` in the repository's document (locator
 * {href: path, line_start, line_end}, quote = the definition's first line as written) and linked `defines` to its
 * symbol. Private: see {@link isPrivateSymbol} (names, Go's case, C++ access labels, C# and Java modifiers).
 */
import { firstSentence } from "../../domain/text.ts";
import type { AtomDraft } from "../knowledge/atoms.ts";
import { draftAtom } from "../knowledge/atoms.ts";
import type { CodeLanguage, ExtractedSymbol } from "../../ports/models/symbol-extractor.ts";
import { toPegasError } from "../../errors.ts";
import type { Services } from "../services.ts";

/** Confidence of a code atom: the docstring is the code's own statement about itself. */
export const CODE_ATOM_CONFIDENCE = 0.8;

/** A planned code atom without its vector. */
export interface CodeAtomDraft {
  symbol: { qualifiedName: string; kind: ExtractedSymbol["kind"]; lineStart: number };
  draft: AtomDraft;
  citation: { locator: { href: string; line_start: number; line_end: number }; quote: string };
}

/** The file a symbol comes from, for the languages whose access is not in the signature (C++, C#). */
export interface SymbolContext {
  /** Every symbol of the file (the enclosing classes). */
  symbols: readonly ExtractedSymbol[];
  /** The file's lines (C++ access specifiers). */
  lines: readonly string[];
}

const TYPE_KINDS = new Set(["class", "struct", "interface", "enum", "type"]);
const CPP_ACCESS = /^\s*(public|private|protected)\s*:(?!:)/;
const CS_ACCESS = /(?:^|\s)(?:public|private|protected|internal)\b/;

/** The innermost class-like symbol whose qualified name is `s`'s owner (`A.B` of `A.B.f`), the one containing it first. */
function ownerOf(s: ExtractedSymbol, symbols: readonly ExtractedSymbol[]): ExtractedSymbol | undefined {
  const cut = s.qualifiedName.lastIndexOf(".");
  if (cut < 0) return undefined;
  const owners = symbols.filter((o) => TYPE_KINDS.has(o.kind) && o.qualifiedName === s.qualifiedName.slice(0, cut));
  return owners.find((o) => o.lineStart <= s.lineStart && s.lineEnd <= o.lineEnd) ?? owners[0];
}

/**
 * C++: the access of a member is the last `public:`/`private:`/`protected:` label above it in its class body
 * (nested classes' bodies skipped), else the default: private in a `class`, public in a `struct`/`union`. A member
 * defined out of line (`void A::f() {}`) takes the access of its declaration in the class. Only `private` hides.
 */
function cppPrivate(s: ExtractedSymbol, ctx: SymbolContext): boolean {
  const owner = ownerOf(s, ctx.symbols);
  if (!owner || (owner.kind !== "class" && owner.kind !== "struct")) return false;
  let at = s;
  if (s.lineStart < owner.lineStart || s.lineStart > owner.lineEnd) {
    const decl = ctx.symbols.find(
      (o) =>
        o !== s && o.qualifiedName === s.qualifiedName && o.lineStart >= owner.lineStart && o.lineEnd <= owner.lineEnd,
    );
    if (!decl) return false;
    at = decl;
  }
  const nested = ctx.symbols.filter(
    (o) => TYPE_KINDS.has(o.kind) && o !== owner && o.lineStart > owner.lineStart && o.lineEnd < at.lineStart,
  );
  for (let n = at.lineStart; n > owner.lineStart; n--) {
    if (nested.some((o) => o.lineStart <= n && n <= o.lineEnd)) continue;
    const m = CPP_ACCESS.exec(ctx.lines[n - 1] ?? "");
    if (m) return m[1] === "private";
  }
  return owner.kind === "class";
}

/** C#: `private` in the modifiers, or none at all on a member of a class or struct (C#'s default access). */
function csharpPrivate(s: ExtractedSymbol, symbols: readonly ExtractedSymbol[]): boolean {
  const header = (s.signature ?? "").split("(")[0];
  if (/(?:^|\s)private\b/.test(header) && !/\bprivate\s+protected\b/.test(header)) return true;
  if (CS_ACCESS.test(header) || s.kind === "module") return false;
  const owner = ownerOf(s, symbols);
  return owner !== undefined && (owner.kind === "class" || owner.kind === "struct");
}

/**
 * Whether a symbol is private by its name, its language's convention or its declared access: a `_name` segment
 * (dunders are public), a `#name`, a lower-case Go name; C++ by its access label (needs `ctx`), C# by its
 * modifiers or their absence on a class member; other languages by a `private` modifier before the parameters
 * (a base list such as Java's never holds one).
 */
export function isPrivateSymbol(s: ExtractedSymbol, language: CodeLanguage, ctx?: SymbolContext): boolean {
  if (s.name.startsWith("#")) return true;
  if (s.qualifiedName.split(".").some((seg) => seg.startsWith("_") && !/^__\w+__$/.test(seg))) return true;
  if (language === "go" && !/^\p{Lu}/u.test(s.name)) return true;
  if (language === "cpp") return ctx !== undefined && cppPrivate(s, ctx);
  if (language === "c_sharp") return csharpPrivate(s, ctx?.symbols ?? []);
  return s.signature !== null && /(?:^|\s)private\b/.test(s.signature.split("(")[0]);
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
export function planCodeAtoms(
  path: string,
  language: CodeLanguage,
  symbols: ExtractedSymbol[],
  source: string,
  repo: string,
): CodeAtomDraft[] {
  const out: CodeAtomDraft[] = [];
  let lines: string[] | null = null;
  for (const s of symbols) {
    if (s.kind === "module" || !s.docstring) continue;
    lines ??= source.split("\n");
    if (isPrivateSymbol(s, language, { symbols, lines })) continue;
    const doc = cleanDocstring(s.docstring);
    if (!doc) continue;
    const header = s.signature?.trim() || s.qualifiedName;
    const draft = draftAtom({
      type: "code",
      claim: `${s.qualifiedName}: ${firstSentence(doc)}`,
      content: `${header}\n\n${doc}`,
      confidence: CODE_ATOM_CONFIDENCE,
      metadata: {
        source: "code",
        repo,
        path,
        language,
        kind: s.kind,
        qualified_name: s.qualifiedName,
        line_start: s.lineStart,
      },
    });
    out.push({
      symbol: { qualifiedName: s.qualifiedName, kind: s.kind, lineStart: s.lineStart },
      draft,
      citation: {
        locator: { href: path, line_start: s.lineStart, line_end: Math.max(s.lineStart, s.lineEnd) },
        quote: quoteLine(lines, s),
      },
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
  s: Pick<Services, "code" | "embedder">,
  drafts: CodeAtomDraft[],
  signal?: AbortSignal,
): Promise<{ vectors: Map<string, Float32Array>; warning?: string; cancelled?: boolean }> {
  const unique = [...new Map(drafts.map((d) => [d.draft.contentHash, d.draft])).values()];
  if (!unique.length) return { vectors: new Map() };
  const existing = await s.code.existingAtomHashes(unique.map((d) => d.contentHash));
  const fresh = unique.filter((d) => !existing.has(d.contentHash));
  if (!fresh.length) return { vectors: new Map() };
  try {
    const vs = await s.embedder.embedDocuments(
      fresh.map((d) => d.searchText),
      signal,
    );
    return { vectors: new Map(fresh.map((d, i) => [d.contentHash, vs[i]])) };
  } catch (err) {
    const e = toPegasError(err);
    if (e.code === "CANCELLED") return { vectors: new Map(), cancelled: true };
    return {
      vectors: new Map(),
      warning: `embedding failed (${e.code}: ${e.message.slice(0, 200)}); ${fresh.length} code atom(s) stored without vectors, backfilled when the embedder is back`,
    };
  }
}
