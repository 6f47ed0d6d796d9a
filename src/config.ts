/**
 * Configuration, resolved once per process: command-line flags > config file (TOML) > environment > defaults,
 * validated with zod. This is the only module that reads `process.env`; every adapter receives only its slice.
 */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, homedir, tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { z } from "zod";
import { HTTP_DEFAULTS, HTTP_SETTINGS } from "./config-http.ts";
import { PegasError } from "./errors.ts";

/** Default Ollama embedding model of the owner's deployment (DESIGN.md). */
export const DEFAULT_EMBED_MODEL = "embeddinggemma-2-740m-Q8_0";

const url = z.string().url();
const bool = z.preprocess((v) => (typeof v === "string" ? /^(1|true|yes|on)$/i.test(v) : v), z.boolean());

/** One authority rule: the first rule whose fields all match a document gives its authority (0..1). */
export const AuthorityRuleSchema = z
  .object({
    kind: z.enum(["web", "pdf", "epub", "text", "code_repo"]).optional(),
    domain: z.string().min(1).optional().describe("host or parent domain, e.g. wikipedia.org"),
    snippet: z.boolean().optional(),
    authority: z.number().min(0).max(1),
  })
  .strict();
const positiveInt = z.coerce.number().int().positive();
const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const numberIn = (min: number, max: number) => z.number().min(min).max(max);

/** The toolsets config `toolsets` may name (src/mcp/registry.ts TOOLSETS gives each one's tools). */
export const TOOLSET_NAMES = ["knowledge", "search", "code", "research", "traces"] as const;
/** One toolset's name. */
export type ToolsetName = (typeof TOOLSET_NAMES)[number];
const toolsetName = z.enum(TOOLSET_NAMES, {
  error: (i) => `unknown toolset '${String(i.input)}': the toolsets are ${TOOLSET_NAMES.join(", ")}`,
});

/** True when a URL's port (if any) is 1..65535; a URL that does not parse is left to the other checks. */
function validPort(u: string): boolean {
  const m = /^[a-z+]+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*)(?::(\d+))?/i.exec(u);
  return !m?.[1] || (Number(m[1]) >= 1 && Number(m[1]) <= 65535);
}

