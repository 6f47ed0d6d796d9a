/**
 * The help of the commands without an MCP tool, the options every command takes and the environment: hand-written,
 * in this one place.
 */
import { JSON_OPTION, type CommandHelp, type OptionHelp } from "./spec.ts";

/** Commands without a tool, in the order the top-level help lists them. */
export const OWN_COMMANDS = {
  serve: {
    usage: ["[serve] [--http HOST:PORT] [--toolsets LIST]"],
    summary: "serve MCP over stdin/stdout (what an MCP client runs), or over HTTP with --http",
    notes:
      "Without a command, pegas-memory serves. Over stdio nothing but JSON-RPC goes to stdout (logs go to stderr); " +
      "the server exits when stdin closes or on SIGTERM.",
    options: [
      {
        name: "http",
        value: "HOST:PORT",
        text:
          "serve MCP over Streamable HTTP at /mcp, the admin page at /ui, /healthz, /readyz and /metrics instead " +
          "(env PEGAS_HTTP; a token, PEGAS_HTTP_TOKEN, is required beyond loopback)",
      },
      {
        name: "toolsets",
        value: "LIST",
        text:
          "offer only these toolsets' tools, comma-separated: knowledge, search, code, research, traces " +
          "(env PEGAS_TOOLSETS; default all)",
      },
    ],
  },
  migrate: { usage: ["migrate"], summary: "apply database migrations", options: [JSON_OPTION] },
  research: {
    usage: ["research [--gap ID] [--max-urls N] [--budget-s S]"],
    summary: "look for answers to open gaps on the web (the search backend at PEGAS_SEARCH_URL)",
    notes:
      "The backend is SearxNG-compatible (its JSON format enabled). Searches for each open gap, ingests the results (the search snippet when a page is blocked), verifies and " +
      "marks the gaps answered. Progress goes to stderr. Exit 0 when every gap it took was answered, else 1.",
    options: [
      { name: "gap", value: "ID", text: "research this open gap only" },
      { name: "max-urls", value: "N", text: "most URLs fetched over the whole run (default 8, 1..100)" },
      { name: "budget-s", value: "S", text: "seconds the run may take (default 120, 1..3600)" },
      JSON_OPTION,
    ],
  },
  distill: {
    usage: ["distill --retry [--doc N] [--limit N]"],
    summary: "distill quarantined chunks again (chunks the distiller failed on)",
    notes: "Exit 1 when some still fail.",
    options: [
      { name: "retry", text: "distill the quarantined chunks again (required)" },
      { name: "doc", value: "N", text: "only this document's entries" },
      { name: "limit", value: "N", text: "most entries to retry (default 20)" },
      JSON_OPTION,
    ],
  },
  sync: {
    usage: ["sync [--once] [--retry-dead]"],
    summary: "apply the outbox to Qdrant and Memgraph: what is due (--once), or until SIGTERM",
    notes: "Exit 1 when rows remain failed or dead after --once.",
    options: [
      { name: "once", text: "apply what is due and exit" },
      { name: "retry-dead", text: "make dead-lettered outbox rows pending again first" },
      JSON_OPTION,
    ],
  },
  rebuild: {
    usage: ["rebuild vector|graph|all [--recreate]"],
    summary: "drop and refill the projections from the database alone (progress on stderr)",
    args: [{ name: "vector|graph|all", text: "which projection: Qdrant's vectors, Memgraph's graph, or both" }],
    options: [
      { name: "recreate", text: "drop a Qdrant collection of another dimension and make it again (refused otherwise)" },
      JSON_OPTION,
    ],
  },
  reembed: {
    usage: ["reembed --model M [--dim N] [--recreate]"],
    summary: "embed every atom for another model; then switching is a config change (embed_model)",
    options: [
      {
        name: "model",
        value: "M",
        text: "the embedding model: an Ollama model (with OLLAMA_HOST), or pegas-lexical-hash-v1-d<N> for the local one",
      },
      { name: "dim", value: "N", text: "the dimension the model must answer with (checked)" },
      { name: "recreate", text: "drop the model's Qdrant collection of another dimension and make it again" },
      JSON_OPTION,
    ],
  },
  reindex: {
    usage: ["reindex entities|quantities [--restart] [--limit N]"],
    summary: "extract entity mentions or measurements of atoms stored before them (resumable)",
    notes: "A run resumes after the last page an interrupted one wrote; once done, new atoms get theirs when stored.",
    args: [
      {
        name: "entities|quantities",
        text: "what to reindex: the entities and mentions, or the measurements, of every non-retracted atom",
      },
    ],
    options: [
      { name: "restart", text: "start again from the first atom (after the extractor improved)" },
      { name: "limit", value: "N", text: "stop after N atoms (the next run resumes there)" },
      JSON_OPTION,
    ],
  },
  refresh: {
    usage: ["refresh [--older-than D] [--limit N]"],
    summary: "re-check fetched URL documents; a changed page becomes a new version",
    notes:
      "Honours robots.txt and waits 1 s between requests to a host; uses the proxy and address rules of ingest. " +
      "Change is judged on the extracted text. A 404/410 page is marked gone and its atoms flagged, never deleted, " +
      "and is checked again: one that answers again is `back` or a new version. A failure (5xx, timeout) changes " +
      "nothing and is retried by a later run; the output names each failed or waiting page with its next attempt. " +
      "deploy/ has a daily systemd timer.",
    options: [
      {
        name: "older-than",
        value: "D",
        text: "check documents last checked this long ago: 90s, 30m, 12h, 7d (default), 2w",
      },
      { name: "limit", value: "N", text: "check at most N documents (default 500)" },
      JSON_OPTION,
    ],
  },
  doctor: {
    usage: ["doctor"],
    summary: "check the configuration and every dependency; exit 1 naming what fails",
    options: [JSON_OPTION],
  },
  healthcheck: {
    usage: ["healthcheck [--url U]"],
    summary: "exit 0 when the running server's /healthz answers 200 (a container probe)",
    options: [{ name: "url", value: "U", text: "the /healthz URL to probe (default: from PEGAS_HTTP)" }],
  },
  export: {
    usage: ["export [--out FILE] [--embeddings]"],
    summary: "write every pm_* table but the outbox as JSON Lines (default: to stdout)",
    notes: "Rows per table go to stderr.",
    options: [
      { name: "out", value: "FILE", text: "write the export to FILE (written whole, then renamed)" },
      { name: "embeddings", text: "include the stored embeddings" },
      { name: "json", text: "the summary as JSON (on stderr when the data goes to stdout)" },
    ],
  },
  import: {
    usage: ["import <file|->"],
    summary: "load an export into an empty store, then embed the atoms that lack vectors",
    args: [{ name: "<file|->", text: "an export file, or - for standard input" }],
    options: [JSON_OPTION],
  },
} satisfies Record<string, CommandHelp>;

