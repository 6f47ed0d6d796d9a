/**
 * How the Qdrant adapter fails, against the Qdrant REST stand-in's fault injection: a closed port, HTTP 503, a slow
 * server, a request Qdrant refuses. Unavailability is INDEX_UNAVAILABLE with the URL (the worker retries), never
 * cached, and the adapter works again once the server does.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { QdrantVectorIndex } from "../../src/adapters/qdrant/index.ts";
import type { AtomPayload } from "../../src/ports/projections/vector-index.ts";
import { rejectsWith } from "../support/errors.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";

const standin = await QdrantRestStandin.start();
afterAll(() => standin.stop());
let n = 0;
let index: QdrantVectorIndex;
beforeEach(async () => {
  await standin.start();
  standin.failWith(null);
  standin.delayMs = 0;
  index = new QdrantVectorIndex({
    url: standin.url,
    collection: `failures_${++n}`,
    model: "m",
    dim: 4,
    timeoutMs: 400,
  });
});

const payload: AtomPayload = { type: "text", status: "verified", docId: 1, confidence: 0.6, lang: "en" };
const point = (atomId: number) => ({ atomId, vector: Float32Array.of(0.5, 0.5, 0.5, 0.5), payload });

describe("unreachable", () => {
  test("a closed port → INDEX_UNAVAILABLE at once, naming the URL and how to fix it", async () => {
    await standin.stop();
    const err = await rejectsWith(index.upsert([point(1)]), "INDEX_UNAVAILABLE");
    expect(err.message).toContain(standin.url);
    expect(err.hint).toContain(`is Qdrant running at ${standin.url}`);
    expect(err.hint).toContain("unset QDRANT_URL");
    expect(err.cause).toBeDefined();
  });

  test("every operation fails the same way, and all work again after the server comes back on the same port", async () => {
    await index.upsert([point(1)]);
    await standin.stop();
    await rejectsWith(index.count(), "INDEX_UNAVAILABLE");
    await rejectsWith(index.search(point(1).vector, 3), "INDEX_UNAVAILABLE");
    await rejectsWith(index.delete([1]), "INDEX_UNAVAILABLE");
    await rejectsWith(
      index.apply([{ entity: "atom", id: 2, state: { ...payload, vector: point(2).vector } }]),
      "INDEX_UNAVAILABLE",
    );
    await standin.start();
    await index.apply([{ entity: "atom", id: 2, state: { ...payload, vector: point(2).vector } }]);
    expect(await index.count()).toBe(2);
  });

  test("a failed prepare is not cached: the next call prepares again", async () => {
    await standin.stop();
    await rejectsWith(index.prepare(), "INDEX_UNAVAILABLE");
    await standin.start();
    await index.prepare();
    expect(await index.count()).toBe(0);
  });
});

describe("server errors", () => {
  test("HTTP 503 → INDEX_UNAVAILABLE quoting the status and Qdrant's message", async () => {
    standin.failWith(503);
    const err = await rejectsWith(index.upsert([point(1)]), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("HTTP 503");
    expect(err.message).toContain(standin.url);
    expect(err.message).toContain("told to answer 503");
  });

  test("a 503 in the middle of a batched upsert fails it; retrying the whole upsert converges", async () => {
    const big = new QdrantVectorIndex({
      url: standin.url,
      collection: `failures_${++n}`,
      model: "m",
      dim: 4,
      batchSize: 2,
    });
    await big.prepare();
    const points = [1, 2, 3, 4, 5].map(point);
    let upserts = 0;
    standin.failWith(503, 1, (r) => r.method === "PUT" && r.path.endsWith("/points") && ++upserts === 2);
    await rejectsWith(big.upsert(points), "INDEX_UNAVAILABLE");
    expect(await big.count()).toBe(2);
    await big.upsert(points);
    expect(await big.count()).toBe(5);
  });

  test("a server slower than timeoutMs → INDEX_UNAVAILABLE saying it did not answer in time", async () => {
    standin.delayMs = 1500;
    const err = await rejectsWith(index.count(), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("within 400 ms");
    standin.delayMs = 0;
  });

  test("HTTP 400 from Qdrant (a refused request) → INVALID_INPUT with Qdrant's message", async () => {
    await index.prepare();
    standin.failWith(400, 1);
    const err = await rejectsWith(index.count(), "INVALID_INPUT");
    expect(err.message).toContain("HTTP 400");
  });

  test("a 404 that is not about the collection (no query API before Qdrant 1.10) → INDEX_UNAVAILABLE, nothing re-created", async () => {
    await index.upsert([point(1)]);
    const before = standin.writes().length;
    standin.failWith(404, 1, (r) => r.path.endsWith("/points/query"));
    const err = await rejectsWith(index.search(point(1).vector, 3), "INDEX_UNAVAILABLE");
    expect(err.message).toContain("HTTP 404");
    expect(err.hint).toContain("1.10");
    expect(standin.writes().length).toBe(before);
  });

  test("a server that is not Qdrant → INDEX_UNAVAILABLE naming the URL", async () => {
    const other = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response("<html>hello</html>", { headers: { "content-type": "text/html" } }),
    });
    try {
      const wrong = new QdrantVectorIndex({
        url: `http://127.0.0.1:${other.port}`,
        collection: "x",
        model: "m",
        dim: 4,
      });
      const err = await rejectsWith(wrong.count(), "INDEX_UNAVAILABLE");
      expect(err.message).toContain(`http://127.0.0.1:${other.port}`);
    } finally {
      await other.stop(true);
    }
  });

  test("options are checked: a URL without http(s), a bad collection name, a bad dimension → INVALID_INPUT", () => {
    const make = (o: Partial<ConstructorParameters<typeof QdrantVectorIndex>[0]>) => () =>
      new QdrantVectorIndex({ url: standin.url, collection: "ok", model: "m", dim: 4, ...o });
    for (const bad of [{ url: "127.0.0.1:6333" }, { url: "ftp://h/" }, { collection: "a b" }, { dim: 0 }]) {
      expect(make(bad)).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    }
  });
});
