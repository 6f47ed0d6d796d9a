/**
 * The HTTP endpoint's routes through `app.request` (no listener): /healthz without any database access, /readyz
 * ready on PGlite, 503 naming the database when PostgreSQL is at a closed port or hangs (answered within the probe
 * deadline), degraded when a projection hangs or is unreachable, error texts only for token holders; /metrics and
 * /mcp behind the token; /metrics says `pegas_store_up 0` when the database never opened (within its wait when the
 * database hangs); the clear 413 and 404 answers of /mcp.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHttpApp } from "../../src/http/app.ts";
import { METRICS_CONTENT_TYPE, METRICS_OPEN_MS } from "../../src/http/metrics.ts";
import { READINESS_TIMEOUT_MS } from "../../src/http/readiness.ts";
import { parseExposition, sampleValue } from "./metrics-exposition.ts";
import { INITIALIZE, MCP_POST_HEADERS, pgliteRuntime, runtimeOf, type TestRuntime } from "./support.ts";

const TOKEN = "s3cret-token-of-the-tests";
const CLOSED_PG = "postgres://postgres@127.0.0.1:1/none";

/** A TCP server that accepts connections and never answers (a hung PostgreSQL or Qdrant). */
const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
const opened: TestRuntime[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.dispose()));
  silent.stop(true);
});

async function appOf(t: TestRuntime | Promise<TestRuntime>) {
  const r = await t;
  opened.push(r);
  return createHttpApp({ runtime: r.runtime }).app;
}

/** A JSON body, loosely typed for assertions. */
const json = (res: Response): Promise<Record<string, any>> => res.json() as Promise<Record<string, any>>;

async function timed<T>(fn: () => T | Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

describe("/healthz", () => {
  test("200 {status: ok} with no token even when one is set, and the database is never touched", async () => {
    const t = runtimeOf({ database_url: CLOSED_PG, http_token: TOKEN });
    const app = await appOf(t);
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ status: "ok" });
    expect(t.runtime.services.opened).toBe(false);
  });
});

describe("/readyz", () => {
  test("ready on the embedded database: database up, local embedder up and not required", async () => {
    // Opened first: while PGlite is still starting (seconds on a busy host) the answer is rightly 503.
    const t = await pgliteRuntime();
    await t.runtime.services.get();
    const app = await appOf(t);
    const res = await app.request("/readyz");
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.down).toEqual([]);
    expect(body.dependencies.database).toMatchObject({ state: "up", required: true });
    expect(body.dependencies.embedder).toMatchObject({ state: "up", required: false });
  }, 60_000);

  test("503 naming the database when PostgreSQL is at a closed port; error texts only with the token", async () => {
    const app = await appOf(runtimeOf({ database_url: CLOSED_PG, http_token: TOKEN }));
    const res = await app.request("/readyz", { headers: { authorization: `Bearer ${TOKEN}` } });
    const body = await json(res);
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ status: "unavailable", down: ["database"] });
    expect(body.dependencies.database.state).toBe("down");
    expect(body.dependencies.database.error).toContain("127.0.0.1");

    const anon = await app.request("/readyz");
    const anonBody = await json(anon);
    expect(anon.status).toBe(503);
    expect(anonBody.down).toEqual(["database"]);
    expect(anonBody.dependencies.database).toEqual({ state: "down", required: true });
    expect(JSON.stringify(anonBody)).not.toContain("127.0.0.1");
    const wrong = await json(
      await app.request("/readyz", { headers: { authorization: "Bearer wrong-token-wrong-token" } }),
    );
    expect(wrong.dependencies.database.error).toBeUndefined();
  });

  test("a database that accepts but never answers: 503 within the deadline", async () => {
    const app = await appOf(runtimeOf({ database_url: `postgres://postgres@127.0.0.1:${silent.port}/none` }));
    const [res, ms] = await timed(() => app.request("/readyz"));
    const body = await json(res);
    expect(res.status).toBe(503);
    expect(body.dependencies.database.error).toContain(`did not answer within ${READINESS_TIMEOUT_MS} ms`);
    expect(ms).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 50); // it waited for the deadline, then answered
  }, 30_000);

  test("a hung Qdrant and an unreachable Memgraph degrade but do not fail readiness, within the deadline", async () => {
    const app = await appOf(
      pgliteRuntime({ qdrant_url: `http://127.0.0.1:${silent.port}`, memgraph_url: "bolt://127.0.0.1:1" }),
    );
    await app.request("/readyz"); // the first call opens the database (a PGlite start may take longer than the deadline)
    const res = await app.request("/readyz");
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(body.status).toBe("degraded");
    expect(body.dependencies.database.state).toBe("up");
    expect(body.dependencies.qdrant).toMatchObject({ state: "degraded", required: false });
    expect(body.dependencies.qdrant.error).toContain("did not answer");
    expect(body.dependencies.memgraph).toMatchObject({ state: "degraded", required: false });
  }, 60_000);
});