/** Options every command takes (the configuration layer of the command line). */
export const GLOBAL_OPTIONS: readonly OptionHelp[] = [
  { name: "config", value: "FILE", text: "config file (default $XDG_CONFIG_HOME/pegas-memory/config.toml)" },
  { name: "data-dir", value: "DIR", text: "embedded database directory (env PEGAS_DATA_DIR)" },
  {
    name: "database-url",
    value: "URL",
    text: "PostgreSQL instead of the embedded database (env PEGAS_DATABASE_URL)",
  },
  { name: "no-migrate", text: "do not apply migrations when the database opens" },
  { name: "log-level", value: "LEVEL", text: "debug | info | warn | error | silent (logs go to stderr)" },
  { name: "help", text: "this text; after a command, that command's help" },
  { name: "version", text: "the version" },
];

/** The environment variables the configuration reads (each documented in deploy/pegas-memory.env). */
export const ENVIRONMENT: readonly string[] = [
  "PEGAS_DATABASE_URL (or DATABASE_URL)",
  "PEGAS_DATA_DIR",
  "PEGAS_STORE_WAIT_MS",
  "PEGAS_INGEST_ROOTS",
  "PEGAS_ALLOW_PRIVATE_URLS",
  "PEGAS_SEARCH_URL",
  "OLLAMA_HOST",
  "PEGAS_EMBED_MODEL",
  "PEGAS_EMBED_DIM",
  "PEGAS_OLLAMA_KEEP_ALIVE",
  "PEGAS_LLM_MODEL",
  "PEGAS_DISTILLER",
  "QDRANT_URL",
  "QDRANT_COLLECTION",
  "QDRANT_API_KEY",
  "MEMGRAPH_URL",
  "MEMGRAPH_USER",
  "MEMGRAPH_PASSWORD",
  "PROXY_URL",
  "PEGAS_HTTP",
  "PEGAS_HTTP_TOKEN",
  "PEGAS_TOOLSETS",
  "PEGAS_CODE_WORKERS",
  "PEGAS_LOG_LEVEL",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_RUNTIME_DIR",
];
