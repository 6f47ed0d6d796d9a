/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in package.json) against
 * `serve --http` (the suite tests servers over Streamable HTTP only), run from source (`bun main.ts`) on a migrated
 * embedded data dir (the HTTP endpoint opens it with the first session; a fresh one would cost ≈ 10 s of initdb).
 * No scenario here calls a tool. The applicable server scenarios must pass; the others need the
 * reference server's fixture tools (`test_simple_text`, `test_error_handling` …), resources, prompts, completion,
 * elicitation or the `logging` capability, none of which pegas-memory has, so they cannot apply.
 * The suite needs Node.js ≥ 22 (fs.globSync), so it runs under Bun, as everything here does.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type HttpServerProc, startHttpServer } from "../../bench/lib/http-server-proc.ts";
import { migratedPgliteDir } from "../support/services.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** Server scenarios of conformance 0.1.16 that apply to pegas-memory (`conformance list --server` lists them all). */
const APPLICABLE = [
  "server-initialize",
  "ping",
  "tools-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
] as const;

/** The suite's CLI entry, or null when the package is not installed. */
function suiteEntry(): string | null {
  try {
    return join(dirname(Bun.resolveSync("@modelcontextprotocol/conformance/package.json", ROOT)), "dist", "index.js");
  } catch {
    return null;
  }
}

/** One check of a scenario's checks.json. */
interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
}

const entry = suiteEntry();
if (!entry) {
  console.warn(
    "skipped: @modelcontextprotocol/conformance is not installed (npm ci installs the version package.json pins)",
  );
}

describe.skipIf(!entry)("MCP conformance suite, server scenarios", () => {
  let server: HttpServerProc;
  let data: string;
  const dir = mkdtempSync(join(tmpdir(), "pegas-conformance-"));

  beforeAll(async () => {
    data = await migratedPgliteDir("pegas-conformance-data-");
    server = await startHttpServer(
      {
        argv: [process.execPath, join(ROOT, "main.ts")],
        env: { HOME: dir, PATH: process.env.PATH ?? "", XDG_CONFIG_HOME: join(dir, "config") },
        cwd: dir,
      },
      ["--data-dir", data],
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
    if (data) rmSync(data, { recursive: true, force: true });
  });

  for (const scenario of APPLICABLE) {
    test(scenario, async () => {
      const out = join(dir, "results", scenario);
      const p = Bun.spawn(
        [process.execPath, entry!, "server", "--url", `${server.url}/mcp`, "--scenario", scenario, "-o", out],
        { cwd: dir, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
      );
      const [stdout, stderr, code] = await Promise.all([
        new Response(p.stdout).text(),
        new Response(p.stderr).text(),
        p.exited,
      ]);
      const [run] = readdirSync(out);
      const checks = JSON.parse(readFileSync(join(out, run!, "checks.json"), "utf8")) as Check[];
      const failed = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
      expect({ code, failed }, `${stdout}\n${stderr}`).toEqual({ code: 0, failed: [] });
      expect(checks.some((c) => c.status === "SUCCESS")).toBe(true);
    }, 30_000);
  }
});
