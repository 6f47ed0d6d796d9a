/**
 * `pegas-memory doctor` on the external dependencies, over a healthy embedded store: Qdrant (the REST stand-in:
 * collection absent, of the wrong size, fitting but empty = drift; a closed port; a server that never answers),
 * Memgraph (the Bolt stand-in: SHOW VERSION answered or refused; drift), Ollama (a model not pulled), the search
 * backend and the proxy (real loopback servers).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { defaultCollectionName } from "../../src/adapters/qdrant/ids.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { BoltStandin, closedPort } from "../support/bolt-standin.ts";
import { startOllamaStub, STUB_MODEL } from "../support/ollama-stub.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { checkOf, doctorJson, failures } from "./support.ts";

let t: TestServices;
const servers: Server[] = [];

/** A loopback TCP server that answers each connection with `reply(data)` (or never, when it returns null). */
async function tcpServer(reply: (data: Buffer) => Buffer | null): Promise<number> {
  const server = createServer((sock) => {
    sock.on("error", () => {});
    sock.on("data", (d: Buffer) => {
      const r = reply(d);
      if (r) sock.write(r);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  const opened = await openTestServices("pglite");
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
  await storeAtom(t.services, { type: "fact", claim: "Нева вытекает из Ладожского озера." });
  await storeAtom(t.services, { type: "fact", claim: "The Neva flows out of Lake Ladoga." });
});
afterAll(async () => {
  for (const s of servers) s.close();
  await t?.dispose();
});

describe("doctor: Qdrant", () => {
  const collection = defaultCollectionName("pegas-lexical-hash-v1-d256", 256);

  test("absent collection is a warning; a collection of another size fails naming both; a fitting empty one drifts", async () => {
    const q = await QdrantRestStandin.start();
    try {
      const config = { ...t.config, qdrant_url: q.url };
      const absent = await doctorJson(config);
      expect(absent.code).toBe(0);
      expect(checkOf(absent.report, "qdrant").version).toBe("1.19.0");
      expect(checkOf(absent.report, "qdrant_collection").level).toBe("warn");
      expect(checkOf(absent.report, "qdrant_drift").detail).toStartWith("skipped");
      expect(q.writes()).toHaveLength(0); // doctor created nothing

      q.seedCollection(collection, { size: 768, distance: "Cosine" });
      const wrong = await doctorJson(config);
      expect(wrong.code).toBe(1);
      expect(failures(wrong.report)).toEqual(["qdrant_collection"]);
      expect(checkOf(wrong.report, "qdrant_collection").detail).toContain(
        "holds vectors of dimension 768, but the embedder 'pegas-lexical-hash-v1-d256' needs one unnamed vector of dimension 256",
      );

      q.seedCollection(collection, { size: 256, distance: "Cosine" });
      const fits = await doctorJson(config);
      expect(fits.code).toBe(0);
      expect(checkOf(fits.report, "qdrant_collection").detail).toContain(`collection '${collection}': 0 point(s)`);
      const drift = checkOf(fits.report, "qdrant_drift");
      expect(drift.level).toBe("warn");
      expect(drift.detail).toStartWith("drift atom 2 (database − projection): holds atom 0; the database has atom 2");
    } finally {
      await q.stop();
    }
  });

  test("a closed port fails by name with a hint; a server that never answers fails within the probe deadline", async () => {
    const closed = await doctorJson({ ...t.config, qdrant_url: `http://127.0.0.1:${await closedPort()}` });
    expect(closed.code).toBe(1);
    expect(failures(closed.report)).toEqual(["qdrant"]);
    expect(checkOf(closed.report, "qdrant").detail).toContain("ECONNREFUSED");
    expect(checkOf(closed.report, "qdrant").hint).toContain("QDRANT_URL");
    expect(closed.err).toMatch(/^doctor: qdrant: cannot reach Qdrant/m);

    const silent = await tcpServer(() => null);
    const hung = await doctorJson({ ...t.config, qdrant_url: `http://127.0.0.1:${silent}` });
    expect(hung.code).toBe(1);
    expect(checkOf(hung.report, "qdrant").detail).toMatch(/within 3000 ms/);
    expect(checkOf(hung.report, "database").level).toBe("ok");
  });
});

describe("doctor: Memgraph", () => {
  test("SHOW VERSION answered gives the version; drift is read with memory_stats' counts", async () => {
    const bolt = await BoltStandin.start({
      script: [
        { match: /^SHOW VERSION/, rows: [{ version: "2.21.0" }] },
        {
          match: /UNION ALL/,
          rows: [
            { entity: "atom", count: 1 },
            { entity: "document", count: 0 },
            { entity: "symbol", count: 0 },
            { entity: "edge", count: 0 },
          ],
        },
      ],
    });
    try {
      const { code, report } = await doctorJson({ ...t.config, memgraph_url: bolt.url });
      expect(code).toBe(0);
      expect(checkOf(report, "memgraph").version).toBe("2.21.0");
      const drift = checkOf(report, "memgraph_drift");
      expect(drift.level).toBe("warn");
      expect(drift.detail).toMatch(/^drift atom 1, document 0, symbol 0, entity \d+, edge \d+ /);
      expect(bolt.runs.some((r) => /^SHOW VERSION/.test(r.query) && !r.inTransaction)).toBe(true);
    } finally {
      await bolt.stop();
    }
  });

  test("SHOW VERSION refused (no STATS privilege): reached, version unknown; a closed port fails", async () => {
    const bolt = await BoltStandin.start({
      script: [
        {
          match: /^SHOW VERSION/,
          failure: {
            code: "Memgraph.ClientError.MemgraphError.MemgraphError",
            message: "You are not authorized to execute this query!",
          },
        },
        { match: /^RETURN 1/, rows: [{ "1": 1 }] },
      ],
    });
    try {
      const { report } = await doctorJson({ ...t.config, memgraph_url: bolt.url });
      const mg = checkOf(report, "memgraph");
      expect(mg.level).toBe("ok");
      expect(mg.version).toBeUndefined();
      expect(mg.detail).toContain("(version unknown)");
      expect(mg.detail).toContain("not authorized");
    } finally {
      await bolt.stop();
    }
    const down = await doctorJson({ ...t.config, memgraph_url: `bolt://127.0.0.1:${await closedPort()}` });
    expect(failures(down.report)).toEqual(["memgraph"]);
    expect(checkOf(down.report, "memgraph").hint).toContain("MEMGRAPH_URL");
    expect(checkOf(down.report, "memgraph_drift").detail).toStartWith("skipped");
  });
});

describe("doctor: Ollama, search backend, proxy", () => {
  test("a configured llm_model that is not pulled fails, naming it and the pull command", async () => {
    const stub = startOllamaStub({ dim: 8, models: [`${STUB_MODEL}:latest`] });
    try {
      const config = {
        ...t.config,
        ollama_host: stub.url,
        embed_model: STUB_MODEL,
        embed_dim: 8,
        llm_model: "qwen3:8b",
      };
      const { code, report } = await doctorJson(config);
      expect(code).toBe(1);
      expect(failures(report)).toContain("ollama_models");
      const models = checkOf(report, "ollama_models");
      expect(models.detail).toContain("llm_model 'qwen3:8b'");
      expect(models.detail).not.toContain("embed_model");
      expect(models.hint).toContain("`ollama pull qwen3:8b`");
    } finally {
      await stub.stop();
    }
  });

  test("the search backend: 200 is reached, 503 fails", async () => {
    let status = 200;
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("searx", { status }) });
    try {
      const config = { ...t.config, search_url: `http://127.0.0.1:${server.port}` };
      expect(checkOf((await doctorJson(config)).report, "search").detail).toContain("answered HTTP 200");
      status = 503;
      const down = await doctorJson(config);
      expect(down.code).toBe(1);
      expect(checkOf(down.report, "search").detail).toContain("answered HTTP 503");
    } finally {
      server.stop(true);
    }
  });

  test("the proxy: a SOCKS5 greeting answered is ok; an HTTP server posing as SOCKS5 and a closed port fail", async () => {
    const socks = await tcpServer((d) => (d[0] === 5 ? Buffer.from([5, 0]) : null));
    const ok = await doctorJson({ ...t.config, proxy_url: `socks5h://127.0.0.1:${socks}` });
    expect(checkOf(ok.report, "proxy").detail).toContain("answers as a SOCKS5 proxy");
    const http = await tcpServer(() => Buffer.from("HTTP/1.1 400 Bad Request\r\n\r\n"));
    const wrong = await doctorJson({ ...t.config, proxy_url: `socks5://127.0.0.1:${http}` });
    expect(checkOf(wrong.report, "proxy").detail).toContain("not a SOCKS5 proxy");
    const httpProxy = await doctorJson({ ...t.config, proxy_url: `http://127.0.0.1:${http}` });
    expect(checkOf(httpProxy.report, "proxy").detail).toContain("accepts connections");
    const closed = await doctorJson({ ...t.config, proxy_url: `socks5://127.0.0.1:${await closedPort()}` });
    expect(failures(closed.report)).toEqual(["proxy"]);
    expect(checkOf(closed.report, "proxy").detail).toContain("ECONNREFUSED");
  });
});
