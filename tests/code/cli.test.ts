/**
 * The CLI functions `code`, `code-search` and `code-graph` (src/cli/code-commands.ts) on a temporary PostgreSQL
 * database, with services that carry the code store and an extractor, as src/wiring/services.ts will once wired.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "../../src/wiring/services.ts";
import type { Cli } from "../../src/cli/args.ts";
import { type OpenServices, runCode, runCodeGraph, runCodeSearch } from "../../src/cli/code-commands.ts";
import { createTempPgDatabase, pgSkipReason, type TempDb } from "../support/pg.ts";
import { capture } from "../support/capture.ts";
import { testConfig } from "../support/services.ts";
import { FakeExtractor, fakeSource, sym } from "./fake-extractor.ts";
import { withCode } from "./support.ts";

/** Like withServices, with the code store and the fake extractor added. */
const open: OpenServices = async (config, fn) => {
  const s = withCode(await createServices(config), new FakeExtractor());
  try {
    return await fn(s, new AbortController().signal);
  } finally {
    await s.close();
  }
};

const dir = mkdtempSync(join(tmpdir(), "pegas-code-cli-"));
mkdirSync(join(dir, "pkg"));
writeFileSync(
  join(dir, "pkg/a.py"),
  fakeSource({
    symbols: [sym("loads", "function", 3, 3, "Deserialize s.")],
    deps: [{ kind: "calls", from: { symbol: "loads" }, target: "decode", line: 3 }],
  }),
);
writeFileSync(join(dir, "pkg/bad.py"), "FAIL_PARSE");

let skip: string | null = null;
let db: TempDb | undefined;
beforeAll(async () => {
  skip = await pgSkipReason();
  if (skip) return;
  const t = await createTempPgDatabase("pegas_code_cli");
  if (typeof t === "string") skip = t;
  else db = t;
});
afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (command: string, positionals: string[], values: Cli["values"] = {}): Cli => ({
  command,
  positionals,
  values,
  flags: {},
});

describe("code CLI", () => {
  test("code <dir> stores, reports failures on stderr; code-search and code-graph print", async () => {
    if (skip) return console.warn(`skipped: ${skip}`);
    const config = testConfig({ database_url: db!.url, log_level: "warn" });
    const stored = await capture(() => runCode(config, cli("code", [dir], { repo: "cli" }), open));
    expect(stored.code).toBe(0);
    expect(stored.out).toContain("as repo 'cli'");
    expect(stored.out).toContain("1 parsed, 0 unchanged, 1 failed");
    expect(stored.err).toContain("error: pkg/bad.py: INTERNAL");
    const json = await capture(() => runCode(config, cli("code", [dir], { repo: "cli", json: true }), open));
    expect(JSON.parse(json.out).files).toMatchObject({ unchanged: 1, failed: 1, parsed: 0 }); // the failing file stays failed (and listed)
    const found = await capture(() => runCodeSearch(config, cli("code-search", ["loads"], { repo: "cli" }), open));
    expect(found.out).toContain("1. loads (function, python) pkg/a.py:3  [name");
    const graph = await capture(() => runCodeGraph(config, cli("code-graph", ["cli", "pkg/a.py"]), open));
    expect(JSON.parse(graph.out).file.dependencies).toEqual([
      { line: 3, kind: "calls", from: "loads", target: "decode", resolved: null },
    ]);
    await expect(runCode(config, cli("code", []), open)).rejects.toMatchObject({ code: "INVALID_INPUT" });
  }, 60_000);
});
