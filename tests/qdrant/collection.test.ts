/**
 * The Qdrant adapter's collection handling against the Qdrant REST stand-in: creation with payload indexes, refusal
 * of a collection of another shape (and no write to it, ever), custom names, reset, re-creation after a drop.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { PAYLOAD_INDEXES, QdrantVectorIndex, defaultCollectionName } from "../../src/adapters/qdrant/index.ts";
import type { AtomPayload } from "../../src/ports/projections/vector-index.ts";
import { rejectsWith } from "../support/errors.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";

const standin = await QdrantRestStandin.start();
afterAll(() => standin.stop());
beforeEach(() => {
  standin.requests.length = 0;
  standin.collections.clear();
  standin.failWith(null);
});

const MODEL = "embeddinggemma-2-740m-Q8_0";
const payload: AtomPayload = { type: "fact", status: "verified", docId: 3, confidence: 0.8, lang: "en" };
const vec = (dim: number) => new Float32Array(dim).fill(1 / Math.sqrt(dim));
const open = (collection: string, dim = 8) =>
  new QdrantVectorIndex({ url: standin.url, collection, model: MODEL, dim, timeoutMs: 3000 });

describe("prepare", () => {
  test("creates an absent collection (one unnamed Cosine vector of the dimension) with the six payload indexes", async () => {
    const name = defaultCollectionName(MODEL, 8);
    await open(name).prepare();
    const create = standin.requests.find((r) => r.method === "PUT" && r.path === `/collections/${name}`);
    expect(create?.body).toEqual({ vectors: { size: 8, distance: "Cosine" } });
    const indexes = standin.requests.filter((r) => r.path === `/collections/${name}/index`);
    expect(indexes.map((r) => r.body)).toEqual(
      PAYLOAD_INDEXES.map(([field_name, field_schema]) => ({ field_name, field_schema })),
    );
    expect(indexes.every((r) => r.method === "PUT" && r.query.wait === "true")).toBe(true);
    expect(
      Object.fromEntries(Object.entries(standin.collections.get(name)!.schema).map(([f, s]) => [f, s.data_type])),
    ).toEqual({
      atom_id: "integer",
      type: "keyword",
      status: "keyword",
      doc_id: "integer",
      lang: "keyword",
      confidence: "float",
    });
  });

  test("is cached: later operations do not read the collection again", async () => {
    const index = open("cached");
    await index.prepare();
    await index.prepare();
    await index.count();
    expect(standin.requests.filter((r) => r.method === "GET" && r.path === "/collections/cached")).toHaveLength(2); // before and after creating
  });

  test("a present collection of the right shape is kept; only missing indexes are added", async () => {
    standin.seedCollection("present", { size: 8, distance: "Cosine" });
    standin.collections.get("present")!.schema = { atom_id: { data_type: "integer" }, type: { data_type: "keyword" } };
    await open("present").prepare();
    expect(standin.requests.some((r) => r.method === "PUT" && r.path === "/collections/present")).toBe(false);
    expect(
      standin.requests
        .filter((r) => r.path.endsWith("/index"))
        .map((r) => (r.body as { field_name: string }).field_name),
    ).toEqual(["status", "doc_id", "lang", "confidence"]);
  });

  test("a custom collection name (QDRANT_COLLECTION) is used for every request", async () => {
    const index = open("alicorn_atoms");
    await index.upsert([{ atomId: 1, vector: vec(8), payload }]);
    await index.search(vec(8), 3);
    await index.count();
    expect(standin.requests.every((r) => r.path.startsWith("/collections/alicorn_atoms"))).toBe(true);
    expect([...standin.collections.keys()]).toEqual(["alicorn_atoms"]);
  });
});

describe("a collection of another shape is refused and never written to", () => {
  test("dimension 4 while the embedder gives 8 → INVALID_INPUT naming collection, both dimensions and the fix", async () => {
    standin.seedCollection("old_model", { size: 4, distance: "Cosine" });
    const index = open("old_model");
    const err = await rejectsWith(index.prepare(), "INVALID_INPUT");
    expect(err.message).toContain("'old_model'");
    expect(err.message).toContain("dimension 4");
    expect(err.message).toContain("dimension 8");
    expect(err.hint).toContain("QDRANT_COLLECTION");
    expect(err.hint).toContain(defaultCollectionName(MODEL, 8));
    expect(err.hint).toContain("pegas-memory reembed");
    await rejectsWith(index.upsert([{ atomId: 1, vector: vec(8), payload }]), "INVALID_INPUT");
    await rejectsWith(index.apply([{ entity: "atom", id: 1, state: { ...payload, vector: vec(8) } }]), "INVALID_INPUT");
    await rejectsWith(index.apply([{ entity: "atom", id: 2, state: null }]), "INVALID_INPUT");
    await rejectsWith(index.delete([1]), "INVALID_INPUT");
    await rejectsWith(index.search(vec(8), 3), "INVALID_INPUT");
    expect(standin.writes()).toEqual([]);
    expect(standin.collections.get("old_model")!.points.size).toBe(0);
  });

  test("named vectors → INVALID_INPUT naming them", async () => {
    standin.seedCollection("named", { dense: { size: 8, distance: "Cosine" }, title: { size: 8, distance: "Cosine" } });
    const err = await rejectsWith(open("named").prepare(), "INVALID_INPUT");
    expect(err.message).toContain("named vectors ('dense', 'title')");
    expect(standin.writes()).toEqual([]);
  });

  test("Dot distance → INVALID_INPUT naming the distance", async () => {
    standin.seedCollection("dot", { size: 8, distance: "Dot" });
    const err = await rejectsWith(open("dot").prepare(), "INVALID_INPUT");
    expect(err.message).toContain("distance 'Dot'");
    expect(standin.writes()).toEqual([]);
  });
});

describe("reset and re-creation", () => {
  test("reset drops everything and re-creates the collection empty (also one of another dimension)", async () => {
    standin.seedCollection("rebuild_me", { size: 4, distance: "Cosine" });
    const index = open("rebuild_me");
    await index.reset();
    expect(standin.collections.get("rebuild_me")!.vectors).toEqual({ size: 8, distance: "Cosine" });
    await index.upsert([{ atomId: 1, vector: vec(8), payload }]);
    expect(await index.counts()).toEqual({ atom: 1 });
    await index.reset();
    expect(await index.counts()).toEqual({ atom: 0 });
  });

  test("a collection dropped behind the adapter's back is re-created on the next write, which then succeeds", async () => {
    const index = open("dropped");
    await index.upsert([{ atomId: 1, vector: vec(8), payload }]);
    standin.collections.delete("dropped");
    await index.upsert([{ atomId: 2, vector: vec(8), payload }]);
    expect(await index.count()).toBe(1);
    expect(Object.keys(standin.collections.get("dropped")!.schema)).toHaveLength(PAYLOAD_INDEXES.length);
  });
});
