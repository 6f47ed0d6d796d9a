/**
 * `npm run docs`: writes what is generated from the tool definitions (src/mcp/tools/) — docs/tools.md, and
 * src/cli/help/tools.generated.json, which the CLI's `--help` reads (so that printing help loads no zod).
 *
 * Usage: bun scripts/gen-docs.ts [--check]   (--check: write nothing; exit 1 naming the files that are out of date)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "../src/cli/args.ts";
import { COMMAND_HELP } from "../src/cli/help/commands.ts";
import type { ToolHelp } from "../src/cli/help/render.ts";
import { fieldDetail } from "../src/mcp/schemas.ts";
import type { ToolDef } from "../src/mcp/tool.ts";
import { elementText, shapeSchema, takesMany } from "./docs/schema-text.ts";
import { renderToolsMarkdown } from "./docs/tools-md.ts";
import { loadToolsets } from "./docs/toolsets.ts";

const ROOT = resolve(import.meta.dir, "..");

/** One generated file: its path relative to the repository root and its whole text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/** The help data of each tool: title, description and per input field its type, whether required, its words. */
export function toolHelpData(tools: readonly ToolDef[]): Record<string, ToolHelp> {
  const data: Record<string, ToolHelp> = {};
  for (const t of tools) {
    const schema = shapeSchema(t.inputSchema, "input");
    const required = new Set(schema.required ?? []);
    const fields: ToolHelp["fields"] = {};
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      fields[name] = {
        type: elementText(s),
        required: required.has(name),
        many: takesMany(s),
        description: s.description ?? fieldDetail(t.fieldDetails, name),
      };
    }
    data[t.name] = { title: t.title, description: t.description, fields };
  }
  return data;
}

/** Tool name → the CLI commands that run it, from the commands' help. */
export function commandsByTool(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [command, help] of Object.entries(COMMAND_HELP) as [Command, (typeof COMMAND_HELP)[Command]][]) {
    if (help.tool) map.set(help.tool, [...(map.get(help.tool) ?? []), command]);
  }
  return map;
}

/** Every generated file with the text the tool definitions give it now. */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const toolsets = await loadToolsets();
  return [
    { path: "docs/tools.md", text: renderToolsMarkdown(toolsets, commandsByTool()) },
    {
      path: "src/cli/help/tools.generated.json",
      text: `${JSON.stringify(toolHelpData(toolsets.flatMap((s) => s.tools)), null, 2)}\n`,
    },
  ];
}

/** The generated files whose committed text differs from what they would be now. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  for (const f of await generatedFiles()) {
    let current: string | undefined;
    try {
      current = readFileSync(resolve(ROOT, f.path), "utf8");
    } catch {
      current = undefined;
    }
    if (current !== f.text) stale.push(f.path);
  }
  return stale;
}

if (import.meta.main) {
  if (process.argv.includes("--check")) {
    const stale = await staleFiles();
    if (stale.length) {
      process.stderr.write(`out of date: ${stale.join(", ")}; run \`npm run docs\`\n`);
      process.exit(1);
    }
  } else {
    for (const f of await generatedFiles()) writeFileSync(resolve(ROOT, f.path), f.text);
    process.stdout.write("wrote docs/tools.md and src/cli/help/tools.generated.json\n");
  }
}
