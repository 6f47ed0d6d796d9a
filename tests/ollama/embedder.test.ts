/**
 * Failure modes of the Ollama embedder against the stand-in server: each must end in a PegasError with the right
 * code and a message that names the host, the model or the input, and never in part of a result.
 */
import { afterAll, afterEach, describe, expect, spyOn, test } from "bun:test";
import { DOCUMENT_PROMPT } from "../../src/adapters/llm/ollama/prompts.ts";
import { OllamaEmbedder } from "../../src/adapters/llm/ollama/embedder.ts";
import { rejectsWith } from "../support/errors.ts";
import { closedPort, expectedVector, maxDiff, stubEmbedder } from "../support/ollama-fixture.ts";
import { STUB_MODEL, startOllamaStub } from "../support/ollama-stub.ts";

const stub = startOllamaStub();
afterAll(() => stub.stop());
afterEach(() => {
  stub.reset();
  stub.dim = 768;
  stub.delayMs = 0;
  stub.contextChars = Number.POSITIVE_INFINITY;
});

describe("ready()", () => {
  test("probes once with a document-prompted text and reads the dimension", async () => {
    const e = stubEmbedder(stub);
    await e.ready();
    await e.ready();
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0].input[0].startsWith(DOCUMENT_PROMPT)).toBe(true);
    expect(e.dim).toBe(768);
  });

  test("a dimension mismatch names both numbers and what to do", async () => {
    stub.dim = 512;
    const e = stubEmbedder(stub);
    const err = await rejectsWith(e.ready(), "LLM_FAILED");
    expect(err.message).toContain("512");
    expect(err.message).toContain("768");
    expect(err.message).toContain(STUB_MODEL);
    expect(err.hint).toContain("PEGAS_EMBED_DIM=512");
    expect(err.hint).toContain("PEGAS_EMBED_MODEL");
    await rejectsWith(e.embedDocuments(["some text"]), "LLM_FAILED");
  });

  test("a failed probe is forgotten, so a later ready() probes again", async () => {
    const e = stubEmbedder(stub);
    stub.failure = "model-not-found";
    await rejectsWith(e.ready(), "LLM_FAILED");
    stub.failure = null;
    await e.ready();
    expect(e.dim).toBe(768);
  });
});