/** The validated configuration; flat keys, the same names as in the TOML file. */
export const ConfigSchema = z
  .object({
    database_url: url.optional().describe("PostgreSQL URL; unset = embedded PGlite in data_dir"),
    data_dir: z.string().min(1).describe("directory of the embedded database and caches"),
    runtime_dir: z
      .string()
      .min(1)
      .describe("per-user runtime dir for the embedded database's socket when data_dir is too long"),
    qdrant_url: url
      .optional()
      .describe("Qdrant REST URL (e.g. http://127.0.0.1:6333); unset = the embedded vector index only"),
    qdrant_collection: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,255}$/, "qdrant_collection may hold letters, digits, _ and - only")
      .optional()
      .describe("Qdrant collection; default derived from the embedding model and dimension"),
    qdrant_api_key: z.string().min(1).optional().describe("Qdrant API key (sent as the api-key header)"),
    qdrant_timeout_ms: positiveInt.describe("timeout of one Qdrant request (ms)"),
    memgraph_url: z
      .string()
      .regex(/^(bolt|neo4j|memgraph)(\+s|\+ssc)?:\/\/[^\s]+$/, "memgraph_url must look like bolt://host:7687")
      .refine((u) => validPort(u), "memgraph_url has a port outside 1..65535")
      .optional()
      .describe("Memgraph Bolt URL; unset = graph reads by SQL over the canonical tables"),
    memgraph_user: z.string().optional(),
    memgraph_password: z.string().optional(),
    embedded_vectors: bool.describe(
      "keep the embedded vector index in every process also when Qdrant is set (the fallback while Qdrant is down; 4·dim bytes per atom)",
    ),
    outbox_batch_size: positiveInt.describe("outbox rows claimed per batch by the projection worker"),
    outbox_max_attempts: positiveInt.describe("tries before an outbox row is dead-lettered"),
    outbox_poll_ms: positiveInt.describe("polling interval of the projection worker when no notification arrives (ms)"),
    outbox_retention_hours: intIn(0, 87_600).describe(
      "processed outbox rows older than this, and projections no process has registered for this long (with their rows), are deleted by the projection worker (hours); 0 keeps them",
    ),
    code_workers: intIn(0, 64).describe(
      "worker threads that parse code for memory_store_code; 0 = parse on the main thread (default: one per core, at most 4)",
    ),
    ollama_host: z
      .preprocess((v) => (typeof v === "string" && v && !/^https?:\/\//i.test(v) ? `http://${v}` : v), url.optional())
      .describe("Ollama base URL (a bare host:port gets http://); unset = the local embedder"),
    embed_model: z.string().min(1),
    embed_dim: positiveInt.describe("expected embedding dimension of the Ollama model"),
    llm_model: z.string().min(1).optional().describe("Ollama chat model for distillation and verification"),
    distiller: z
      .enum(["auto", "heuristic", "ollama", "mcp-sampling"])
      .describe(
        "auto = ollama when ollama_host and llm_model are set, else heuristic; mcp-sampling asks the MCP client's model (falls back to heuristic when the client cannot sample)",
      ),
    distill_num_ctx: positiveInt.describe("Ollama num_ctx (tokens) for distillation calls"),
    distill_num_predict: positiveInt.describe("Ollama num_predict (tokens): the longest answer per chunk"),
    ollama_keep_alive: z.string().min(1),
    ollama_concurrency: positiveInt,
    ollama_batch_size: positiveInt,
    ollama_timeout_ms: positiveInt,
    proxy_url: z
      .string()
      .regex(/^(socks5h?|https?):\/\//, "proxy_url must start with socks5://, socks5h:// or http(s)://")
      .optional(),
    ...HTTP_SETTINGS,
    ingest_roots: z
      .array(z.string().min(1))
      .describe("directories that memory_ingest {path} may read (default: cwd and home)"),
    allow_private_urls: bool.describe("let URL ingest reach loopback and private addresses (metadata stays refused)"),
    allow_hosts: z.array(z.string().min(1)).describe("hosts exempt from the private-address refusal"),
    respect_robots: bool.describe("URL ingest and refresh honour the site's robots.txt (RFC 9309)"),
    fetch_timeout_ms: positiveInt,
    search_url: url
      .optional()
      .describe("SearxNG-compatible search backend of `pegas-memory research` (GET <url>/search?q=…&format=json)"),
    zip_max_entries: positiveInt,
    zip_max_total_bytes: positiveInt,
    zip_max_entry_bytes: positiveInt,
    authority_rules: z.array(AuthorityRuleSchema).describe("checked before the built-in rules"),
    local_embed_dim: positiveInt.describe("dimension of the local lexical embedder"),
    near_dup_threshold: numberIn(0, 1).optional().describe("cosine for near-duplicates; default per embedder"),
    rrf_k: positiveInt,
    vector_weight: numberIn(0, 10)
      .optional()
      .describe("RRF weight of the vector leg; default 1, or 0.01 for the lexical local embedder"),
    chunk_chars: positiveInt,
    max_input_bytes: positiveInt,
    store_wait_ms: positiveInt.describe("wait for a stopped embedded-database host before STORE_UNAVAILABLE (ms)"),
    max_directory_files: positiveInt.describe("files one directory ingest takes; the rest are reported, not read"),
    migrate: z.boolean(),
    log_level: z.enum(["debug", "info", "warn", "error", "silent"]),
    structured_content: z.enum(["on", "off"]).describe("off = tools declare no output schema and answer text only"),
    toolsets: z
      .preprocess((v) => (typeof v === "string" ? v.split(",").map((t) => t.trim()) : v), z.array(toolsetName).min(1))
      .describe("the toolsets whose tools `serve` offers (comma-separated in the environment and --toolsets)"),
    text_format: z
      .enum(["markdown", "json"])
      .describe("markdown = each tool's text content is written for a model; json = the structured content as JSON"),
    strict_arguments: bool.describe("refuse tool arguments a tool does not take (false = ignore them)"),
  })
  .strict();

/** Resolved configuration of one process. */
export type Config = z.infer<typeof ConfigSchema>;

/** Partial configuration from one source (flags, file or environment). */
export type ConfigLayer = Partial<Record<keyof Config, unknown>>;

/** Environment variable → config key. PEGAS_DATABASE_URL wins over DATABASE_URL. */
const ENV_KEYS: Array<[string, keyof Config]> = [
  ["DATABASE_URL", "database_url"],
  ["PEGAS_DATABASE_URL", "database_url"],
  ["PEGAS_DATA_DIR", "data_dir"],
  ["QDRANT_URL", "qdrant_url"],
  ["QDRANT_COLLECTION", "qdrant_collection"],
  ["QDRANT_API_KEY", "qdrant_api_key"],
  ["MEMGRAPH_URL", "memgraph_url"],
  ["MEMGRAPH_USER", "memgraph_user"],
  ["MEMGRAPH_PASSWORD", "memgraph_password"],
  ["OLLAMA_HOST", "ollama_host"],
  ["PEGAS_EMBED_MODEL", "embed_model"],
  ["PEGAS_EMBED_DIM", "embed_dim"],
  ["PEGAS_LLM_MODEL", "llm_model"],
  ["PEGAS_DISTILLER", "distiller"],
  ["PEGAS_OLLAMA_KEEP_ALIVE", "ollama_keep_alive"],
  ["PROXY_URL", "proxy_url"],
  ["PEGAS_HTTP", "http"],
  ["PEGAS_HTTP_TOKEN", "http_token"],
  ["PEGAS_ALLOWED_ORIGINS", "allowed_origins"],
  ["PEGAS_HTTP_RATE_LIMIT", "http_rate_limit"],
  ["PEGAS_HTTP_RATE_BURST", "http_rate_burst"],
  ["PEGAS_INGEST_ROOTS", "ingest_roots"],
  ["PEGAS_ALLOW_PRIVATE_URLS", "allow_private_urls"],
  ["PEGAS_RESPECT_ROBOTS", "respect_robots"],
  ["PEGAS_SEARCH_URL", "search_url"],
  ["PEGAS_LOG_LEVEL", "log_level"],
  ["PEGAS_CODE_WORKERS", "code_workers"],
  ["PEGAS_STORE_WAIT_MS", "store_wait_ms"],
  ["PEGAS_STRUCTURED_CONTENT", "structured_content"],
  ["PEGAS_TEXT_FORMAT", "text_format"],
  ["PEGAS_STRICT_ARGUMENTS", "strict_arguments"],
  ["PEGAS_TOOLSETS", "toolsets"],
];

function xdg(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const v = env[name];
  return v && isAbsolute(v) ? v : join(env.HOME || homedir(), fallback);
}

function defaults(env: NodeJS.ProcessEnv): Config {
  return {
    data_dir: join(xdg(env, "XDG_DATA_HOME", ".local/share"), "pegas-memory"),
    runtime_dir: env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : tmpdir(),
    embed_model: DEFAULT_EMBED_MODEL,
    embed_dim: 768,
    ollama_keep_alive: "5m",
    qdrant_timeout_ms: 5000,
    embedded_vectors: true,
    outbox_batch_size: 200,
    outbox_max_attempts: 10,
    outbox_poll_ms: 2000,
    outbox_retention_hours: 168,
    code_workers: Math.min(4, availableParallelism()),
    distiller: "auto",
    distill_num_ctx: 8192,
    distill_num_predict: 2048,
    ollama_concurrency: 2,
    ollama_batch_size: 32,
    ollama_timeout_ms: 120_000,
    // A client may start the server in "/" (or HOME may be "/"): the whole file system is never a default root.
    ingest_roots: [process.cwd(), env.HOME || homedir()].filter((r) => r !== "/"),
    allow_private_urls: false,
    allow_hosts: [],
    respect_robots: true,
    fetch_timeout_ms: 15_000,
    ...HTTP_DEFAULTS,
    zip_max_entries: 10_000,
    zip_max_total_bytes: 512 * 1024 * 1024,
    zip_max_entry_bytes: 128 * 1024 * 1024,
    authority_rules: [],
    local_embed_dim: 256,
    rrf_k: 60,
    chunk_chars: 1200,
    max_input_bytes: 50 * 1024 * 1024,
    store_wait_ms: 5000,
    max_directory_files: 100_000,
    migrate: true,
    log_level: "info",
    structured_content: "on",
    text_format: "markdown",
    strict_arguments: true,
    toolsets: [...TOOLSET_NAMES],
  };
}

/** Reads the environment layer; an empty value counts as unset. */
export function envLayer(env: NodeJS.ProcessEnv): ConfigLayer {
  const out: ConfigLayer = {};
  for (const [name, key] of ENV_KEYS) {
    const v = env[name];
    if (v === undefined || v === "") continue;
    out[key] = key === "ingest_roots" ? v.split(":").filter(Boolean) : v;
  }
  return out;
}

/** Default config file path: `$XDG_CONFIG_HOME/pegas-memory/config.toml`. */
export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdg(env, "XDG_CONFIG_HOME", ".config"), "pegas-memory", "config.toml");
}

