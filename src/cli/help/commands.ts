/**
 * What `--help` says about each command. A command that mirrors an MCP tool (tool-commands.ts) names it and maps its
 * arguments and options to the tool's fields: their descriptions and types come from the tool definitions through
 * tools.generated.json (`npm run docs`). A command without a tool (own-commands.ts), and an option without a field,
 * says what it does in its own words. Plain data: printing help must not load zod or the services.
 */
import type { Command } from "../args.ts";
import { OWN_COMMANDS } from "./own-commands.ts";
import type { CommandHelp } from "./spec.ts";
import { TOOL_COMMANDS } from "./tool-commands.ts";

export type { ArgHelp, CommandHelp, OptionHelp } from "./spec.ts";
export { ENVIRONMENT, GLOBAL_OPTIONS } from "./own-commands.ts";

const { serve, migrate, ...ownRest } = OWN_COMMANDS;

/** Every command's help, in the order the top-level help lists them: serving, the tools' commands, the others. */
export const COMMAND_HELP: Readonly<Record<Command, CommandHelp>> = { serve, migrate, ...TOOL_COMMANDS, ...ownRest };
