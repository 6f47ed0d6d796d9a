/**
 * `pegas-memory healthcheck`: which URL it probes (wildcard bind addresses → loopback; --url overrides, a --url without a
 * path means its /healthz), and its exit
 * status against real loopback servers: 200 → 0; 500, a closed port, a server that never answers, no address → 1.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { healthzUrl, runHealthcheck } from "../../src/cli/healthcheck-command.ts";
import { PegasError } from "../../src/errors.ts";
import { closedPort } from "../support/bolt-standin.ts";
import { capture } from "../support/capture.ts";
import { testConfig } from "../support/services.ts";
import { cli } from "./support.ts";

const hung: Server[] = [];
afterAll(() => {
  for (const s of hung) s.close();
});

/** Runs `healthcheck` with PEGAS_HTTP = `http` (or none) and `--url`. */
function healthcheck(http: string | undefined, url?: string) {
  const config = testConfig({ log_level: "warn", ...(http ? { http } : {}) });
  return capture(() => runHealthcheck(config, cli("healthcheck", url === undefined ? {} : { url })));
}

describe("healthcheck URL", () => {
  test("wildcard addresses are probed on loopback; other hosts and --url are kept", () => {
    expect(healthzUrl("0.0.0.0:8765")).toBe("http://127.0.0.1:8765/healthz");
    expect(healthzUrl("[::]:8765")).toBe("http://[::1]:8765/healthz");
    expect(healthzUrl("[::1]:9")).toBe("http://[::1]:9/healthz");
    expect(healthzUrl("memory.lan:80")).toBe("http://memory.lan:80/healthz");
    expect(healthzUrl("0.0.0.0:8765", "https://x.example/healthz")).toBe("https://x.example/healthz");
  });

  test("a --url without a path probes its /healthz; any other path is kept", () => {
    expect(healthzUrl(undefined, "http://127.0.0.1:8765")).toBe("http://127.0.0.1:8765/healthz");
    expect(healthzUrl(undefined, "http://127.0.0.1:8765/")).toBe("http://127.0.0.1:8765/healthz");
    expect(healthzUrl(undefined, "https://[::1]:9")).toBe("https://[::1]:9/healthz");
    expect(healthzUrl(undefined, "http://memory.lan/pegas/healthz")).toBe("http://memory.lan/pegas/healthz");
    expect(healthzUrl(undefined, "http://memory.lan/nothing")).toBe("http://memory.lan/nothing");
  });

  test("no address, or a --url that is not http(s), is INVALID_INPUT saying what to set", () => {
    expect(() => healthzUrl(undefined)).toThrow(/neither --url nor http \(PEGAS_HTTP\) is set/);
    expect(() => healthzUrl(undefined, "ftp://x/healthz")).toThrow(PegasError);
    expect(() => healthzUrl(undefined, "not a url")).toThrow(/is not a URL/);
  });
});

describe("healthcheck against loopback servers", () => {
  test("200 → 0 (address from PEGAS_HTTP's 0.0.0.0), 500 → 1 with the answer on stderr, then a closed port → 1", async () => {
    let status = 200;
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) =>
        new URL(req.url).pathname === "/healthz"
          ? Response.json({ status: status === 200 ? "ok" : "broken" }, { status })
          : new Response("no", { status: 404 }),
    });
    const port = server.port;
    try {
      const ok = await healthcheck(`0.0.0.0:${port}`);
      expect(ok.code).toBe(0);
      expect(ok.out).toBe(`healthy: http://127.0.0.1:${port}/healthz answered 200\n`);
      expect(ok.err).toBe("");
      status = 500;
      const bad = await healthcheck(`0.0.0.0:${port}`);
      expect(bad.code).toBe(1);
      expect(bad.out).toBe("");
      expect(bad.err).toBe(`healthcheck: http://127.0.0.1:${port}/healthz answered HTTP 500: {"status":"broken"}\n`);
      status = 200;
      const bare = await healthcheck(undefined, `http://127.0.0.1:${port}`);
      expect(bare.code).toBe(0);
      expect(bare.out).toBe(`healthy: http://127.0.0.1:${port}/healthz answered 200\n`);
      const wrongPath = await healthcheck(undefined, `http://127.0.0.1:${port}/nothing`);
      expect(wrongPath.code).toBe(1);
      expect(wrongPath.err).toContain("answered HTTP 404");
    } finally {
      server.stop(true);
    }
    const closed = await healthcheck(`127.0.0.1:${port}`);
    expect(closed.code).toBe(1);
    expect(closed.err).toMatch(
      new RegExp(`^healthcheck: cannot reach http://127\\.0\\.0\\.1:${port}/healthz: .*ECONNREFUSED`),
    );
  });

  test("[::] is probed on [::1]", async () => {
    const server = Bun.serve({ port: 0, hostname: "::1", fetch: () => Response.json({ status: "ok" }) });
    try {
      const r = await healthcheck(`[::]:${server.port}`);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`http://[::1]:${server.port}/healthz`);
    } finally {
      server.stop(true);
    }
  });

  test("a server that accepts and never answers → 1 after the 3 s deadline", async () => {
    const server = createServer((s) => s.on("error", () => {}));
    hung.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.address() as { port: number }).port;
    const t0 = performance.now();
    const r = await healthcheck(`127.0.0.1:${port}`);
    const ms = performance.now() - t0;
    expect(r.code).toBe(1);
    expect(r.err).toContain("no answer within 3000 ms");
    expect(ms).toBeGreaterThan(2900); // it waited for the deadline (a lower bound: a busy host only makes it later)
  });

  test("neither PEGAS_HTTP nor --url → 1 with what to set", async () => {
    const r = await healthcheck(undefined);
    expect(r.code).toBe(1);
    expect(r.err).toContain("healthcheck: no server address to probe");
    expect(r.err).toContain("PEGAS_HTTP=host:port");
    const port = await closedPort();
    expect((await healthcheck(undefined, `http://127.0.0.1:${port}/healthz`)).code).toBe(1);
  });
});
