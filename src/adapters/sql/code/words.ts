/**
 * Identifier-aware words for symbol search: `JSONDecoder` → jsondecoder, json, decoder; `parse_http_response2` →
 * parsehttpresponse2, parse, http, response2. The same splitting builds the stored tsvector (as a literal, so that
 * PostgreSQL's parser never re-splits `html.parser` into a host name; the writer adds the stemmed words of
 * migration 0012's pm_code_stems to it) and the query's tsquery.
 */

/** Longest word kept (code points); longer ones are cut. */
const MAX_WORD = 64;
/** Most positions one field contributes (a docstring is long). */
const MAX_FIELD_WORDS = 400;

const TOKEN = /[\p{L}\p{N}_$]+/gu;
const SIMPLE_WORD = /^[a-z][a-z0-9]*$/;
const SIMPLE_TARGET = /^[A-Za-z_$][\w$]*$/;

/** Parts of one identifier: snake_case and camelCase boundaries, acronyms kept whole (`HTTPServer` → HTTP, Server). */
export function identifierParts(token: string): string[] {
  if (SIMPLE_WORD.test(token)) return [token]; // the common case: one lower-case ASCII word, nothing to split
  const parts: string[] = [];
  for (const piece of token.split(/[_$]+/)) {
    if (!piece) continue;
    const m = piece.match(/\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|[\p{L}\p{N}]+/gu);
    parts.push(...(m ?? [piece]));
  }
  return parts;
}

/** Lower-case words of a text: each identifier whole (underscores dropped) and, when it has several, its parts. */
export function identifierWords(text: string | null | undefined, max = MAX_FIELD_WORDS): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const parts = identifierParts(m[0]);
    if (!parts.length) continue;
    out.push(cut(parts.join("").toLowerCase()));
    if (parts.length > 1) for (const p of parts) out.push(cut(p.toLowerCase()));
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

function cut(w: string): string {
  return w.length <= MAX_WORD ? w : [...w].slice(0, MAX_WORD).join("");
}

function quoteLexeme(w: string): string {
  return `'${w.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** The fields of a symbol that search reads, by weight: A name, B qualified name, C signature, D docstring. */
export interface SymbolText {
  name: string;
  qualifiedName: string;
  signature: string | null;
  docstring: string | null;
}

/**
 * A tsvector literal (`'json':1A,2B 'decoder':3A …`) of the symbol's words, each field's words at their own
 * positions with the field's weight. Positions stay below PostgreSQL's 16383.
 */
export function symbolTsvectorLiteral(s: SymbolText): string {
  const positions = new Map<string, string[]>();
  let pos = 0;
  const fields: Array<[string[], string]> = [
    [identifierWords(s.name, 40), "A"],
    [identifierWords(s.qualifiedName, 80), "B"],
    [identifierWords(s.signature, 200), "C"],
    [identifierWords(s.docstring), "D"],
  ];
  for (const [words, weight] of fields) {
    for (const w of words) {
      pos++;
      const list = positions.get(w) ?? [];
      if (list.length < 8) list.push(`${pos}${weight}`);
      positions.set(w, list);
    }
  }
  return [...positions].map(([w, ps]) => `${quoteLexeme(w)}:${ps.join(",")}`).join(" ");
}

/**
 * A tsquery literal for a search: every query token must match (AND) as its whole word or all of its parts, each
 * as a prefix (`jsondecod:*` | `json:* & decod:*`). Null when the query has no word.
 */
export function symbolTsqueryLiteral(query: string): string | null {
  const clauses: string[] = [];
  for (const m of query.matchAll(TOKEN)) {
    const parts = identifierParts(m[0]).map((p) => cut(p.toLowerCase()));
    if (!parts.length) continue;
    const whole = `${quoteLexeme(cut(parts.join("")))}:*`;
    clauses.push(parts.length > 1 ? `(${whole} | (${parts.map((p) => `${quoteLexeme(p)}:*`).join(" & ")}))` : whole);
    if (clauses.length >= 16) break;
  }
  return clauses.length ? clauses.join(" & ") : null;
}

/**
 * What ranks names by their words: the query's identifier parts in order (`store code`, `storeCode` and
 * `store_code` → store, code), `joined` their concatenation (a name without `_`/`$`, lower-cased, equals it when
 * its words are these), `phrase` a tsquery literal of the parts as consecutive name words (weight A, whole words;
 * null for one part), `all` a tsquery literal requiring every query token as a whole name word or all of its parts
 * as whole name words (null when the query has no word).
 */
export function nameWordQueries(query: string): {
  parts: string[];
  joined: string;
  phrase: string | null;
  all: string | null;
} {
  const parts: string[] = [];
  const clauses: string[] = [];
  for (const m of query.matchAll(TOKEN)) {
    const ps = identifierParts(m[0]).map((p) => cut(p.toLowerCase()));
    if (!ps.length) continue;
    parts.push(...ps);
    const whole = `${quoteLexeme(cut(ps.join("")))}:A`;
    clauses.push(ps.length > 1 ? `(${whole} | (${ps.map((p) => `${quoteLexeme(p)}:A`).join(" & ")}))` : whole);
    if (clauses.length >= 16) break;
  }
  return {
    parts,
    joined: parts.join(""),
    phrase: parts.length > 1 ? parts.map((p) => `${quoteLexeme(p)}:A`).join(" <-> ") : null,
    all: clauses.length ? clauses.join(" & ") : null,
  };
}

/**
 * The last identifier of a dependency target as resolution matches it against symbol names: `loads` of
 * `json.loads`, `Reader` of `io::Reader`, `memory-search` of `./tools/memory-search.ts`, `decoder` of `json.decoder`.
 */
export function targetLeaf(target: string, kind: string): string {
  if (SIMPLE_TARGET.test(target)) return target.slice(0, 200); // a bare identifier: most calls
  let t = target.trim().replace(/^["'<]|[">']$/g, "");
  if (kind === "imports") {
    t = t.replace(/\/+$/, "");
    const slash = t.lastIndexOf("/");
    if (slash >= 0) t = t.slice(slash + 1);
    t = t.replace(/\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|cs|c|cc|cpp|cxx|hh?|hpp|hxx|sh|bash)$/i, "");
  }
  const pieces = t.split(/::|\.|->|#|\\/).filter(Boolean);
  return (pieces.at(-1) ?? t).slice(0, 200);
}
