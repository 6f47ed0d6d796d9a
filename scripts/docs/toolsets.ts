/**
 * The toolsets: the folders under src/mcp/tools/, each holding its tools' definitions. A tool's folder is its toolset;
 * the registry's TOOLS gives the order within one.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { TOOLS } from "../../src/mcp/registry.ts";
import type { ToolDef } from "../../src/mcp/tool.ts";

/** The tools' folder. */
export const TOOLS_DIR = resolve(import.meta.dir, "../../src/mcp/tools");

/** The order toolsets are documented in; a folder not named here follows, alphabetically. */
export const TOOLSET_ORDER = ["knowledge", "search", "code", "research", "traces"];

/** One toolset: its folder's name and its tools in registry order. */
export interface Toolset {
  name: string;
  tools: ToolDef[];
}

const isToolDef = (v: unknown): v is ToolDef =>
  typeof v === "object" && v !== null && "name" in v && "inputSchema" in v && "run" in v;

/**
 * Imports every tool file and groups the tools it exports by folder.
 * @throws Error when a tool of a folder is not registered in TOOLS, or a registered tool is in no folder.
 */
export async function loadToolsets(dir = TOOLS_DIR, registered: readonly ToolDef[] = TOOLS): Promise<Toolset[]> {
  const folders = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const rank = (n: string) => (TOOLSET_ORDER.includes(n) ? TOOLSET_ORDER.indexOf(n) : TOOLSET_ORDER.length);
  folders.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const seen = new Set<string>();
  const sets: Toolset[] = [];
  for (const name of folders) {
    const tools: ToolDef[] = [];
    for (const file of readdirSync(join(dir, name))
      .filter((f) => f.endsWith(".ts"))
      .sort()) {
      const mod: Record<string, unknown> = await import(join(dir, name, file));
      for (const def of Object.values(mod).filter(isToolDef)) {
        if (!registered.includes(def)) throw new Error(`${name}/${file}: ${def.name} is not in TOOLS (registry.ts)`);
        tools.push(def);
        seen.add(def.name);
      }
    }
    tools.sort((a, b) => registered.indexOf(a) - registered.indexOf(b));
    if (tools.length) sets.push({ name, tools });
  }
  const lost = registered.filter((t) => !seen.has(t.name)).map((t) => t.name);
  if (lost.length) throw new Error(`tools in no folder of ${dir}: ${lost.join(", ")}`);
  return sets;
}
