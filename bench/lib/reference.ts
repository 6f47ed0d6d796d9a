/**
 * The reference MCP memory server, `@modelcontextprotocol/server-memory` (pinned in package.json devDependencies):
 * the peer that the startup and agent_reads benchmarks measure beside pegas-memory, started with `node` on its
 * installed entry point.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT } from "./env.ts";

/** The reference server's package name. */
export const REFERENCE = "@modelcontextprotocol/server-memory";

/**
 * The reference server's entry point (absolute path of its `bin` script) and version: `PEGAS_BENCH_REFERENCE_MEMORY`
 * (its package directory) when set, else the installed package. @throws Error saying to run `npm install` when it is
 * not installed.
 */
export function referenceEntry(): { path: string; version: string } {
  let dir = process.env.PEGAS_BENCH_REFERENCE_MEMORY;
  if (!dir) {
    try {
      dir = dirname(Bun.resolveSync(`${REFERENCE}/package.json`, ROOT));
    } catch {
      throw new Error(`${REFERENCE} is not installed: run \`npm install\` (it is a dev dependency)`);
    }
  }
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    version: string;
    bin: Record<string, string> | string;
  };
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin)[0];
  return { path: join(dir, bin), version: pkg.version };
}
