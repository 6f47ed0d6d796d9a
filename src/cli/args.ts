/**
 * Command-line parsing with node:util `parseArgs`: global options become the highest configuration layer.
 */
import { parseArgs } from "node:util";
import type { ConfigLayer } from "../config.ts";
import { invalidInput } from "../errors.ts";

/** Parsed command line. */
export interface Cli {
  command: string;
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
  flags: ConfigLayer;
  configPath?: string;
}

const OPTIONS = {
  config: { type: "string" },
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
  "no-migrate": { type: "boolean" },
  "log-level": { type: "string" },
  json: { type: "boolean" },
  k: { type: "string" },
  type: { type: "string", multiple: true },
  title: { type: "string" },
  atom: { type: "string" },
  doc: { type: "string" },
  limit: { type: "string" },
  revert: { type: "string" },
  retry: { type: "boolean" },
  once: { type: "boolean" },
  "retry-dead": { type: "boolean" },
  model: { type: "string" },
  dim: { type: "string" },
  depth: { type: "string" },
  direction: { type: "string" },
  kind: { type: "string", multiple: true },
  path: { type: "boolean" },
  counters: { type: "boolean" },
  recreate: { type: "boolean" },
  repo: { type: "string" },
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  language: { type: "string", multiple: true },
  reason: { type: "string" },
  undo: { type: "boolean" },
  remove: { type: "boolean" },
  confidence: { type: "string" },
  budget: { type: "string" },
  rule: { type: "string", multiple: true },
  "max-iterations": { type: "string" },
  "max-new-edges": { type: "string" },
  status: { type: "string" },
  priority: { type: "string" },
  gap: { type: "string" },
  "max-urls": { type: "string" },
  "budget-s": { type: "string" },
  http: { type: "string" },
  out: { type: "string" },
  embeddings: { type: "boolean" },
  url: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

/** Commands of the executable. */
export const COMMANDS = [
  "serve",
  "migrate",
  "ingest",
  "search",
  "stats",
  "verify",
  "distill",
  "unmerge",
  "sync",
  "rebuild",
  "reembed",
  "graph",
  "code",
  "code-search",
  "code-graph",
  "get",
  "link",
  "forget",
  "context",
  "infer",
  "gaps",
  "gap-add",
  "research",
  "doctor",
  "healthcheck",
  "export",
  "import",
] as const;

/** Parses argv (without the executable). @throws PegasError INVALID_INPUT for unknown options or commands. */
export function parseCli(argv: string[]): Cli {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw invalidInput((err as Error).message, "see `pegas-memory --help`");
  }
  const { values, positionals } = parsed;
  const command = positionals[0] ?? "serve";
  if (!values.help && !values.version && !(COMMANDS as readonly string[]).includes(command)) {
    throw invalidInput(`unknown command '${command}'`, `use one of ${COMMANDS.join(", ")} (see --help)`);
  }
  const flags: ConfigLayer = {
    data_dir: values["data-dir"],
    database_url: values["database-url"],
    migrate: values["no-migrate"] ? false : undefined,
    log_level: values["log-level"],
    http: values.http,
  };
  return { command, positionals: positionals.slice(1), values, flags, configPath: values.config };
}

