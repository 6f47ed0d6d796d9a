/**
 * A language ready to extract with: its loaded grammar, one parser and its four compiled queries. Built on first
 * use per language and kept for the life of the process (compiling a query costs milliseconds; a file's
 * extraction must not pay it).
 */
import { Parser, Query, type Language } from "web-tree-sitter";
import { PegasError } from "../../errors.ts";
import type { CodeLanguage } from "../../ports/symbol-extractor.ts";
import { grammar } from "./grammars.ts";
import type { LanguageQueries, LanguageSpec } from "./languages/spec.ts";

/** A spec with its parser and compiled queries (a query is null when the spec has none). */
export interface CompiledLanguage {
  spec: LanguageSpec;
  parser: Parser;
  definitions: Query;
  imports: Query | null;
  calls: Query | null;
  inherits: Query | null;
}

const compiled = new Map<CodeLanguage, Promise<CompiledLanguage>>();

/**
 * The compiled form of `spec` (cached by language).
 * @throws PegasError INTERNAL: grammar not loadable (grammars.ts), or a query that does not compile against it.
 */
export function compileLanguage(spec: LanguageSpec): Promise<CompiledLanguage> {
  let entry = compiled.get(spec.language);
  if (!entry) {
    entry = build(spec);
    entry.catch(() => compiled.delete(spec.language));
    compiled.set(spec.language, entry);
  }
  return entry;
}

async function build(spec: LanguageSpec): Promise<CompiledLanguage> {
  const language = await grammar(spec.grammar);
  const parser = new Parser();
  parser.setLanguage(language);
  const q = spec.queries;
  return {
    spec,
    parser,
    definitions: compileQuery(spec, language, "definitions", q.definitions),
    imports: q.imports ? compileQuery(spec, language, "imports", q.imports) : null,
    calls: q.calls ? compileQuery(spec, language, "calls", q.calls) : null,
    inherits: q.inherits ? compileQuery(spec, language, "inherits", q.inherits) : null,
  };
}

/**
 * Compiles one query of a spec.
 * @throws PegasError INTERNAL naming the language, the query and tree-sitter's reason (bad node type, field, syntax).
 */
export function compileQuery(spec: LanguageSpec, language: Language, which: keyof LanguageQueries, source: string): Query {
  try {
    return new Query(language, source);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new PegasError("INTERNAL", `the ${which} query of language '${spec.language}' does not compile: ${reason}`, {
      hint: `fix src/adapters/tree-sitter/languages/${spec.language}.ts against the grammar's src/node-types.json`,
      cause: err,
    });
  }
}
