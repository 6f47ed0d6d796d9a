/**
 * Broken answers from the stand-in chat server: truncated JSON, wrong schema, a length stop, an empty answer are
 * retried exactly once (with a note, the system prompt unchanged) and then end in LLM_FAILED with a quarantine
 * reason; a context-length error and other HTTP errors are not retried; timeouts and cancellation are honoured.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { DETAIL_MAX_CHARS, quarantineReason } from "../../src/ports/models/distill-failure.ts";
import { DISTILL_SYSTEM_PROMPT } from "../../src/adapters/llm/prompt.ts";
import { PegasError } from "../../src/errors.ts";
import { rejectsWith } from "../support/errors.ts";
import { type ChatScript, startOllamaChatStub } from "../support/ollama-chat-stub.ts";
import { atomsAnswer, count, stubDistiller, systemOf, userOf } from "./support.ts";

const stub = startOllamaChatStub();
afterAll(() => stub.stop());
afterEach(() => stub.reset());

const TEXT = "The Volga is the longest river in Europe. It is 3,531 km long.";
const GOOD = atomsAnswer([{ type: "fact", claim: "The Volga is 3,531 km long.", quote: "It is 3,531 km long." }]);
const TRUNCATED = { content: '{"atoms": [{"type": "fact", "claim": "The Volga is 3,531 km' };
const WRONG_SCHEMA = {
  content: JSON.stringify({
    atoms: [{ type: "opinion", claim: "x", content: "x", confidence: 2, quote: "x", links: [] }],
  }),
};
const LENGTH = { content: '{"atoms": [{"type": "fact", "claim": "The Vol', done_reason: "length" };

/** Distills TEXT after scripting `answers`; returns the error, which must be LLM_FAILED. */
async function failWith(...answers: ChatScript[]) {
  stub.script(...answers);
  return rejectsWith(stubDistiller(stub).distill({ text: TEXT, lang: "en" }), "LLM_FAILED");
}

describe("retried once, then LLM_FAILED with a quarantine reason", () => {
  const cases: Array<[string, ChatScript, string, string]> = [
    ["truncated JSON", TRUNCATED, "json", "not valid JSON"],
    ["wrong schema", WRONG_SCHEMA, "schema", "did not match the required JSON Schema"],
    ["a length stop", LENGTH, "length", "cut off at the length limit"],
    ["an empty answer", { content: "  " }, "empty", "was empty"],
  ];
  for (const [what, answer, reason, note] of cases) {
    test(what, async () => {
      const err = await failWith(answer, answer);
      expect(stub.requests).toHaveLength(2);
      expect(quarantineReason(err)?.reason).toBe(reason as any);
      expect(err.message).toContain(`(${reason})`);
      expect(err.message).toContain("2 attempts");
      // The retry repeats the chunk and the fixed system prompt, and adds the note after the data block.
      const [first, second] = stub.requests;
      expect(systemOf(second)).toBe(DISTILL_SYSTEM_PROMPT);
      expect(userOf(first)).not.toContain("Your previous answer");
      expect(userOf(second)).toContain(userOf(first));
      expect(userOf(second).slice(userOf(second).indexOf("</chunk>"))).toContain(note);
      expect(count(userOf(second), "<chunk>")).toBe(1);
    });
  }

  test("the detail is the last answer (schema: with the problem first)", async () => {
    const json = await failWith(TRUNCATED, TRUNCATED);
    expect(quarantineReason(json)).toEqual({ reason: "json", detail: TRUNCATED.content });
    stub.reset();
    const schema = await failWith(WRONG_SCHEMA, WRONG_SCHEMA);
    const q = quarantineReason(schema)!;
    expect(q.detail).toStartWith("atoms.0.type: ");
    expect(q.detail).toContain("atoms.0.confidence");
    expect(q.detail).toContain(`; answer: ${WRONG_SCHEMA.content.slice(0, 40)}`);
  });

  test("the detail is at most 500 characters", async () => {
    const long = { content: `{"atoms": [{"claim": "${"ж".repeat(3000)}` };
    const err = await failWith(long, long);
    const q = quarantineReason(err)!;
    expect(q.reason).toBe("json");
    expect(q.detail.length).toBeLessThanOrEqual(DETAIL_MAX_CHARS);
    expect(q.detail.endsWith("…")).toBe(true);
  });
});