/** Text of `--help`. */
export const HELP = `pegas-memory — long-term memory of a research agent, served over MCP

Usage:
  pegas-memory [serve] [--http HOST:PORT]
                                       MCP over stdin/stdout (what an MCP client runs); with --http, MCP over
                                       Streamable HTTP at /mcp, the admin page at /ui, /healthz, /readyz and
                                       /metrics instead
  pegas-memory doctor                  check the configuration and every dependency; exit 1 naming what fails
  pegas-memory healthcheck [--url U]   exit 0 when the running server's /healthz answers (container probe)
  pegas-memory export [--out FILE] [--embeddings]
                                       every pm_* table but the outbox as JSON Lines (default: stdout)
  pegas-memory import <file|->         load an export into an empty store, then embed atoms that lack vectors
  pegas-memory migrate                 apply database migrations
  pegas-memory ingest <path|url|->     ingest a file or directory (text, Markdown, HTML, PDF, EPUB), a URL,
                                       or standard input (-)
  pegas-memory search <query> [--k N]  hybrid search, cited hits
  pegas-memory context <question> [--budget N] [--k N] [--depth H]
                                       cited context for a question, packed to N tokens (default 2000)
  pegas-memory get <atom_id>           one atom whole: citations, status history, links
  pegas-memory link <src> <dst> --kind K [--confidence C | --remove]
                                       assert a relation (atom ids, or symbol:<id>)
  pegas-memory forget (--atom N | --doc N) --reason R [--undo]
                                       retract an atom or a document's atoms (a tombstone), or restore them
  pegas-memory stats                   counters
  pegas-memory infer [--rule ID]... [--max-iterations N] [--max-new-edges N]
                                       apply logical_rule atoms to a fixpoint (memory_infer)
  pegas-memory gaps [--status open|answered|dismissed|all] [--limit N]
                                       research gaps, most urgent first, and suggested gaps (searches that
                                       missed repeatedly)
  pegas-memory gap-add <question> [--reason R] [--priority 1..5]
                                       add a research gap (a rewording of an open gap raises its priority)
  pegas-memory research [--gap ID] [--max-urls N] [--budget-s S]
                                       look for answers to open gaps on the web through the SearxNG-compatible
                                       backend at PEGAS_SEARCH_URL: ingest results (snippets for blocked pages),
                                       verify, mark gaps answered; progress on stderr (defaults: 8 URLs, 120 s)
  pegas-memory verify [--atom N | --doc N] [--limit N]
                                       verify atoms (default: the oldest candidates, 50): contradictions,
                                       duplicates, confirmation by independent sites; prints status changes
  pegas-memory verify --revert N       undo recorded status change N
  pegas-memory distill --retry [--doc N] [--limit N]
                                       distill quarantined chunks again (default 20 entries)
  pegas-memory unmerge <merge_id>      undo a near-duplicate merge
  pegas-memory sync [--once] [--retry-dead]
                                       apply the outbox to Qdrant / Memgraph: all that is due, then exit
                                       (--once), or following until SIGTERM; --retry-dead revives dead letters
  pegas-memory rebuild vector|graph|all [--recreate]
                                       drop and refill projections from the database alone (progress on stderr);
                                       a Qdrant collection of another dimension is refused unless --recreate
  pegas-memory reembed --model M [--dim N]
                                       embed every atom for model M (and fill its own Qdrant collection);
                                       then switching is a config change (embed_model)
  pegas-memory graph <node> [--depth N] [--direction out|in|both] [--kind K] [--limit N]
  pegas-memory graph --path <from> <to> | --counters
                                       graph reads; nodes are atom:<id>, symbol:<id>, doc:<id>
  pegas-memory code <path> [--repo R] [--include G] [--exclude G] [--language L]
                                       store a code repository's symbols and dependencies (tree-sitter, twelve
                                       languages; incremental by file hash; .gitignore honoured)
  pegas-memory code-search <query> [--kind K] [--language L] [--repo R] [--limit N]
                                       find symbols by name, qualified name, signature, docstring
  pegas-memory code-graph <repo> [<symbol>] [--depth N] [--kind K] [--direction D]
                                       a symbol's dependency subgraph, or the repository summary

Options:
  --json               machine-readable output (ingest, search, stats, verify)
  --k N                hits to show (search; default 10, at most 50)
  --type T             only atoms of type T (search; repeatable)
  --title T            document title (ingest)
  --atom N, --doc N    verify one atom, or one document's atoms (verify); one document's entries (distill)
  --limit N            most atoms to verify (verify; default 50, at most 1000), entries to retry (distill),
                       nodes to show (graph; default 100)
  --retry              distill the quarantined chunks again (distill)
  --revert N           undo status change N (verify)
  --reason R, --undo   why (forget; recorded in the history); restore what a forget retracted (forget)
  --confidence C       0..1 (link; default 0.8)
  --remove             delete the link instead of making it (link; inferred edges resting on it are retracted)
  --budget N           token budget (context; default 2000)
  --once               apply what is due and exit (sync)
  --retry-dead         make dead-lettered outbox rows pending again (sync)
  --model M, --dim N   embedding model and its dimension (reembed)
  --depth N            hops (graph; default 1, at most 5; with --path the longest path, default 6)
  --direction D        out, in or both (graph)
  --kind K             only edges of kind K (graph, code-graph with a symbol; repeatable); symbol kind (code-search)
  --repo R             repository name (code, code-search)
  --include G, --exclude G   glob patterns of files to take or leave (code; repeatable; an include naming a
                             skipped directory, e.g. node_modules/x/**, walks it)
  --language L         only files of language L (code, code-search; repeatable)
  --status S           gaps of status S: open (default), answered, dismissed, all (gaps)
  --priority P         1 least .. 5 most urgent, default 3 (gap-add; --reason R says why the gap matters)
  --gap ID             research this open gap only (research)
  --max-urls N, --budget-s S   most URLs fetched (default 8) and seconds spent (default 120) (research)
  --http HOST:PORT     serve HTTP too (serve; env PEGAS_HTTP; a token, PEGAS_HTTP_TOKEN, beyond loopback)
  --out FILE           write the export to FILE (export; default stdout)
  --embeddings         include stored embeddings (export)
  --url U              the /healthz URL to probe (healthcheck; default from PEGAS_HTTP)
  --config FILE        config file (default $XDG_CONFIG_HOME/pegas-memory/config.toml)
  --data-dir DIR       embedded database directory (env PEGAS_DATA_DIR)
  --database-url URL   PostgreSQL instead of the embedded database (env PEGAS_DATABASE_URL)
  --no-migrate         do not apply migrations when the database opens
  --log-level LEVEL    debug | info | warn | error | silent (logs go to stderr)
  -h, --help           this text
  -V, --version        the version

Environment (each documented in deploy/pegas-memory.env): PEGAS_DATABASE_URL (or DATABASE_URL), PEGAS_DATA_DIR,
PEGAS_INGEST_ROOTS, PEGAS_ALLOW_PRIVATE_URLS, PEGAS_SEARCH_URL, OLLAMA_HOST, PEGAS_EMBED_MODEL, PEGAS_EMBED_DIM,
PEGAS_OLLAMA_KEEP_ALIVE, PEGAS_LLM_MODEL, PEGAS_DISTILLER, QDRANT_URL, QDRANT_COLLECTION, QDRANT_API_KEY, MEMGRAPH_URL,
MEMGRAPH_USER, MEMGRAPH_PASSWORD, PROXY_URL, PEGAS_HTTP, PEGAS_HTTP_TOKEN, PEGAS_CODE_WORKERS, PEGAS_LOG_LEVEL,
XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR.
`;
