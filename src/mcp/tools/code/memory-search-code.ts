/** memory_search_code tool. */
import { z } from "zod";
import { DOC_EXCERPT, searchCode } from "../../../core/code/query.ts";
import { withoutNulls } from "../../render.ts";
import { responseFormat } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { conciseSearchCode, renderSearchCode } from "./render.ts";
import { CODE_LANGUAGES, SYMBOL_KINDS } from "../../../core/services.ts";

const kind = z.enum(SYMBOL_KINDS);
const language = z.enum(CODE_LANGUAGES);

/** The shape of a symbol in code tool results. */
export const symbolShape = {
  symbol_id: z.string().describe("symbol:<id>, for memory_code_graph"),
  name: z.string(),
  qualified_name: z
    .string()
    .describe("dotted path inside its module (HTMLParser.feed); a file's module symbol has its module name"),
  kind: z.string(),
  language: z.string(),
  repo: z.string(),
  path: z.string().describe("repository-relative path"),
  line: z.number().int().describe("first line, 1-based"),
  line_end: z.number().int().describe("last line, inclusive"),
  location: z.string().describe("path:line"),
  signature: z.string().optional(),
  docstring: z.string().optional().describe(`the docstring or leading comment, cut to ${DOC_EXCERPT} characters`),
};

/** Lexical search over stored code symbols. */
export const memorySearchCode: ToolDef = {
  name: "memory_search_code",
  title: "Search code symbols",
  description: "Find stored code symbols by name or docstring words (any language), with path:line.",
  details:
    "Search the code symbols stored by memory_store_code by name, qualified name (HTMLParser.feed), signature or " +
    "docstring words. Identifier-aware: camelCase and snake_case are split (`json decoder` finds JSONDecoder, " +
    "`parse response` finds parse_http_response), words match as prefixes, and stemmed in Russian and English " +
    "(`сумма чисел` finds a docstring 'Вычисляет сумму всех чисел', ё = е; match = stem, after matches as written); ranked exact name > qualified name > " +
    "signature > docstring; a dotted query (html.parser.HTMLParser.feed) ranks the symbol whose module-qualified name " +
    "ends with it first; among word matches, a name made of exactly the query's words (`store code` → storeCode) comes " +
    "first, then names holding every query word whole, then prefixes; then documented and public first; a trigram " +
    "fallback catches typos (match = trigram). An unknown `repo` is NOT_FOUND naming the stored repositories. " +
    "Each hit: name, qualified name, kind, language, repo, path:line, signature, docstring excerpt, score.",
  fieldDetails: {
    query: "a name, qualified name or words",
    kind: "only symbols of this kind (or these kinds)",
    language: "only this language (or these)",
    repo: "only this repository (as memory_store_code reported it; an unknown one is NOT_FOUND)",
    limit: "hits, default 10, at most 50",
  },
  inputSchema: {
    query: z.string().min(1).max(500),
    kind: z.union([kind, z.array(kind).min(1)]).optional(),
    language: z.union([language, z.array(language).min(1)]).optional(),
    repo: z.string().min(1).max(4096).optional(),
    limit: z.number().int().min(1).max(50).optional(),
    response_format: responseFormat,
  },
  outputSchema: {
    query: z.string(),
    hits: z.array(
      z.object({
        ...symbolShape,
        line_end: symbolShape.line_end.optional(),
        score: z
          .number()
          .optional()
          .describe(
            "dotted query ending the module-qualified name 5–5.999, name 3.5–4.999, qualified name 2.5–3.999, words as written 0.5–1.999 (1.5+ when the name's words are exactly the query's, 1+ when the name holds every query word; plus weighted rank), stems 0–0.499, trigram 0–0.5 (similarity/2)",
          ),
        match: z
          .enum(["name", "qualified_name", "text", "stem", "trigram"])
          .describe(
            "where the query matched: the whole name, the qualified name, every word as written, only through stems, or by trigram similarity",
          ),
      }),
    ),
    took_ms: z.number().optional(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const r = await searchCode(services, args);
    return { ...r, hits: r.hits.map((h) => withoutNulls({ ...h })) };
  },
  render: renderSearchCode,
  concise: conciseSearchCode,
};
