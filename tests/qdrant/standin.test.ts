/**
 * The Qdrant REST stand-in itself, driven with plain HTTP: envelopes and error shapes, filter semantics, scoring.
 * The adapter's tests are only as good as these answers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";

const standin = await QdrantRestStandin.start();
afterAll(() => standin.stop());

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${standin.url}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const ids = async (filter: unknown): Promise<number[]> => {
  const { json } = await call("POST", "/collections/f/points/query", { query: [1, 0, 0], filter, limit: 10 });
  return (json.result as { points: Array<{ id: number }> }).points.map((p) => p.id).sort((a, b) => a - b);
};

beforeAll(async () => {
  await call("PUT", "/collections/f", { vectors: { size: 3, distance: "Cosine" } });
  await call("PUT", "/collections/f/points?wait=true", {
    points: [
      { id: 1, vector: [2, 0, 0], payload: { type: "text", doc_id: 1, tags: ["a", "b"], n: 0.5 } },
      { id: 2, vector: [1, 1, 0], payload: { type: "fact", doc_id: 2, tags: ["b"], n: 2 } },
      { id: 3, vector: [0, 1, 0], payload: { type: "text", doc_id: null, n: 5 } },
      { id: 4, vector: [-1, 0, 0], payload: { type: "code", doc_id: "1" } },
    ],
  });
});

describe("envelopes", () => {
  test("success is {result, status: 'ok', time}; a missing collection is 404 {status: {error}}", async () => {
    const ok = await call("GET", "/collections/f/exists");
    expect(ok).toEqual({ status: 200, json: { result: { exists: true }, status: "ok", time: expect.any(Number) } });
    const missing = await call("GET", "/collections/nope");
    expect(missing.status).toBe(404);
    expect(missing.json.status).toEqual({ error: "Not found: Collection `nope` doesn't exist!" });
  });

  test("creating a present collection is 409; a vector of another dimension is 400", async () => {
    expect((await call("PUT", "/collections/f", { vectors: { size: 3, distance: "Cosine" } })).status).toBe(409);
    const bad = await call("PUT", "/collections/f/points", { points: [{ id: 9, vector: [1, 0], payload: {} }] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("expected dim: 3, got 2");
    expect(
      (await call("PUT", "/collections/f/points", { points: [{ id: "not-an-id", vector: [1, 0, 0] }] })).status,
    ).toBe(400);
  });
});

describe("filters and scoring", () => {
  test("cosine scores of normalized vectors, best first", async () => {
    const { json } = await call("POST", "/collections/f/points/query", {
      query: [3, 0, 0],
      limit: 10,
      with_payload: ["type"],
    });
    const points = (json.result as { points: Array<{ id: number; score: number; payload: unknown }> }).points;
    expect(points.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(points.map((p) => p.score)).toEqual([
      expect.closeTo(1, 6),
      expect.closeTo(Math.SQRT1_2, 6),
      expect.closeTo(0, 6),
      expect.closeTo(-1, 6),
    ]);
    expect(points[0].payload).toEqual({ type: "text" });
  });

  test("match.value and match.any are type-strict (integer 1 is not keyword '1'); arrays match any element", async () => {
    expect(await ids({ must: [{ key: "doc_id", match: { value: 1 } }] })).toEqual([1]);
    expect(await ids({ must: [{ key: "doc_id", match: { any: ["1"] } }] })).toEqual([4]);
    expect(await ids({ must: [{ key: "tags", match: { value: "b" } }] })).toEqual([1, 2]);
    expect(await ids({ must: [{ key: "type", match: { any: ["text", "code"] } }] })).toEqual([1, 3, 4]);
  });

  test("must_not passes points without the field; should needs one; nested filters; has_id; is_null; range", async () => {
    expect(await ids({ must_not: [{ key: "doc_id", match: { any: [1, 2] } }] })).toEqual([3, 4]);
    expect(
      await ids({
        should: [
          { key: "type", match: { value: "fact" } },
          { key: "n", range: { gte: 5 } },
        ],
      }),
    ).toEqual([2, 3]);
    expect(
      await ids({ must: [{ must_not: [{ key: "type", match: { value: "text" } }] }], must_not: [{ has_id: [4] }] }),
    ).toEqual([2]);
    expect(await ids({ must: [{ is_null: { key: "doc_id" } }] })).toEqual([3]);
    expect(await ids({ must: [{ key: "n", range: { gt: 0.5, lt: 5 } }] })).toEqual([2]);
  });

  test("what it does not implement is refused with 400, not silently ignored", async () => {
    const res = await call("POST", "/collections/f/points/query", {
      query: [1, 0, 0],
      filter: { must: [{ key: "type", match: { text: "te" } }] },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain("not implemented by the Qdrant REST stand-in");
  });

  test("count and delete by filter", async () => {
    expect(
      (
        await call("POST", "/collections/f/points/count", {
          exact: true,
          filter: { must: [{ key: "type", match: { value: "text" } }] },
        })
      ).json.result,
    ).toEqual({ count: 2 });
    await call("POST", "/collections/f/points/delete?wait=true", {
      filter: { must: [{ key: "type", match: { value: "code" } }] },
    });
    expect((await call("POST", "/collections/f/points/count", { exact: true })).json.result).toEqual({ count: 3 });
    expect(standin.upsertsByPoint.get("1")).toBe(1);
  });
});
