/**
 * The VectorIndex contract: what every VectorIndex adapter must do, whatever engine is behind it. A new adapter adds
 * one `await vectorIndexContract(...)` call to vector-index.test.ts. Vectors are real unit vectors of dimension 8;
 * each test opens a fresh, empty index and disposes of it.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { AtomFilter } from "../../src/domain/atom.ts";
import type { AtomPayload, VectorIndex, VectorPoint } from "../../src/ports/projections/vector-index.ts";
import { contractSuite, type SkipReason } from "../support/contract.ts";
import { rejectsWith } from "../support/errors.ts";

/** Opens a fresh, empty index of dimension {@link CONTRACT_DIM}, and says how to drop it. */
export type OpenIndex = () => Promise<{ index: VectorIndex; dispose(): Promise<void> }>;

/** Dimension the contract's vectors have; `open` must give an index of this dimension. */
export const CONTRACT_DIM = 8;

/** Unit vector of dimension {@link CONTRACT_DIM} along the given components (the rest 0). */
export function unit(...components: number[]): Float32Array {
  const v = new Float32Array(CONTRACT_DIM);
  v.set(components);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

const P = (
  type: AtomPayload["type"],
  status: AtomPayload["status"],
  docId: number | null,
  lang = "en",
): AtomPayload => ({
  type,
  status,
  docId,
  confidence: 0.7,
  lang,
});

/**
 * Five atoms around the axes e0/e1: 1 on e0, 2 close to e0, 3 on e1, 4 between e0 and e1 but retracted, 5 opposite
 * e0. Query e0 must rank 1, 2, 3, 5 (4 never).
 */
export const FIXTURE: VectorPoint[] = [
  { atomId: 1, vector: unit(1), payload: P("text", "verified", 1) },
  { atomId: 2, vector: unit(1, 0.1, 0.05), payload: P("definition", "candidate", 1, "ru") },
  { atomId: 3, vector: unit(0, 1), payload: P("fact", "verified", 2) },
  { atomId: 4, vector: unit(1, 0.2), payload: P("text", "retracted", 2) },
  { atomId: 5, vector: unit(-1, 0, 0, 0.3), payload: P("code", "stale", null) },
];

const Q = unit(1);
const ids = (hits: { atomId: number }[]) => hits.map((h) => h.atomId);

/** The index under test; set by beforeEach. */
interface Ctx {
  index: VectorIndex;
  dispose(): Promise<void>;
}

function searchTests(ctx: { c: Ctx }): void {
  test("upsert then search: nearest first, with cosine scores", async () => {
    await ctx.c.index.upsert(FIXTURE);
    const hits = await ctx.c.index.search(Q, 10);
    expect(ids(hits)).toEqual([1, 2, 3, 5]);
    for (const h of hits) expect(h.score).toBeCloseTo(cosine(FIXTURE.find((p) => p.atomId === h.atomId)!.vector, Q), 4);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
  });

  test("filters by type, status and document; lists combine with AND", async () => {
    await ctx.c.index.upsert(FIXTURE);
    const cases: Array<[AtomFilter, number[]]> = [
      [{ types: ["fact"] }, [3]],
      [{ types: ["text", "code"] }, [1, 5]],
      [{ status: ["stale", "candidate"] }, [2, 5]],
      [{ docIds: [2] }, [3]],
      [{ docIds: [1, 2] }, [1, 2, 3]],
      [{ types: ["text"], docIds: [1] }, [1]],
      [{ types: ["definition"], status: ["verified"] }, []],
      [{ types: [], status: [], docIds: [] }, [1, 2, 3, 5]],
    ];
    for (const [filter, want] of cases)
      expect({ filter, got: ids(await ctx.c.index.search(Q, 10, filter)) }).toEqual({ filter, got: want });
  });

  test("retracted atoms are never returned, even when the filter asks for them", async () => {
    await ctx.c.index.upsert(FIXTURE);
    expect(await ctx.c.index.search(Q, 10, { status: ["retracted"] })).toEqual([]);
    expect(ids(await ctx.c.index.search(unit(1, 0.2), 10, { status: ["retracted", "verified"] }))).toEqual([1, 3]);
    await ctx.c.index.upsert([{ atomId: 1, vector: unit(1), payload: P("text", "retracted", 1) }]);
    expect(ids(await ctx.c.index.search(Q, 10))).toEqual([2, 3, 5]);
  });

  test("k bounds: 0 gives none, 1 the best, more than held gives all visible", async () => {
    await ctx.c.index.upsert(FIXTURE);
    expect(await ctx.c.index.search(Q, 0)).toEqual([]);
    expect(ids(await ctx.c.index.search(Q, 1))).toEqual([1]);
    expect(ids(await ctx.c.index.search(Q, 2))).toEqual([1, 2]);
    expect(ids(await ctx.c.index.search(Q, 1000))).toEqual([1, 2, 3, 5]);
  });
}

function writeTests(ctx: { c: Ctx }): void {
  test("delete removes points; absent ids and repeats are ignored", async () => {
    await ctx.c.index.upsert(FIXTURE);
    await ctx.c.index.delete([1, 999]);
    expect(await ctx.c.index.count()).toBe(4);
    expect(ids(await ctx.c.index.search(Q, 10))).toEqual([2, 3, 5]);
    await ctx.c.index.delete([1]);
    await ctx.c.index.delete([]);
    expect(await ctx.c.index.count()).toBe(4);
  });

  test("upsert is idempotent and replaces the vector and payload", async () => {
    await ctx.c.index.upsert(FIXTURE);
    await ctx.c.index.upsert(FIXTURE);
    expect(await ctx.c.index.count()).toBe(5);
    await ctx.c.index.upsert([{ atomId: 3, vector: unit(1, 0.01), payload: P("fact", "verified", 2) }]);
    expect(await ctx.c.index.count()).toBe(5);
    const hits = await ctx.c.index.search(Q, 2);
    expect(ids(hits)).toEqual([1, 3]);
    expect(hits[1].score).toBeCloseTo(cosine(unit(1, 0.01), Q), 4);
    expect(ids(await ctx.c.index.search(Q, 10, { types: ["text"] }))).toEqual([1]);
  });

  test("count follows upserts and deletes", async () => {
    expect(await ctx.c.index.count()).toBe(0);
    await ctx.c.index.upsert(FIXTURE.slice(0, 2));
    expect(await ctx.c.index.count()).toBe(2);
    await ctx.c.index.upsert(FIXTURE.slice(1));
    expect(await ctx.c.index.count()).toBe(5);
    await ctx.c.index.delete([2, 4]);
    expect(await ctx.c.index.count()).toBe(3);
  });

  test("a vector of another dimension is refused (INVALID_INPUT) and nothing of its batch is written", async () => {
    const bad = {
      atomId: 9,
      vector: new Float32Array(CONTRACT_DIM + 1).fill(1 / 3),
      payload: P("text", "verified", 1),
    };
    const err = await rejectsWith(ctx.c.index.upsert([FIXTURE[0], bad]), "INVALID_INPUT");
    expect(err.message).toContain(String(CONTRACT_DIM + 1));
    expect(await ctx.c.index.count()).toBe(0);
    await rejectsWith(ctx.c.index.search(new Float32Array(CONTRACT_DIM - 1).fill(0.5), 3), "INVALID_INPUT");
  });
}

/**
 * Defines the contract's tests for one adapter; `open` is called before each test. `skip`, a probe's reason
 * (tests/support/contract.ts), skips the suite and prints why.
 */
export function vectorIndexContract(name: string, open: OpenIndex, skip: SkipReason = null): void {
  contractSuite(`VectorIndex contract: ${name}`, skip, () => {
    const ctx = {} as { c: Ctx };
    beforeEach(async () => {
      ctx.c = await open();
    });
    afterEach(async () => ctx.c?.dispose());

    test("describes itself: name, model, dimension; an empty index holds and finds nothing", async () => {
      expect(ctx.c.index.name.length).toBeGreaterThan(0);
      expect(ctx.c.index.model.length).toBeGreaterThan(0);
      expect(ctx.c.index.dim).toBe(CONTRACT_DIM);
      expect(await ctx.c.index.count()).toBe(0);
      expect(await ctx.c.index.search(Q, 5)).toEqual([]);
      expect(await ctx.c.index.search(Q, 5, { types: ["text"] })).toEqual([]);
    });
    searchTests(ctx);
    writeTests(ctx);
  });
}