function fileLayer(path: string, explicit: boolean): ConfigLayer {
  if (!existsSync(path)) {
    if (explicit)
      throw new PegasError("INVALID_INPUT", `config file '${path}' does not exist`, { hint: "check --config" });
    return {};
  }
  try {
    return parseToml(readFileSync(path, "utf8")) as ConfigLayer;
  } catch (err) {
    throw new PegasError("INVALID_INPUT", `config file '${path}' is not valid TOML: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

const dropUndefined = (layer: ConfigLayer): ConfigLayer =>
  Object.fromEntries(Object.entries(layer).filter(([, v]) => v !== undefined));

/**
 * Resolves the configuration: `flags` > config file (`configPath`, else the default path if it exists) >
 * environment > `opts.defaults` > built-in defaults. Relative paths become absolute against the working directory.
 * @throws PegasError INVALID_INPUT naming the offending key and source when validation fails.
 */
export function loadConfig(
  opts: { flags?: ConfigLayer; configPath?: string; env?: NodeJS.ProcessEnv; defaults?: ConfigLayer } = {},
): Config {
  const env = opts.env ?? process.env;
  const file = fileLayer(opts.configPath ?? defaultConfigPath(env), opts.configPath !== undefined);
  const merged = {
    ...defaults(env),
    ...dropUndefined(opts.defaults ?? {}),
    ...envLayer(env),
    ...dropUndefined(file),
    ...dropUndefined(opts.flags ?? {}),
  };
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.join(".") || "(root)";
    throw new PegasError("INVALID_INPUT", `invalid configuration '${key}': ${issue?.message}`, {
      hint: "fix the flag, the config file or the environment variable that sets it",
    });
  }
  const cfg = parsed.data;
  cfg.data_dir = resolve(cfg.data_dir);
  cfg.ingest_roots = cfg.ingest_roots.map((r) => resolve(r));
  return cfg;
}
