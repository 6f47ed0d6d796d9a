/**
 * What the Qdrant adapter writes, against the Qdrant REST stand-in: UUID point ids derived from atom ids, payloads,
 * batching, the filter it sends, apply() of resolved outbox changes (each applied exactly once), the API key.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { QdrantVectorIndex, pointIdOf } from "../../src/adapters/qdrant/index.ts";
import type { AtomState } from "../../src/ports/projections/projection-sink.ts";
import type { AtomPayload, VectorPoint } from "../../src/ports/projections/vector-index.ts";
import { rejectsWith } from "../support/errors.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";

const standin = await QdrantRestStandin.start();
afterAll(() => standin.stop());
let n = 0;
let name = "";
beforeEach(() => {
  standin.requests.length = 0;
  standin.upsertsByPoint.clear();
  name = `writes_${++n}`;
});

const DIM = 16;
const payload: AtomPayload = { type: "definition", status: "candidate", docId: 7, confidence: 0.5, lang: "ru" };
/** A unit vector pointing mostly along axis `i % DIM`. */
function vec(i: number): Float32Array {
  const v = new Float32Array(DIM).fill(0.05);
  v[i % DIM] = 1;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}
const open = (extra: Partial<ConstructorParameters<typeof QdrantVectorIndex>[0]> = {}) =>
  new QdrantVectorIndex({ url: standin.url, collection: name, model: "m", dim: DIM, timeoutMs: 3000, ...extra });
const upserts = () => standin.requests.filter((r) => r.method === "PUT" && r.path === `/collections/${name}/points`);

describe("points", () => {
  test("point ids are the UUIDs of the atom ids; payload {atom_id, type, status, doc_id, confidence, lang}; wait=true", async () => {
    await open().upsert([
      { atomId: 12, vector: vec(0), payload },
      { atomId: 13, vector: vec(1) },
    ]);
    const [req] = upserts();
    expect(req.query.wait).toBe("true");
    const points = (req.body as { points: Array<{ id: string; vector: number[]; payload: unknown }> }).points;
    expect(points.map((p) => p.id)).toEqual([pointIdOf(12), pointIdOf(13)]);
    expect(points[0].payload).toEqual({
      atom_id: 12,
      type: "definition",
      status: "candidate",
      doc_id: 7,
      confidence: 0.5,
      lang: "ru",
    });
    expect(points[1].payload).toEqual({ atom_id: 13 });
    expect(points[0].vector).toHaveLength(DIM);
    expect(points[0].vector[0]).toBeCloseTo(vec(0)[0], 6);
  });

  test("600 points go in 3 upsert requests (256 + 256 + 88), each point once", async () => {
    const points: VectorPoint[] = Array.from({ length: 600 }, (_, i) => ({ atomId: i + 1, vector: vec(i), payload }));
    const index = open();
    await index.upsert(points);
    expect(upserts().map((r) => (r.body as { points: unknown[] }).points.length)).toEqual([256, 256, 88]);
    expect(await index.count()).toBe(600);
    expect(standin.upsertsByPoint.size).toBe(600);
    expect([...standin.upsertsByPoint.values()].every((c) => c === 1)).toBe(true);
  });

  test("the batch size is configurable; within one call the last point of an atom wins", async () => {
    const index = open({ batchSize: 2 });
    await index.upsert([1, 2, 3, 2].map((atomId, i) => ({ atomId, vector: vec(i), payload })));
    expect(upserts()).toHaveLength(2);
    expect(await index.search(vec(3), 1)).toEqual([{ atomId: 2, score: expect.closeTo(1, 5) }]);
  });

  test("non-finite components and wrong dimensions are refused before any request", async () => {
    const nan = vec(0);
    nan[3] = Number.NaN;
    const index = open();
    await rejectsWith(index.upsert([{ atomId: 1, vector: nan, payload }]), "INVALID_INPUT");
    await rejectsWith(index.upsert([{ atomId: 1, vector: new Float32Array(8), payload }]), "INVALID_INPUT");
    await rejectsWith(index.search(new Float32Array(8), 3), "INVALID_INPUT");
    expect(standin.requests).toEqual([]);
  });

  test("search sends the filter as match.any lists plus must_not status = retracted, and asks only for atom_id", async () => {
    const index = open();
    await index.upsert([{ atomId: 1, vector: vec(0), payload }]);
    await index.search(vec(0), 5, { types: ["definition", "fact"], status: ["candidate"], docIds: [7, 8] });
    const q = standin.requests.find((r) => r.path.endsWith("/points/query"))!.body as Record<string, unknown>;
    expect(q.limit).toBe(5);
    expect(q.with_payload).toEqual(["atom_id"]);
    expect(q.filter).toEqual({
      must: [
        { key: "type", match: { any: ["definition", "fact"] } },
        { key: "status", match: { any: ["candidate"] } },
        { key: "doc_id", match: { any: [7, 8] } },
      ],
      must_not: [{ key: "status", match: { value: "retracted" } }],
    });
  });
});