describe("/metrics and the token", () => {
  test("Prometheus text with its content type; 401 with a challenge without or with a wrong token", async () => {
    const app = await appOf(runtimeOf({ database_url: CLOSED_PG, http_token: TOKEN }));
    const ok = await app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe(METRICS_CONTENT_TYPE);
    expect(await ok.text()).toMatch(/^pegas_uptime_seconds \d/m);
    const none = await app.request("/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain('error="invalid_request"');
    const wrong = await app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await json(wrong)).error.message).toContain("PEGAS_HTTP_TOKEN");
    for (const path of ["/mcp"]) {
      const r = await app.request(path, { method: "POST", headers: MCP_POST_HEADERS, body: INITIALIZE });
      expect(r.status).toBe(401);
    }
  });

  test("a database that never opened (closed port, hung server) is pegas_store_up 0; an open one is 1", async () => {
    const scrape = async (app: Awaited<ReturnType<typeof appOf>>) => {
      const res = await app.request("/metrics");
      expect(res.status).toBe(200);
      const m = parseExposition(await res.text());
      expect(m.get("pegas_store_up")?.samples.length).toBe(1); // sampleValue reads an absent sample as 0
      return m;
    };
    const closed = await scrape(await appOf(runtimeOf({ database_url: CLOSED_PG })));
    expect(sampleValue(closed, "pegas_store_up")).toBe(0);
    expect(closed.has("pegas_outbox_pending")).toBe(false);

    const [hung, ms] = await timed(async () =>
      scrape(await appOf(runtimeOf({ database_url: `postgres://postgres@127.0.0.1:${silent.port}/none` }))),
    );
    expect(sampleValue(hung, "pegas_store_up")).toBe(0);
    expect(ms).toBeGreaterThanOrEqual(METRICS_OPEN_MS - 50); // it gave the open its time, then answered

    const t = await pgliteRuntime();
    await t.runtime.services.get();
    const up = await scrape(await appOf(t));
    expect(sampleValue(up, "pegas_store_up")).toBe(1);
    expect(sampleValue(up, "pegas_outbox_dead")).toBe(0);
  }, 60_000);

  test("without a token, /metrics is open", async () => {
    const app = await appOf(runtimeOf({ database_url: CLOSED_PG }));
    const res = await app.request("/metrics");
    expect(res.status).toBe(200);
  });
});

describe("/mcp answers a client's mistakes clearly", () => {
  test("413 for a body over the limit, 404 for an unknown session, 400 for GET without one, 404 JSON for other paths", async () => {
    const app = await appOf(runtimeOf({ database_url: CLOSED_PG, max_input_bytes: 1024 }));
    const big = "x".repeat(3 * 1024 * 1024 + 10);
    const tooBig = await app.request("/mcp", {
      method: "POST",
      headers: { ...MCP_POST_HEADERS, "content-length": String(big.length) },
      body: big,
    });
    expect(tooBig.status).toBe(413);
    const msg = (await json(tooBig)).error.message;
    expect(msg).toContain("Payload Too Large");
    expect(msg).toContain("raise max_input_bytes in the config file");
    // Without a Content-Length (chunked), the body is read up to the limit: the same message names the key.
    const chunked = await app.request("/mcp", {
      method: "POST",
      headers: MCP_POST_HEADERS,
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      }),
    });
    expect(chunked.status).toBe(413);
    const chunkedMsg = (await json(chunked)).error.message;
    expect(chunkedMsg).toContain("Payload Too Large");
    expect(chunkedMsg).toContain("raise max_input_bytes in the config file");

    const unknown = await app.request("/mcp", {
      method: "POST",
      headers: { ...MCP_POST_HEADERS, "mcp-session-id": "no-such-session" },
      body: INITIALIZE,
    });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe(-32001);
    const get = await app.request("/mcp", { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(400);
    const other = await app.request("/nowhere");
    expect(other.status).toBe(404);
    expect((await json(other)).error).toContain("/healthz");
  });
});