describe("one bad answer, then a good one", () => {
  for (const [what, bad] of [
    ["truncated JSON", TRUNCATED],
    ["wrong schema", WRONG_SCHEMA],
    ["a length stop", LENGTH],
  ] as const) {
    test(`${what} then valid atoms: the atoms, after 2 requests`, async () => {
      stub.script(bad, GOOD);
      const { atoms } = await stubDistiller(stub).distill({ text: TEXT, lang: "en" });
      expect(atoms.map((a) => a.claim)).toEqual(["The Volga is 3,531 km long."]);
      expect(stub.requests).toHaveLength(2);
    });
  }
});

describe("transport failures are not retried", () => {
  test("context-length HTTP 500: one request, reason context_length", async () => {
    const err = await failWith({ status: 500, error: "input length exceeds the context length" });
    expect(stub.requests).toHaveLength(1);
    expect(quarantineReason(err)).toEqual({
      reason: "context_length",
      detail: expect.stringContaining("exceeds the context length"),
    });
    expect(err.message).toContain("num_ctx 4096");
    expect(err.hint).toContain("distill_num_ctx");
  });

  test("another HTTP 500: one request, reason http, host and model named", async () => {
    const err = await failWith({ status: 500, error: "CUDA error: out of memory" });
    expect(stub.requests).toHaveLength(1);
    expect(quarantineReason(err)?.reason).toBe("http");
    expect(err.message).toContain("CUDA error: out of memory");
    expect(err.message).toContain(stub.url);
    expect(err.message).toContain("failed a chat request");
  });

  test("a model that is not pulled: reason http, hint names llm_model", async () => {
    const err = await rejectsWith(
      stubDistiller(stub, { model: "absent:7b" }).distill({ text: TEXT, lang: "en" }),
      "LLM_FAILED",
    );
    expect(err.message).toContain("ollama pull absent:7b");
    expect(err.hint).toContain("PEGAS_LLM_MODEL");
    expect(quarantineReason(err)?.reason).toBe("http");
  });

  test("no answer within timeoutMs: reason timeout", async () => {
    stub.script({ hang: true });
    const err = await rejectsWith(
      stubDistiller(stub, { timeoutMs: 150 }).distill({ text: TEXT, lang: "en" }),
      "LLM_FAILED",
    );
    expect(quarantineReason(err)?.reason).toBe("timeout");
    expect(err.message).toContain("within 150 ms");
    expect(stub.requests).toHaveLength(1);
  });
});

describe("cancellation", () => {
  test("an abort during the request is CANCELLED, not a quarantine", async () => {
    stub.script({ hang: true });
    const ac = new AbortController();
    const p = stubDistiller(stub).distill({ text: TEXT, lang: "en", signal: ac.signal });
    setTimeout(() => ac.abort(new Error("client went away")), 50);
    const err = await rejectsWith(p, "CANCELLED");
    expect(quarantineReason(err)).toBeNull();
  });

  test("an already aborted signal sends nothing", async () => {
    const ac = new AbortController();
    ac.abort();
    await rejectsWith(stubDistiller(stub).distill({ text: TEXT, lang: "en", signal: ac.signal }), "CANCELLED");
    expect(stub.requests).toHaveLength(0);
  });

  test("quarantineReason ignores other errors", () => {
    expect(quarantineReason(new PegasError("INVALID_INPUT", "x"))).toBeNull();
    expect(quarantineReason(new Error("x"))).toBeNull();
  });
});

describe("configuration", () => {
  test("num_predict must be below num_ctx", () => {
    expect(() => stubDistiller(stub, { numCtx: 1024, numPredict: 1024 })).toThrow(
      /distill_num_predict \(1024\) must be below distill_num_ctx/,
    );
  });
});
