/**
 * The help of the commands that run an MCP tool: usage, and which tool field each argument and option fills (the
 * descriptions and types come from the tool definitions through tools.generated.json).
 */
import { type CommandHelp, JSON_OPTION } from "./spec.ts";

/** Commands that run an MCP tool, in the order the top-level help lists them. */
export const TOOL_COMMANDS = {
  ingest: {
    usage: ["ingest <path|url|->... [--title T] [--observed-at DATE]"],
    tool: "memory_ingest",
    notes:
      "From the command line any file or directory you name is read (PEGAS_INGEST_ROOTS bounds the MCP tool only). " +
      "Several sources are ingested in turn; one that fails is reported and the others still run (--json: one " +
      "result per source). " +
      "Prints one line per document; errors and warnings go to stderr, and so does progress (a bar on a terminal, " +
      "else a line every 2 s). Exit 1 when a source failed or gave no text.",
    args: [
      {
        name: "<path|url|->...",
        text:
          "files or directories (text, Markdown, HTML, PDF, EPUB), http(s) URLs, or - for standard input; --title " +
          "goes with one source only",
      },
    ],
    options: [
      { name: "title", value: "T", field: "title" },
      { name: "observed-at", value: "DATE", field: "observed_at" },
      JSON_OPTION,
    ],
  },
  search: {
    usage: ["search <query> [--k N] [--type T]..."],
    tool: "memory_search",
    notes: "The words of the query may be given unquoted. Prints the cited hits; the next page is MCP-only.",
    args: [{ name: "<query>", field: "query" }],
    options: [{ name: "k", value: "N", field: "k" }, { name: "type", value: "T", field: "types" }, JSON_OPTION],
  },
  context: {
    usage: ["context <question> [--budget N] [--k N] [--depth H]"],
    tool: "memory_get_context",
    notes: "Prints the Markdown block; the tokens used go to stderr.",
    args: [{ name: "<question>", field: "question" }],
    options: [
      { name: "budget", value: "N", field: "budget_tokens" },
      { name: "k", value: "N", field: "k" },
      { name: "depth", value: "H", field: "hops" },
      JSON_OPTION,
    ],
  },
  get: {
    usage: ["get <atom_id> [--limit N]", "get <entity:<id> | name>"],
    tool: "memory_get",
    notes:
      "An atom prints whole, with the measurements its claim states; an entity prints its cited profile as " +
      "memory_get gives it, or the candidates when several entities answer to the name.",
    args: [
      { name: "<atom_id>", field: "atom_id", text: "(12 or atom:12)" },
      { name: "<entity:<id> | name>", field: "entity", text: '(entity:7, «Андрей Ефимыч», "Kiyo")' },
    ],
    options: [{ name: "limit", value: "N", field: "max_links" }, JSON_OPTION],
  },
  link: {
    usage: ["link <src> <dst> --kind K [--confidence C | --remove]"],
    tool: "memory_link",
    args: [
      { name: "<src>", field: "src" },
      { name: "<dst>", field: "dst" },
    ],
    options: [
      { name: "kind", value: "K", field: "kind" },
      { name: "confidence", value: "C", field: "confidence" },
      { name: "remove", field: "remove" },
      JSON_OPTION,
    ],
  },
  forget: {
    usage: ["forget (--atom N | --doc N | --entity E) --reason R [--undo]"],
    tool: "memory_forget",
    options: [
      { name: "atom", value: "N", field: "atom_id" },
      { name: "doc", value: "N", field: "doc_id" },
      { name: "entity", value: "E", field: "entity" },
      { name: "reason", value: "R", field: "reason" },
      { name: "undo", field: "undo" },
      JSON_OPTION,
    ],
  },
  stats: { usage: ["stats"], tool: "memory_stats", options: [JSON_OPTION] },
  verify: {
    usage: ["verify [--atom N | --doc N] [--limit N]", "verify --revert N"],
    tool: "memory_verify",
    notes: "Prints the status changes; warnings go to stderr.",
    options: [
      { name: "atom", value: "N", field: "atom_id" },
      { name: "doc", value: "N", field: "doc_id" },
      { name: "limit", value: "N", field: "limit" },
      { name: "revert", value: "N", field: "revert_change_id" },
      JSON_OPTION,
    ],
  },
  unmerge: {
    usage: ["unmerge <merge_id>"],
    tool: "memory_unmerge",
    args: [{ name: "<merge_id>", field: "merge_id" }],
    options: [JSON_OPTION],
  },
  infer: {
    usage: ["infer [--rule ID]... [--max-iterations N] [--max-new-edges N]"],
    tool: "memory_infer",
    notes: "Exit 1 when a rule named with --rule was ignored; a cap hit exits 65 (LIMIT_EXCEEDED) and keeps nothing.",
    options: [
      { name: "rule", value: "ID", field: "rule_ids" },
      { name: "max-iterations", value: "N", field: "max_iterations" },
      { name: "max-new-edges", value: "N", field: "max_new_edges" },
      JSON_OPTION,
    ],
  },
  graph: {
    usage: [
      "graph <node> [--depth N] [--direction out|in|both] [--kind K]... [--limit N]",
      "graph --path <from> <to> [--depth N] [--direction D] [--kind K]...",
      "graph --counters",
    ],
    tool: "memory_query_graph",
    notes: "Reads Memgraph when it is configured, else SQL.",
    args: [
      { name: "<node>", field: "node", text: "(atom:<id>, symbol:<id> or doc:<id>)" },
      { name: "<from> <to>", text: "with --path: the two ends of the path" },
    ],
    options: [
      { name: "depth", value: "N", field: "depth" },
      { name: "direction", value: "D", field: "direction" },
      { name: "kind", value: "K", field: "kinds" },
      { name: "limit", value: "N", field: "limit" },
      { name: "path", text: "path mode: one shortest path between the two nodes given (longest: --depth, default 6)" },
      { name: "counters", text: "counters mode: nodes by label, edges by kind" },
      JSON_OPTION,
    ],
  },
  code: {
    usage: ["code <path> [--repo R] [--include G]... [--exclude G]... [--language L]..."],
    tool: "memory_store_code",
    notes:
      "From the command line any directory you name is read (PEGAS_INGEST_ROOTS bounds the MCP tool only). " +
      "Progress (a bar on a terminal, else a line every 2 s), noted files and errors go to stderr.",
    args: [{ name: "<path>", field: "path" }],
    options: [
      { name: "repo", value: "R", field: "repo" },
      { name: "include", value: "G", field: "include" },
      { name: "exclude", value: "G", field: "exclude" },
      { name: "language", value: "L", field: "languages" },
      JSON_OPTION,
    ],
  },
  "code-search": {
    usage: ["code-search <query> [--kind K]... [--language L]... [--repo R] [--limit N]"],
    tool: "memory_search_code",
    args: [{ name: "<query>", field: "query" }],
    options: [
      { name: "kind", value: "K", field: "kind" },
      { name: "language", value: "L", field: "language" },
      { name: "repo", value: "R", field: "repo" },
      { name: "limit", value: "N", field: "limit" },
      JSON_OPTION,
    ],
  },
  "code-graph": {
    usage: ["code-graph <repo> [<symbol>] [--depth N] [--direction D] [--kind K]... [--limit N]"],
    tool: "memory_code_graph",
    notes: "Prints JSON.",
    args: [
      { name: "<repo>", field: "repo" },
      { name: "<symbol>", field: "symbol" },
    ],
    options: [
      { name: "depth", value: "N", field: "depth" },
      { name: "direction", value: "D", field: "direction" },
      { name: "kind", value: "K", field: "kinds" },
      { name: "limit", value: "N", field: "limit" },
    ],
  },
  gaps: {
    usage: ["gaps [--status open|answered|dismissed|all] [--limit N]"],
    tool: "memory_list_gaps",
    options: [
      { name: "status", value: "S", field: "status" },
      { name: "limit", value: "N", field: "limit" },
      JSON_OPTION,
    ],
  },
  "gap-add": {
    usage: ["gap-add <question> [--reason R] [--priority 1..5]"],
    tool: "memory_add_gap",
    args: [{ name: "<question>", field: "question" }],
    options: [
      { name: "reason", value: "R", field: "reason" },
      { name: "priority", value: "P", field: "priority" },
      JSON_OPTION,
    ],
  },
} satisfies Record<string, CommandHelp>;
