/** memory_code_graph tool. */
import { z } from "zod";
import { FILE_EDGES, codeGraph } from "../../../core/code/graph.ts";
import { withoutNulls } from "../../render.ts";
import { responseFormat } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { symbolShape } from "./memory-search-code.ts";
import { CODE_GRAPH_NODES, conciseCodeGraph, renderCodeGraph } from "./render.ts";

const symbol = z.object(symbolShape);
/** A symbol in full (detailed) or by its id, name, kind and place (concise). */
const symbolBrief = symbol
  .partial()
  .required({ symbol_id: true, qualified_name: true, kind: true, path: true, line: true });
const node = z.object({
  id: z.string().describe("symbol:<id>, name:<unresolved target>, module:<name>, atom:<id> or doc:<id>"),
  label: z.string().describe("CodeSymbol, Name, Module, Atom or Document"),
  name: z.string().optional().describe("qualified name of a symbol, else the name or uri"),
  distance: z
    .number()
    .int()
    .optional()
    .describe("hops from the root; absent for a file's own dependencies added beside the walk"),
  kind: z.string().optional().describe("concise: the symbol's kind"),
  location: z.string().optional().describe("concise: the symbol's path:line"),
  symbol: symbol.optional(),
});
const edge = z.object({
  key: z.string().optional().describe("<table>:<row id>"),
  src: z.string(),
  dst: z.string(),
  kind: z.string().describe("imports, calls, inherits, defines, …"),
  confidence: z
    .number()
    .optional()
    .describe("1 extracted/same file, 0.95 via an import, 0.8 same package, 0.7 one of several overloads"),
  inferred: z.boolean().optional(),
  line: z
    .number()
    .int()
    .optional()
    .describe(
      "1-based line of the call, import or inherits site in the source symbol's file; absent for other edges (atom links, memory_link's)",
    ),
});
const summary = z.object({
  files: z.object({
    total: z.number().int(),
    parsed: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
  symbols: z.object({
    total: z.number().int(),
    byKind: z.record(z.string(), z.number().int()),
    byLanguage: z.record(z.string(), z.number().int()),
  }),
  dependencies: z.record(z.string(), z.object({ resolved: z.number().int(), unresolved: z.number().int() })),
  mostDependedOn: z.array(
    z.object({ symbol: symbolBrief, dependents: z.number().int().describe("resolved incoming calls and inherits") }),
  ),
  moduleImports: z
    .array(z.object({ from: z.string(), to: z.string() }))
    .describe("file → file imports inside the repository (at most 500)"),
  moduleImports_total: z.number().int().optional(),
  externalImports: z.array(z.object({ name: z.string(), importers: z.number().int() })),
  externalImports_total: z.number().int().optional(),
});

/** The dependency graph around a symbol or file, or a repository overview. */
export const memoryCodeGraph: ToolDef = {
  name: "memory_code_graph",
  title: "Code graph",
  description: "What a code symbol or file uses and is used by; without symbol, an overview of the repository.",
  details:
    "The symbol and dependency graph of a stored repository. With `symbol` (symbol:<id> from memory_search_code, a " +
    "qualified name such as HTMLParser.feed, or a file path such as src/mcp/server.ts): the nodes within `depth` hops " +
    "(default 1, at most 5; direction both by default, `out` for what it uses, `in` for what uses it) and the edges " +
    "between them (imports, calls, inherits, defines, each dependency with the `line` of its site; `kinds` filters: a " +
    "standard kind, or one memory_link/memory_infer stored in this repository's graph; an unknown kind is an error " +
    "listing the valid ones); for a file also every dependency its symbols write " +
    "(`file.dependencies`: line, from, target, resolved location). Unresolved targets are `name:` nodes. A name that " +
    "matches symbols in several files or of several kinds is an error listing them as symbol:<id> with path:line; the " +
    "declarations of one overloaded function are one symbol (the first, with `overloads`). Read from the " +
    "graph projection (Memgraph) when configured, else SQL. Without `symbol`: a repository overview — files, symbols by " +
    "kind and language, dependency counts, most-depended-on symbols, the module import graph and external imports " +
    "(not filtered by kind: `kinds` without `symbol` is an error).",
  fieldDetails: {
    repo: "the repository, as memory_store_code reported it",
    depth: "hops, default 1",
    direction: "follow edges out of, into, or both ways (default both)",
    limit: `most nodes (default ${CODE_GRAPH_NODES}), or most-depended-on symbols in the overview (default 20)`,
  },
  inputSchema: {
    repo: z.string().min(1).max(4096),
    symbol: z.string().min(1).max(4096).optional().describe("symbol:<id>, a name or a file path"),
    depth: z.number().int().min(1).max(5).optional(),
    kinds: z
      .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/))
      .max(64)
      .optional()
      .describe("edge kinds, e.g. calls, imports"),
    direction: z.enum(["out", "in", "both"]).optional(),
    limit: z.number().int().min(1).max(500).optional(),
    response_format: responseFormat,
  },
  outputSchema: {
    repo: z.string(),
    root: symbolBrief.optional().describe("the symbol asked for; absent for the overview"),
    overloads: z
      .number()
      .int()
      .min(2)
      .optional()
      .describe(
        "present when the root is the first of this many declarations of one overloaded symbol (same file, qualified name and kind)",
      ),
    graph: z.string().optional().describe("who answered: memgraph or sql"),
    degraded: z.string().optional().describe("present when Memgraph was down and SQL answered"),
    nodes: z.array(node).optional(),
    edges: z.array(edge).optional(),
    truncated: z.boolean().optional(),
    nodes_total: z.number().int().optional().describe("nodes in all when the list is cut (concise: 50)"),
    edges_total: z.number().int().optional().describe("edges in all when the list is cut (concise: 50)"),
    file: z
      .object({
        dependencies: z.array(
          z.object({
            line: z.number().int().nullable(),
            kind: z.string(),
            from: z.string(),
            target: z.string(),
            resolved: z.string().nullable(),
          }),
        ),
        truncated: z.boolean(),
      })
      .optional()
      .describe(`for a file: what its symbols import, call and inherit (at most ${FILE_EDGES}, by line)`),
    summary: summary.optional(),
    took_ms: z.number().optional(),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const out = await codeGraph(services, {
      ...args,
      limit: args.limit ?? (args.symbol ? CODE_GRAPH_NODES : undefined),
    });
    const sym = (s: unknown) => (s ? withoutNulls({ ...(s as Record<string, unknown>) }) : s);
    const summary = out.summary as { mostDependedOn: Array<{ symbol: unknown }> } | undefined;
    return withoutNulls({
      ...out,
      root: sym(out.root),
      ...(Array.isArray(out.nodes)
        ? { nodes: out.nodes.map((n) => withoutNulls({ ...n, ...(n.symbol ? { symbol: sym(n.symbol) } : {}) })) }
        : {}),
      ...(Array.isArray(out.edges) ? { edges: out.edges.map((e) => withoutNulls(e)) } : {}),
      ...(summary
        ? {
            summary: {
              ...summary,
              mostDependedOn: summary.mostDependedOn.map((m) => ({ ...m, symbol: sym(m.symbol) })),
            },
          }
        : {}),
    });
  },
  render: renderCodeGraph,
  concise: conciseCodeGraph,
};
