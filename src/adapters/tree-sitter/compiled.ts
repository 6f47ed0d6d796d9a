/**
 * A language ready to extract with: its loaded grammar, one parser, and its four queries compiled into ONE query
 * (one pass over the tree instead of four: about 3× less query time), with the pattern ranges that tell which of
 * the four a match came from (read from where each pattern starts in the joined source, so each query is compiled
 * once: a grammar as large as C++'s takes ≈ 0.2 s per compile, in every worker). Built on first use per language and kept for the life of the process.
 */
import { Parser, Query, type Language } from "web-tree-sitter";
import { PegasError } from "../../errors.ts";
import { SYMBOL_KINDS } from "../../ports/models/symbol-extractor.ts";
import { grammar } from "./grammars.ts";
import type { LanguageQueries, LanguageSpec } from "./languages/spec.ts";

/** Which of a spec's queries a pattern belongs to. */
export type QueryPart = keyof LanguageQueries;

/** The order of the parts inside the combined query. */
const PARTS: readonly QueryPart[] = ["definitions", "imports", "calls", "inherits"];

/** A spec with its parser and combined query. */
export interface CompiledLanguage {
  spec: LanguageSpec;
  parser: Parser;
  query: Query;
  /** `partOf[patternIndex]`: the part a pattern of {@link query} came from. */
  partOf: readonly QueryPart[];
}

// Keyed by the spec object, not its language: a test's ad-hoc spec never shadows the registered one.
const compiled = new WeakMap<LanguageSpec, Promise<CompiledLanguage>>();

/**
 * The compiled form of `spec` (cached per spec object).
 * @throws PegasError INTERNAL: grammar not loadable (grammars.ts), or a query that does not compile against it or
 *   uses an unknown `@definition.<kind>`.
 */
export function compileLanguage(spec: LanguageSpec): Promise<CompiledLanguage> {
  let entry = compiled.get(spec);
  if (!entry) {
    entry = build(spec);
    entry.catch(() => compiled.delete(spec));
    compiled.set(spec, entry);
  }
  return entry;
}

async function build(spec: LanguageSpec): Promise<CompiledLanguage> {
  const language = await grammar(spec.grammar);
  const present = PARTS.filter((part) => spec.queries[part]);
  const sources = present.map((part) => spec.queries[part]!);
  // Where each part begins in the joined source: a pattern belongs to the last part starting at or before it.
  const starts: number[] = [];
  let offset = 0;
  for (const source of sources) {
    starts.push(offset);
    offset += source.length + 1;
  }
  let query: Query;
  try {
    query = new Query(language, sources.join("\n"));
  } catch (err) {
    // Compiled once, together; only on failure each part alone, so that the error names the part it is in.
    for (const part of present) compileQuery(spec, language, part, spec.queries[part]!).delete();
    throw new PegasError(
      "INTERNAL",
      `the queries of language '${spec.language}' compile alone but not together: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  try {
    checkKinds(spec, query);
    const partOf: QueryPart[] = [];
    for (let i = 0; i < query.patternCount(); i++) {
      const at = query.startIndexForPattern(i);
      let k = starts.length - 1;
      while (k > 0 && starts[k] > at) k--;
      partOf.push(present[k]);
    }
    const parser = new Parser();
    parser.setLanguage(language);
    return { spec, parser, query, partOf };
  } catch (err) {
    query.delete();
    throw err;
  }
}

/** @throws PegasError INTERNAL for a `@definition.<kind>` capture whose kind is not a SymbolKind. */
function checkKinds(spec: LanguageSpec, query: Query): void {
  for (const name of query.captureNames) {
    if (!name.startsWith("definition.")) continue;
    const kind = name.slice("definition.".length);
    if (!(SYMBOL_KINDS as readonly string[]).includes(kind)) {
      throw new PegasError(
        "INTERNAL",
        `the definitions query of language '${spec.language}' captures '@${name}': '${kind}' is not a symbol kind`,
        {
          hint: `use one of ${SYMBOL_KINDS.join(", ")}`,
        },
      );
    }
  }
}

/**
 * Compiles one query of a spec.
 * @throws PegasError INTERNAL naming the language, the query and tree-sitter's reason (bad node type, field, syntax).
 */
export function compileQuery(spec: LanguageSpec, language: Language, which: QueryPart, source: string): Query {
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