describe("apply (ProjectionSink)", () => {
  const state = (i: number, over: Partial<AtomState> = {}): AtomState => ({ ...payload, vector: vec(i), ...over });

  test("projects only atoms; name 'qdrant'; counts() gives { atom: n }", async () => {
    const index = open();
    expect(index.name).toBe("qdrant");
    expect([...index.entities]).toEqual(["atom"]);
    await index.apply([
      { entity: "atom", id: 1, state: state(1) },
      { entity: "document", id: 1, state: { uri: "file:///x", title: null, kind: "text" } },
      { entity: "atom", id: 2, state: state(2) },
    ]);
    expect(await index.counts()).toEqual({ atom: 2 });
  });

  test("a null state, a retracted atom and an atom without a vector delete the point", async () => {
    const index = open();
    await index.apply([1, 2, 3, 4].map((id) => ({ entity: "atom" as const, id, state: state(id) })));
    await index.apply([
      { entity: "atom", id: 1, state: null },
      { entity: "atom", id: 2, state: state(2, { status: "retracted" }) },
      { entity: "atom", id: 3, state: state(3, { vector: null }) },
    ]);
    expect(await index.count()).toBe(1);
    expect((await index.search(vec(4), 10)).map((h) => h.atomId)).toEqual([4]);
    const del = standin.requests.find((r) => r.path.endsWith("/points/delete"))!.body as { points: string[] };
    expect(del.points.sort()).toEqual([pointIdOf(1), pointIdOf(2), pointIdOf(3)].sort());
  });

  test("each resolved change is written exactly once; the last change of an atom in a batch wins", async () => {
    const index = open();
    await index.apply([
      { entity: "atom", id: 5, state: state(5) },
      { entity: "atom", id: 6, state: state(6) },
      { entity: "atom", id: 5, state: state(7, { status: "verified" }) },
    ]);
    expect(standin.upsertsByPoint.get(pointIdOf(5))).toBe(1);
    expect(standin.upsertsByPoint.get(pointIdOf(6))).toBe(1);
    expect(standin.collections.get(name)!.points.get(pointIdOf(5))!.payload.status).toBe("verified");
    await index.apply([
      { entity: "atom", id: 5, state: null },
      { entity: "atom", id: 5, state: state(5) },
    ]);
    expect(standin.upsertsByPoint.get(pointIdOf(5))).toBe(2);
    expect(await index.count()).toBe(2);
  });

  test("a vector of another dimension in a batch → INVALID_INPUT, and nothing of the batch is written", async () => {
    const index = open();
    await index.prepare();
    standin.requests.length = 0;
    await rejectsWith(
      index.apply([
        { entity: "atom", id: 1, state: null },
        { entity: "atom", id: 2, state: state(2, { vector: new Float32Array(3) }) },
      ]),
      "INVALID_INPUT",
    );
    expect(standin.writes()).toEqual([]);
  });
});

describe("API key", () => {
  test("is sent as the api-key header on every request when configured", async () => {
    const keyed = await QdrantRestStandin.start({ apiKey: "s3cret" });
    try {
      const index = new QdrantVectorIndex({
        url: keyed.url,
        apiKey: "s3cret",
        collection: "keyed",
        model: "m",
        dim: DIM,
      });
      await index.upsert([{ atomId: 1, vector: vec(1), payload }]);
      expect(await index.count()).toBe(1);
      expect(keyed.requests.length).toBeGreaterThan(3);
      expect(keyed.requests.every((r) => r.apiKey === "s3cret" && r.status !== 401)).toBe(true);
      const anonymous = new QdrantVectorIndex({ url: keyed.url, collection: "keyed", model: "m", dim: DIM });
      const err = await rejectsWith(anonymous.count(), "INDEX_UNAVAILABLE");
      expect(err.message).toContain("HTTP 401");
      expect(err.hint).toContain("QDRANT_API_KEY");
    } finally {
      await keyed.stop();
    }
  });

  test("is not sent when not configured", async () => {
    await open().count();
    expect(standin.requests.every((r) => r.apiKey === null)).toBe(true);
  });
});
