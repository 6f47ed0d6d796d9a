/**
 * `doctor` and `healthcheck` through the compiled executable (alone in an empty directory, HOME and XDG dirs inside
 * it): exit codes, and stdout / stderr as a person or a container runtime sees them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv } from "../support/binary.ts";
import { closedPort } from "../support/bolt-standin.ts";

let bin = "";
let dir = "";
beforeAll(async () => {
  ({ bin, dir } = await isolatedBinary());
}, 300_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the executable; its exit status, stdout and stderr. */
async function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn([bin, ...args], {
    cwd: dir,
    env: isolatedEnv(dir, env),
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

describe("doctor (compiled)", () => {
  test("a fresh machine: the store not created yet is a warning, exit 0, nothing on stderr, nothing created", async () => {
    const r = await run(["doctor"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("configuration:\n");
    expect(r.out).toMatch(/WARN {2}database +embedded PostgreSQL \(PGlite\) at .* does not exist yet/);
    expect(r.out).toMatch(/- {5}qdrant +not configured/);
    expect(r.out).toMatch(/\nok: 0 failure\(s\), 1 warning\(s\) in \d+ ms\n$/);
    expect(existsSync(join(dir, "data", "pegas-memory"))).toBe(false);
  });

  test("after migrate: the embedded store is ok with its version; --json is one JSON document", async () => {
    expect((await run(["migrate"])).code).toBe(0);
    const r = await run(["doctor", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.ok).toBe(true);
    const db = report.checks.find((c: { name: string }) => c.name === "database");
    expect(db).toMatchObject({ ok: true, level: "ok" });
    expect(db.version).toMatch(/\(PGlite\)$/);
    expect(report.checks.find((c: { name: string }) => c.name === "schema").detail).toMatch(/no pending migrations/);
  }, 120_000);

  test("PostgreSQL at a closed port: exit 1, the failure named on stderr, the password masked everywhere", async () => {
    const port = await closedPort();
    const r = await run(["doctor"], { PEGAS_DATABASE_URL: `postgres://pegas:hunter2@127.0.0.1:${port}/x` });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /FAIL {2}database +PostgreSQL at 'postgres:\/\/pegas:\*\*\*@127\.0\.0\.1:\d+\/x' is unreachable: .*ECONNREFUSED/,
    );
    expect(r.out).toContain("FAILED: 1 failure(s)");
    expect(r.err).toMatch(/^doctor: database: .*ECONNREFUSED.*PEGAS_DATABASE_URL/);
    expect(r.out + r.err).not.toContain("hunter2");
  });
});

describe("healthcheck (compiled)", () => {
  test("0 on 200 from PEGAS_HTTP's wildcard address (an HTTP_PROXY in the environment is not used), 1 on 503 and on a closed port", async () => {
    let status = 200;
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => Response.json({ status: "ok" }, { status }),
    });
    const proxy = `http://127.0.0.1:${await closedPort()}`;
    try {
      const env = { PEGAS_HTTP: `0.0.0.0:${server.port}`, HTTP_PROXY: proxy, http_proxy: proxy };
      const ok = await run(["healthcheck"], env);
      expect(ok).toEqual({ code: 0, out: `healthy: http://127.0.0.1:${server.port}/healthz answered 200\n`, err: "" });
      status = 503;
      const bad = await run(["healthcheck"], env);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain("answered HTTP 503");
    } finally {
      server.stop(true);
    }
    const closed = await run(["healthcheck", "--url", `http://127.0.0.1:${server.port}/healthz`]);
    expect(closed.code).toBe(1);
    expect(closed.err).toContain("ECONNREFUSED");
    const none = await run(["healthcheck"]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("no server address to probe");
  });
});