describe("unreachable server or model", () => {
  test("a model that is not pulled: says so and how to pull it", async () => {
    const e = stubEmbedder(stub, { model: "nope" });
    const err = await rejectsWith(e.embedQuery("hello"), "LLM_FAILED");
    expect(err.message).toBe(`model 'nope' is not pulled on ${stub.url}: run \`ollama pull nope\``);
  });

  test("connection refused: names the host and how to start Ollama", async () => {
    const port = await closedPort();
    const e = stubEmbedder(stub, { host: `http://127.0.0.1:${port}` });
    const err = await rejectsWith(e.ready(), "LLM_FAILED");
    expect(err.message).toContain(`cannot reach Ollama at http://127.0.0.1:${port}`);
    expect(err.hint).toContain("ollama serve");
  });

  test("a server that is not Ollama (plain-text 404): clear message, nothing printed to stdout", async () => {
    const printed = spyOn(console, "log");
    try {
      const e = stubEmbedder(stub, { host: `${stub.url}/elsewhere` });
      const err = await rejectsWith(e.ready(), "LLM_FAILED");
      expect(err.message).toContain("does not look like an Ollama server");
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  test("credentials in the host never appear in messages", async () => {
    const port = await closedPort();
    const e = stubEmbedder(stub, { host: `http://user:secret@127.0.0.1:${port}` });
    const err = await rejectsWith(e.ready(), "LLM_FAILED");
    expect(err.message).not.toContain("secret");
  });
});

describe("bad vectors and counts: the whole call fails, naming the input", () => {
  const texts = ["alpha", "beta", "gamma MARK", "delta"];
  const cases = [
    ["nan", "input 2: component 3 is null"],
    ["zero", "input 2: zero vector"],
    ["wrong-dim", "input 2: dimension 769, expected 768"],
    ["wrong-count", "returned 1 vectors for 2 inputs (inputs 2..3)"],
  ] as const;
  for (const [failure, expected] of cases) {
    test(failure, async () => {
      const e = stubEmbedder(stub, { batchSize: 2 });
      await e.ready();
      stub.failure = failure;
      stub.failOn = (s) => s.includes("MARK");
      const err = await rejectsWith(e.embedDocuments(texts), "LLM_FAILED");
      expect(err.message).toContain(expected);
      expect(err.message).toContain(`model '${STUB_MODEL}' on ${stub.url}`);
    });
  }

  test("after a failure the remaining batches are not sent", async () => {
    const e = stubEmbedder(stub, { batchSize: 1, concurrency: 2 });
    await e.ready();
    stub.reset();
    stub.delayMs = 20;
    stub.failure = "zero";
    stub.failOn = (s) => s.includes("text 0");
    const texts = Array.from({ length: 12 }, (_, i) => `text ${i}`);
    await rejectsWith(e.embedDocuments(texts), "LLM_FAILED");
    expect(stub.requests.length).toBeLessThan(texts.length);
  });
});

describe("context length", () => {
  test("an over-long text is retried alone, halved, with truncate: true; the others are kept", async () => {
    stub.contextChars = DOCUMENT_PROMPT.length + 60;
    const e = stubEmbedder(stub, { batchSize: 3 });
    await e.ready();
    const long = "x".repeat(100);
    const vs = await e.embedDocuments(["short one", long, "short two"]);
    expect(vs).toHaveLength(3);
    expect(maxDiff(vs[1], expectedVector(stub, DOCUMENT_PROMPT + "x".repeat(50)))).toBeLessThan(1e-6);
    expect(maxDiff(vs[2], expectedVector(stub, `${DOCUMENT_PROMPT}short two`))).toBeLessThan(1e-6);
    const retry = stub.requests.find((r) => r.truncate === true);
    expect(retry?.input).toEqual([DOCUMENT_PROMPT + "x".repeat(50)]);
  });

  test("a lone over-long text goes straight to the halved retry", async () => {
    stub.contextChars = DOCUMENT_PROMPT.length + 60;
    const e = stubEmbedder(stub, { batchSize: 1 });
    await e.ready();
    stub.reset();
    await e.embedDocuments(["y".repeat(100)]);
    expect(stub.requests.map((r) => [r.input[0].length - DOCUMENT_PROMPT.length, r.truncate])).toEqual([
      [100, undefined],
      [50, true],
    ]);
  });

  test("still too long when halved → LLM_FAILED naming the input and what to do", async () => {
    const e = stubEmbedder(stub, { batchSize: 4 });
    await e.ready();
    stub.failure = "context-length";
    stub.failOn = (s) => s.includes("LONG");
    const err = await rejectsWith(e.embedDocuments(["fine", "LONG LONG LONG LONG"]), "LLM_FAILED");
    expect(err.message).toContain("input 1 (19 chars)");
    expect(err.message).toContain("context length");
    expect(err.hint).toContain("chunk_chars");
  });
});

describe("input and options", () => {
  test("an empty text is refused before anything is sent", async () => {
    const e = stubEmbedder(stub);
    const err = await rejectsWith(e.embedDocuments(["ok", " "]), "INVALID_INPUT");
    expect(err.message).toContain("input 1");
    expect(stub.requests).toHaveLength(0);
  });

  test("out-of-range options are refused by the constructor", () => {
    const base = { host: stub.url, model: STUB_MODEL, keepAlive: "5m", concurrency: 1, batchSize: 1, timeoutMs: 10 };
    for (const bad of [{ concurrency: 0 }, { batchSize: 1.5 }, { timeoutMs: -1 }, { expectedDim: 0 }, { model: "" }]) {
      expect(() => new OllamaEmbedder({ ...base, ...bad })).toThrow();
    }
  });
});
