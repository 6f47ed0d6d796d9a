/**
 * What the Ollama embedder sends and how it paces it, observed on the stand-in server: batching, the concurrency
 * limit, EmbeddingGemma's prompts, keep_alive, normalization, the per-request timeout and cancellation.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { DOCUMENT_PROMPT, QUERY_PROMPT } from "../../src/adapters/llm/ollama/prompts.ts";
import { rejectsWith } from "../support/errors.ts";
import { expectedVector, maxDiff, stubEmbedder } from "../support/ollama-fixture.ts";
import { STUB_MODEL, startOllamaStub } from "../support/ollama-stub.ts";

const stub = startOllamaStub();
afterAll(() => stub.stop());
afterEach(() => {
  stub.reset();
  stub.delayMs = 0;
});

/** Embedder made ready, with the probe removed from the record. */
async function readyEmbedder(over: Parameters<typeof stubEmbedder>[1] = {}) {
  const e = stubEmbedder(stub, over);
  await e.ready();
  stub.reset();
  return e;
}

describe("batching and order", () => {
  test("batchSize texts per request, vectors back in input order", async () => {
    const e = await readyEmbedder({ batchSize: 3, concurrency: 1 });
    const texts = Array.from({ length: 10 }, (_, i) => `passage ${i}`);
    const vs = await e.embedDocuments(texts);
    expect(stub.requests.map((r) => r.input.length)).toEqual([3, 3, 3, 1]);
    for (const [i, t] of texts.entries())
      expect(maxDiff(vs[i], expectedVector(stub, DOCUMENT_PROMPT + t))).toBeLessThan(1e-6);
  });

  test("vectors are L2-normalized although the server's are not", async () => {
    const e = await readyEmbedder();
    const [v] = await e.embedDocuments(["norm check"]);
    const n = Math.hypot(...v);
    expect(Math.abs(n - 1)).toBeLessThan(1e-5);
    expect(Math.hypot(...expectedVector(stub, "x"))).toBeCloseTo(1, 5);
  });

  test("an empty list sends nothing", async () => {
    const e = stubEmbedder(stub);
    expect(await e.embedDocuments([])).toEqual([]);
    expect(stub.requests).toHaveLength(0);
  });
});

describe("concurrency", () => {
  test("at most `concurrency` requests in flight, and that many are used", async () => {
    const e = await readyEmbedder({ batchSize: 1, concurrency: 2 });
    stub.delayMs = 25;
    await e.embedDocuments(Array.from({ length: 8 }, (_, i) => `c${i}`));
    expect(stub.requests).toHaveLength(8);
    expect(stub.maxInFlight).toBe(2);
  });

  test("the limit holds across concurrent calls on one embedder", async () => {
    const e = await readyEmbedder({ batchSize: 2, concurrency: 2 });
    stub.delayMs = 20;
    const calls = Array.from({ length: 4 }, (_, k) => e.embedDocuments([`a${k}`, `b${k}`, `c${k}`, `d${k}`]));
    const results = await Promise.all(calls);
    expect(results.every((r) => r.length === 4)).toBe(true);
    expect(stub.maxInFlight).toBe(2);
  });

  test("concurrency 1 serializes", async () => {
    const e = await readyEmbedder({ batchSize: 1, concurrency: 1 });
    stub.delayMs = 10;
    await Promise.all([e.embedDocuments(["p", "q", "r"]), e.embedQuery("s")]);
    expect(stub.maxInFlight).toBe(1);
  });
});

describe("what is sent", () => {
  test("EmbeddingGemma's prompts: documents and queries", async () => {
    expect(DOCUMENT_PROMPT).toBe("title: none | text: ");
    expect(QUERY_PROMPT).toBe("task: search result | query: ");
    const e = await readyEmbedder({ batchSize: 8 });
    await e.embedDocuments(["Кошка спит.", "The cat sleeps."]);
    const q = await e.embedQuery("где спит кошка?");
    expect(stub.requests[0].input).toEqual([`${DOCUMENT_PROMPT}Кошка спит.`, `${DOCUMENT_PROMPT}The cat sleeps.`]);
    expect(stub.requests[1].input).toEqual([`${QUERY_PROMPT}где спит кошка?`]);
    expect(maxDiff(q, expectedVector(stub, `${QUERY_PROMPT}где спит кошка?`))).toBeLessThan(1e-6);
  });

  test("model and keep_alive on every request, the probe included; no truncate or dimensions by default", async () => {
    const e = stubEmbedder(stub, { keepAlive: "7m", batchSize: 2 });
    await e.embedDocuments(["one", "two", "three"]);
    await e.embedQuery("four");
    expect(stub.requests).toHaveLength(4);
    for (const r of stub.requests) {
      expect(r.model).toBe(STUB_MODEL);
      expect(r.keep_alive).toBe("7m");
      expect(r.truncate).toBeUndefined();
      expect(r.dimensions).toBeUndefined();
    }
  });

  test("a numeric keep_alive (seconds) passes through as a number", async () => {
    const e = stubEmbedder(stub, { keepAlive: 0 });
    await e.embedQuery("unload right after");
    expect(stub.requests.every((r) => r.keep_alive === 0)).toBe(true);
  });
});

describe("timeout and cancellation", () => {
  test("a request slower than timeoutMs → LLM_FAILED naming host, model and the limit", async () => {
    const e = await readyEmbedder({ timeoutMs: 150 });
    stub.failure = "slow";
    stub.slowMs = 3000;
    const err = await rejectsWith(e.embedDocuments(["slow one"]), "LLM_FAILED");
    expect(err.message).toContain("within 150 ms");
    expect(err.message).toContain(stub.url);
    expect(err.message).toContain(STUB_MODEL);
  });

  test("abort during a request → CANCELLED at once", async () => {
    const e = await readyEmbedder();
    stub.failure = "slow";
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    await rejectsWith(e.embedDocuments(["a", "b"], ctl.signal), "CANCELLED");
  });

  test("an already aborted signal sends nothing", async () => {
    const e = await readyEmbedder();
    await rejectsWith(e.embedQuery("never sent", AbortSignal.abort()), "CANCELLED");
    expect(stub.requests).toHaveLength(0);
  });

  test("abort while waiting for a slot: leaves the queue, nothing sent", async () => {
    const e = await readyEmbedder({ concurrency: 1 });
    stub.failure = "slow";
    const first = new AbortController();
    const busy = e.embedQuery("holds the only slot", first.signal).catch((err) => err);
    await Bun.sleep(20);
    const second = new AbortController();
    const waiting = e.embedQuery("waits", second.signal);
    setTimeout(() => second.abort(), 30);
    await rejectsWith(waiting, "CANCELLED");
    expect(stub.requests.map((r) => r.input[0])).toEqual([`${QUERY_PROMPT}holds the only slot`]);
    first.abort();
    expect((await busy).code).toBe("CANCELLED");
  });

  test("abort while the first call is still probing → CANCELLED without waiting for the probe", async () => {
    stub.failure = "slow";
    stub.slowMs = 2000;
    const e = stubEmbedder(stub, { timeoutMs: 400 });
    const call = e.embedQuery("q", AbortSignal.timeout(50));
    let probeEnded = false;
    const probe = e.ready().finally(() => {
      probeEnded = true;
    });
    await rejectsWith(call, "CANCELLED");
    expect(probeEnded).toBe(false); // the call did not wait for the probe
    await rejectsWith(probe, "LLM_FAILED"); // the probe itself ends at its own timeout
  });
});
