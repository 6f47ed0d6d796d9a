/**
 * CLI commands of code memory: `code <dir>` (memory_store_code; any directory the user names, progress on stderr),
 * `code-search <query…>` (memory_search_code) and `code-graph <repo> [symbol]` (memory_code_graph). Each opens the
 * services, does its job, prints (JSON with --json), closes. Returns the exit status.
 */
import type { Config } from "../config.ts";
import { storeCode } from "../core/code/ingest.ts";
import type { StoreCodeResult } from "../core/code/input.ts";
import { codeGraph } from "../core/code/graph.ts";
import { searchCode } from "../core/code/query.ts";
import type { Direction, Services } from "../core/services.ts";
import { UsageError, invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson, progressBar } from "./output.ts";

/** Opens services, runs `fn`, closes them (withServices; tests hand in their own). */
export type OpenServices = <T>(config: Config, fn: (s: Services, signal: AbortSignal) => Promise<T>) => Promise<T>;

const strings = (v: unknown): string[] | undefined =>
  v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)];
const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function formatRun(r: StoreCodeResult): string[] {
  const f = r.files;
  const skipped = Object.entries(f.skipped)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const dirs = Object.entries(r.directories_skipped)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    `stored ${r.root} as repo '${r.repo}' (document ${r.doc_id}) in ${(r.took_ms / 1000).toFixed(1)} s`,
    `files: ${f.seen} seen, ${f.parsed} parsed, ${f.unchanged} unchanged, ${f.failed} failed, ${f.removed} removed${skipped ? `; skipped: ${skipped}` : ""}`,
    ...(dirs ? [`directories skipped: ${dirs}`] : []),
    `symbols: ${r.symbols} stored; dependencies: ${r.dependencies.stored} stored, ${r.dependencies.resolved_now} resolved now, ` +
      `repo ${r.dependencies.resolved} resolved / ${r.dependencies.unresolved} unresolved`,
    `code atoms: ${r.atoms.created} new, ${r.atoms.existing} existing, ${r.atoms.staled} stale; ${r.syntax_error_files} file(s) with syntax errors`,
  ];
}

/** `code <dir> [--repo R] [--include P]… [--exclude P]… [--language L]… [--json]`. Exit 0 when the walk completed. */
export async function runCode(config: Config, cli: Cli, open: OpenServices = withServices): Promise<number> {
  const path = cli.positionals[0];
  if (!path) throw new UsageError("code needs a repository directory", "pegas-memory code <dir> [--repo NAME]");
  const input = {
    path,
    repo: text(cli.values.repo),
    include: strings(cli.values.include),
    exclude: strings(cli.values.exclude),
    languages: strings(cli.values.language),
  };
  const bar = progressBar("code");
  const r = await open(config, (s, signal) =>
    storeCode(s, input, { trustedPath: true, signal, onProgress: bar.onProgress }),
  ).finally(bar.done);
  if (cli.values.json) outJson(r);
  else for (const line of formatRun(r)) out(line);
  for (const n of r.noted) process.stderr.write(`note: ${n.path}: ${n.reason.replace("_", " ")}\n`);
  if (r.noted_total > r.noted.length)
    process.stderr.write(`… and ${r.noted_total - r.noted.length} more noted file(s)\n`);
  for (const e of r.errors) process.stderr.write(`error: ${e.path}: ${e.code}: ${e.message}\n`);
  if (r.errors_total > r.errors.length)
    process.stderr.write(`… and ${r.errors_total - r.errors.length} more error(s)\n`);
  for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}

/** `code-search <query…> [--kind K]… [--language L]… [--repo R] [--limit N] [--json]`. */
export async function runCodeSearch(config: Config, cli: Cli, open: OpenServices = withServices): Promise<number> {
  const query = cli.positionals.join(" ").trim();
  if (!query) throw new UsageError("code-search needs a query", "see `pegas-memory code-search --help`");
  const input = {
    query,
    kind: strings(cli.values.kind),
    language: strings(cli.values.language),
    repo: text(cli.values.repo),
    limit: intOption(cli, "limit"),
  };
  const r = await open(config, (s) => searchCode(s, input));
  if (cli.values.json) outJson(r);
  else if (!r.hits.length) out(`no symbols match «${r.query}»`);
  else {
    r.hits.forEach((h, i) => {
      out(`${i + 1}. ${h.qualified_name} (${h.kind}, ${h.language}) ${h.location}  [${h.match} ${h.score}]`);
      if (h.signature) out(`   ${h.signature}`);
      if (h.docstring) out(`   ${h.docstring.replace(/\s+/g, " ").slice(0, 160)}`);
    });
  }
  return 0;
}

/** `code-graph <repo> [symbol] [--depth N] [--direction D] [--kind K]… [--limit N] [--json]` (JSON either way). */
export async function runCodeGraph(config: Config, cli: Cli, open: OpenServices = withServices): Promise<number> {
  const [repo, symbol] = cli.positionals;
  if (!repo)
    throw invalidInput(
      "code-graph needs a repo",
      "pegas-memory code-graph <repo> [symbol:<id> | qualified name | file path]",
    );
  const input = {
    repo,
    symbol,
    depth: intOption(cli, "depth"),
    kinds: strings(cli.values.kind),
    limit: intOption(cli, "limit"),
    direction: text(cli.values.direction) as Direction | undefined,
  };
  outJson(await open(config, (s) => codeGraph(s, input)));
  return 0;
}
