/**
 * The text of `pegas-memory --help` (every command in one line) and of `pegas-memory <command> --help` (usage, what
 * it does, its arguments and options). A command that mirrors an MCP tool takes its line, details and field
 * descriptions from the tool definitions, through tools.generated.json (written by `npm run docs`).
 */
import { COMMANDS, type Cli, type Command, OPTIONS } from "../args.ts";
import { COMMAND_HELP, type CommandHelp, ENVIRONMENT, GLOBAL_OPTIONS, type OptionHelp } from "./commands.ts";
import generated from "./tools.generated.json" with { type: "json" };

/** One input field of a tool as help shows it. */
export interface FieldHelp {
  /** The type of one value (of one element when `many`), e.g. `integer 1..50`. */
  type: string;
  required: boolean;
  /** The field takes an array: a CLI option filling it may be repeated. */
  many: boolean;
  description: string;
}

/** What help knows of one tool: tools.generated.json maps tool names to these. */
export interface ToolHelp {
  title: string;
  description: string;
  fields: Record<string, FieldHelp>;
}

/** The tools' help data, generated from their definitions. */
export const TOOL_HELP: Readonly<Record<string, ToolHelp>> = generated;

/** Width the help text is wrapped to (columns). */
const WIDTH = 100;
/** Widest column of a definition list's terms. */
const TERM_WIDTH = 22;

/** Greedy word wrap of `text` to `width` columns, every line after `indent` spaces. */
function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => " ".repeat(indent) + l);
}

/** The column descriptions start at after terms like these (at most TERM_WIDTH wide). */
const columnOf = (terms: string[]) => Math.min(TERM_WIDTH, Math.max(...terms.map((t) => t.length))) + 4;

/** `  term    description` rows, the description wrapped under its column (below the term when that is long). */
function definitions(rows: [string, string][], column = columnOf(rows.map(([term]) => term))): string[] {
  const out: string[] = [];
  for (const [term, text] of rows) {
    const body = wrap(text, column);
    const head = `  ${term}`;
    if (head.length < column - 1 && body.length) out.push(head.padEnd(column) + body[0].trimStart(), ...body.slice(1));
    else out.push(head, ...body);
  }
  return out;
}

function toolOf(command: Command, help: CommandHelp, tools: Readonly<Record<string, ToolHelp>>): ToolHelp | undefined {
  if (!help.tool) return undefined;
  const tool = tools[help.tool];
  if (!tool) throw new Error(`${command}: no tool ${help.tool} in tools.generated.json (run \`npm run docs\`)`);
  return tool;
}

/** The one line the top-level help shows for a command: its tool's title, or its own summary. */
export function commandSummary(command: Command, tools = TOOL_HELP): string {
  const help = COMMAND_HELP[command];
  const tool = toolOf(command, help, tools);
  if (tool) return `${tool.title.charAt(0).toLowerCase()}${tool.title.slice(1)} (${help.tool})`;
  return help.summary ?? "";
}

function flagOf(o: OptionHelp): string {
  const short = (OPTIONS as Record<string, { short?: string }>)[o.name]?.short;
  return `${short ? `-${short}, ` : ""}--${o.name}${o.value ? ` ${o.value}` : ""}`;
}

/** What an argument or option says: the tool field's description and type, then the command's own words. */
function describe(command: Command, item: { name: string; field?: string; text?: string }, tool?: ToolHelp): string {
  if (!item.field) return item.text ?? "";
  const f = tool?.fields[item.field];
  if (!f) throw new Error(`${command} ${item.name}: the tool has no field '${item.field}'`);
  const repeatable = f.many && (OPTIONS as Record<string, { multiple?: boolean }>)[item.name]?.multiple === true;
  // A flag is its own type: `(boolean)` would say nothing.
  const type = f.type === "boolean" ? "" : `(${f.type}${repeatable ? "; repeatable" : ""})`;
  return [f.description, item.text, type].filter(Boolean).join(" ");
}

/** Text of `pegas-memory <command> --help`. @throws Error when the help names a tool or field that does not exist. */
export function commandHelp(command: Command, tools = TOOL_HELP): string {
  const help = COMMAND_HELP[command];
  const tool = toolOf(command, help, tools);
  const lines = help.usage.map((u, i) => `${i ? "       " : "Usage: "}pegas-memory ${u}`);
  lines.push("");
  if (tool) {
    lines.push(...wrap(`${tool.title} — the MCP tool ${help.tool}. ${tool.description}`, 0));
  } else lines.push(...wrap(`${help.summary?.charAt(0).toUpperCase()}${help.summary?.slice(1)}.`, 0));
  if (help.notes) lines.push("", ...wrap(help.notes, 0));
  const args = help.args ?? [];
  const options = help.options ?? [];
  const column = columnOf([...args.map((a) => a.name), ...options.map(flagOf)]);
  if (args.length) {
    lines.push(
      "",
      "Arguments:",
      ...definitions(
        args.map((a) => [a.name, describe(command, a, tool)]),
        column,
      ),
    );
  }
  if (options.length) {
    lines.push(
      "",
      "Options:",
      ...definitions(
        options.map((o) => [flagOf(o), describe(command, o, tool)]),
        column,
      ),
    );
  }
  lines.push(
    "",
    ...wrap(`Options of every command: ${GLOBAL_OPTIONS.map(flagOf).join(", ")} (see pegas-memory --help).`, 0),
  );
  return `${lines.join("\n")}\n`;
}

/** Text of `pegas-memory --help`: the commands in one line each, the options of every command, the environment. */
export function topLevelHelp(tools = TOOL_HELP): string {
  return [
    "pegas-memory — long-term memory of a research agent, served over MCP",
    "",
    "Usage: pegas-memory [command] [arguments] [options]     (no command: serve)",
    "       pegas-memory <command> --help                    a command's arguments and options",
    "",
    "Commands:",
    ...definitions((Object.keys(COMMAND_HELP) as Command[]).map((c) => [c, commandSummary(c, tools)])),
    "",
    "Options of every command:",
    ...definitions(GLOBAL_OPTIONS.map((o) => [flagOf(o), o.text ?? ""])),
    "",
    ...wrap(`Environment (each documented in deploy/pegas-memory.env): ${ENVIRONMENT.join(", ")}.`, 0),
    "",
    "The MCP tools, their arguments and results: docs/tools.md.",
    "",
  ].join("\n");
}

/** The help `argv` asks for: the named command's, else the top-level text. */
export function helpText(cli: Pick<Cli, "command" | "named">): string {
  const known = (COMMANDS as readonly string[]).includes(cli.command);
  return cli.named && known ? commandHelp(cli.command as Command) : topLevelHelp();
}
