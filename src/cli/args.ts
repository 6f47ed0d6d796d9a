/**
 * Command-line parsing with node:util `parseArgs`: global options become the highest configuration layer. An unknown
 * command or option is a usage error (exit 64, EX_USAGE); help/usage.ts checks the rest against the command's help.
 */
import { parseArgs } from "node:util";
import type { ConfigLayer } from "../config.ts";
import { UsageError } from "../errors.ts";

/** Parsed command line. */
export interface Cli {
  command: string;
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
  flags: ConfigLayer;
  configPath?: string;
  /** True when argv named the command (false when it defaulted to `serve`): `--help` then shows that command's. */
  named?: boolean;
}

/** Every option of the command line (node:util `parseArgs` configuration); help/commands.ts says what each does. */
export const OPTIONS = {
  config: { type: "string" },
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
  "no-migrate": { type: "boolean" },
  "log-level": { type: "string" },
  json: { type: "boolean" },
  k: { type: "string" },
  type: { type: "string", multiple: true },
  title: { type: "string" },
  "observed-at": { type: "string" },
  atom: { type: "string" },
  doc: { type: "string" },
  entity: { type: "string" },
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
  restart: { type: "boolean" },
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
  toolsets: { type: "string" },
  out: { type: "string" },
  embeddings: { type: "boolean" },
  url: { type: "string" },
  "older-than": { type: "string" },
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
  "reindex",
  "refresh",
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

/** A command name. */
export type Command = (typeof COMMANDS)[number];

function parseStrict(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message, "see `pegas-memory --help`");
  }
}

/**
 * Parses argv (without the executable); help/usage.ts then checks that the command takes what was given.
 * @throws UsageError (INVALID_INPUT, exit 64) for an unknown command or option.
 */
export function parseCli(argv: string[]): Cli {
  const { values, positionals } = parseStrict(argv);
  const command = positionals[0] ?? "serve";
  if (!values.help && !values.version && !(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`unknown command '${command}'`, `use one of ${COMMANDS.join(", ")} (see --help)`);
  }
  const flags: ConfigLayer = {
    data_dir: values["data-dir"],
    database_url: values["database-url"],
    migrate: values["no-migrate"] ? false : undefined,
    log_level: values["log-level"],
    http: values.http,
    toolsets: values.toolsets,
  };
  return {
    command,
    positionals: positionals.slice(1),
    values,
    flags,
    configPath: values.config,
    named: positionals[0] !== undefined,
  };
}
