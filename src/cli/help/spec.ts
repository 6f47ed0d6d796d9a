/**
 * The shape of a command's help (help/commands.ts lists them). A command that mirrors an MCP tool names it and maps
 * its arguments and options to the tool's fields, whose words and types come from the tool definitions.
 */

/** A positional argument, e.g. `<query>`. */
export interface ArgHelp {
  name: string;
  /** The tool field it fills. */
  field?: string;
  /** What it is, when no field says it (or what the command adds to the field's description). */
  text?: string;
}

/** An option, e.g. `--k N` is `{ name: "k", value: "N" }`. */
export interface OptionHelp {
  name: string;
  value?: string;
  field?: string;
  text?: string;
}

/** The help of one command. */
export interface CommandHelp {
  /** Usage lines, each after `pegas-memory `. */
  usage: string[];
  /** The MCP tool this command runs: its title is the command's one line, its description the details. */
  tool?: string;
  /** One line, for a command without a tool. */
  summary?: string;
  /** What the command does beyond (or unlike) its tool: output, exit status, limits. */
  notes?: string;
  args?: ArgHelp[];
  options?: OptionHelp[];
}

/** `--json`, as most commands read it. */
export const JSON_OPTION: OptionHelp = { name: "json", text: "machine-readable output (JSON)" };
