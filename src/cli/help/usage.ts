/**
 * Whether a command line fits its command, checked before anything runs: an option the command does not take (its
 * help lists what it takes, besides the global options) or more arguments than it takes is a usage error (exit 64,
 * EX_USAGE), never ignored.
 */
import { UsageError } from "../../errors.ts";
import type { Cli, Command } from "../args.ts";
import { COMMAND_HELP, GLOBAL_OPTIONS } from "./commands.ts";

/** Most arguments each command takes; Infinity for the words of a query or question, and for ingest's sources. */
export const MAX_POSITIONALS: Readonly<Record<Command, number>> = {
  serve: 0,
  migrate: 0,
  ingest: Number.POSITIVE_INFINITY,
  search: Number.POSITIVE_INFINITY,
  stats: 0,
  verify: 0,
  distill: 0,
  unmerge: 1,
  sync: 0,
  rebuild: 1,
  reembed: 0,
  reindex: 1,
  refresh: 0,
  graph: 2,
  code: 1,
  "code-search": Number.POSITIVE_INFINITY,
  "code-graph": 2,
  get: 1,
  link: 2,
  forget: 0,
  context: Number.POSITIVE_INFINITY,
  infer: 0,
  gaps: 0,
  "gap-add": Number.POSITIVE_INFINITY,
  research: 0,
  doctor: 0,
  healthcheck: 0,
  export: 0,
  import: 1,
};

/** The options `command` takes: its own (its help lists them) and the global ones. */
export function optionsOf(command: Command): Set<string> {
  return new Set([...(COMMAND_HELP[command].options ?? []), ...GLOBAL_OPTIONS].map((o) => o.name));
}

/**
 * Checks that `cli.command` takes the options and arguments given (nothing when `--help` or `--version` is asked).
 * @throws UsageError naming the option or arguments it does not take, and what it takes.
 */
export function checkUsage(cli: Cli): void {
  if (cli.values.help || cli.values.version) return;
  const command = cli.command as Command;
  const { values, positionals: args } = cli;
  const hint = `see \`pegas-memory ${command} --help\``;
  const taken = optionsOf(command);
  const stray = Object.keys(values).filter((name) => values[name] !== undefined && !taken.has(name));
  if (stray.length) {
    const own = [...taken].filter((n) => !GLOBAL_OPTIONS.some((g) => g.name === n));
    const list = own.length ? `its options: ${own.map((n) => `--${n}`).join(", ")}` : "it has no options of its own";
    throw new UsageError(`${command} does not take ${stray.map((n) => `--${n}`).join(", ")} (${list})`, hint);
  }
  const max = MAX_POSITIONALS[command];
  if (args.length > max) {
    const extra = args
      .slice(max)
      .map((a) => `'${a}'`)
      .join(" ");
    const takes = max === 0 ? "takes no arguments" : `takes at most ${max} argument${max === 1 ? "" : "s"}`;
    throw new UsageError(`${command} ${takes}; unexpected ${extra}`, hint);
  }
}
