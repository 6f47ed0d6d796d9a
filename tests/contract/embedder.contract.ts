/**
 * The Embedder contract: what every Embedder adapter must do, whatever model is behind it. A new adapter adds one
 * `embedderContract(...)` call to embedder.test.ts.
 */
import { beforeAll, expect, test } from "bun:test";
import { type Embedder, vectorProblem } from "../../src/ports/models/embedder.ts";
import { contractSuite, type SkipReason } from "../support/contract.ts";
import { rejectsWith } from "../support/errors.ts";

/** Options of one contract run. */
export interface EmbedderContractOptions {
  /** Per-test timeout in ms (a real model on a cold GPU needs more than the default). */
  timeoutMs?: number;
  /**
   * Whether the vectors carry meaning, so that a query is closer to a passage on its topic than to an unrelated
   * one. False for stand-in servers that return hash vectors.
   */
  meaningful?: boolean;
  /** Cosine at or above which two vectors of the same input count as the same (GPU batching is not bit-exact). */
  sameCosine?: number;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

/** About 100 KB of mixed English and Russian prose (ASCII and two-byte UTF-8). */
function hundredKilobytes(): string {
  const line = "Memory atoms are cited and verified. Атомы памяти проверяются и цитируются. ";
  let s = "";
  while (Buffer.byteLength(s) < 100 * 1024) s += line;
  return s;
}

/** The embedder under test, set by the suite's beforeAll, plus the run's settings. */
interface Ctx {
  e: Embedder;
  timeout: number;
  same: number;
}

function expectGood(ctx: Ctx, v: Float32Array): void {
  expect(v).toBeInstanceOf(Float32Array);
  expect(vectorProblem(v, ctx.e.dim)).toBeNull();
  expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-4);
}

/** Identity, dimension, norm and determinism. */
function shapeTests(ctx: Ctx): void {
  test("describes itself: model, kind, dimension, near-duplicate threshold", () => {
    const { e } = ctx;
    expect(typeof e.model).toBe("string");
    expect(e.model.length).toBeGreaterThan(0);
    expect(["lexical", "neural"]).toContain(e.kind);
    expect(Number.isInteger(e.dim) && e.dim > 0).toBe(true);
    expect(e.nearDupThreshold).toBeGreaterThan(0);
    expect(e.nearDupThreshold).toBeLessThanOrEqual(1);
  });

  test(
    "documents: one vector per text, of the dimension, finite, unit norm",
    async () => {
      const vs = await ctx.e.embedDocuments(["The cat sleeps on the mat.", "Кошка спит на коврике."]);
      expect(vs).toHaveLength(2);
      for (const v of vs) expectGood(ctx, v);
    },
    ctx.timeout,
  );

  test(
    "query: a vector of the dimension, unit norm",
    async () => {
      expectGood(ctx, await ctx.e.embedQuery("where does the cat sleep?"));
    },
    ctx.timeout,
  );

  test(
    "deterministic for the same input",
    async () => {
      const { e, same } = ctx;
      const text = "Determinism: the same text gives the same vector.";
      const [a] = await e.embedDocuments([text]);
      const [b] = await e.embedDocuments([text]);
      expect(cosine(a, b)).toBeGreaterThanOrEqual(same);
      expect(cosine(await e.embedQuery(text), await e.embedQuery(text))).toBeGreaterThanOrEqual(same);
    },
    ctx.timeout,
  );
}

/** Languages, sizes, order and refused input. */
function inputTests(ctx: Ctx): void {
  test(
    "Russian, English, emoji-only and mixed-script text",
    async () => {
      const texts = ["Суббота — шестой день недели.", "Saturday is the sixth day of the week.", "🙂🚀🔥", "ёлка и Ёж"];
      const vs = await ctx.e.embedDocuments(texts);
      expect(vs).toHaveLength(texts.length);
      for (const v of vs) expectGood(ctx, v);
    },
    ctx.timeout,
  );

  test(
    "a 100 KB text",
    async () => {
      const [v] = await ctx.e.embedDocuments([hundredKilobytes()]);
      expectGood(ctx, v);
    },
    ctx.timeout * 2,
  );

  test(
    "order preserved: a batch equals its texts embedded one by one",
    async () => {
      const texts = Array.from({ length: 7 }, (_, i) => `passage number ${i}: ${"word ".repeat(i + 1)}topic${i}`);
      const batch = await ctx.e.embedDocuments(texts);
      for (let i = 0; i < texts.length; i++) {
        const [alone] = await ctx.e.embedDocuments([texts[i]]);
        expect(cosine(batch[i], alone)).toBeGreaterThanOrEqual(ctx.same);
      }
    },
    ctx.timeout * 3,
  );

  test("an empty list gives an empty list", async () => {
    expect(await ctx.e.embedDocuments([])).toEqual([]);
  });

  test("empty or whitespace-only text → PegasError INVALID_INPUT", async () => {
    await rejectsWith(ctx.e.embedQuery(""), "INVALID_INPUT");
    await rejectsWith(ctx.e.embedQuery("  \n\t "), "INVALID_INPUT");
    const err = await rejectsWith(ctx.e.embedDocuments(["fine", ""]), "INVALID_INPUT");
    expect(err.message).toContain("empty");
  });
}

/**
 * Registers the contract tests for one adapter. `makeEmbedder` is called once, before the tests; the contract calls
 * `ready()` itself. `skip`, a probe's reason (tests/support/contract.ts), skips the suite and prints why.
 */
export function embedderContract(
  name: string,
  makeEmbedder: () => Embedder | Promise<Embedder>,
  opts: EmbedderContractOptions = {},
  skip: SkipReason = null,
): void {
  const ctx = { timeout: opts.timeoutMs ?? 5000, same: opts.sameCosine ?? 0.999 } as Ctx;
  contractSuite(`Embedder contract: ${name}`, skip, () => {
    beforeAll(async () => {
      ctx.e = await makeEmbedder();
      await ctx.e.ready();
    }, ctx.timeout);
    shapeTests(ctx);
    inputTests(ctx);
    test.skipIf(opts.meaningful === false)(
      "a query is closer to a passage on its topic than to an unrelated one",
      async () => {
        const [onTopic, offTopic] = await ctx.e.embedDocuments([
          "Cats sleep for most of the day, often sixteen hours.",
          "The tax return is due at the end of April.",
        ]);
        const q = await ctx.e.embedQuery("how long do cats sleep");
        expect(cosine(q, onTopic)).toBeGreaterThan(cosine(q, offTopic));
      },
      ctx.timeout,
    );
  });
}
