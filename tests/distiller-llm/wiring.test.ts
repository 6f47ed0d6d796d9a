/**
 * Which distiller createServices picks (a temporary PostgreSQL database, the stand-in chat server for Ollama): auto →
 * Ollama when ollama_host and llm_model are set, else heuristic; "ollama" without them is a configuration error;
 * "mcp-sampling" is heuristic until the MCP server swaps in the client's model.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { STUB_CHAT_MODEL, startOllamaChatStub } from "../support/ollama-chat-stub.ts";
import { STUB_MODEL } from "../support/ollama-stub.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const skip = await pgSkipReason();
const stub = startOllamaChatStub();
afterAll(() => stub.stop());

/** Services on a temporary PostgreSQL database (the suite is skipped with a printed reason when none answers). */
async function open(flags: Record<string, unknown>): Promise<TestServices> {
  const t = await openTestServices("postgres", flags);
  if (typeof t === "string") throw new Error(`PostgreSQL is needed: ${t}`);
  return t;
}

async function distillerName(flags: Record<string, unknown>): Promise<string> {
  const t = await open(flags);
  try {
    return t.services.distiller.name;
  } finally {
    await t.dispose();
  }
}

describe.skipIf(skip !== null)("makeDistiller", () => {
  test("auto with ollama_host and llm_model: the Ollama distiller, and it distills through the server", async () => {
    const flags = { ollama_host: stub.url, embed_model: STUB_MODEL, llm_model: STUB_CHAT_MODEL };
    const t = await open(flags);
    try {
      expect(t.services.distiller.name).toBe(`ollama:${STUB_CHAT_MODEL}`);
      stub.script({ content: JSON.stringify({ atoms: [] }) });
      expect(await t.services.distiller.distill({ text: "Some text.", lang: "en" })).toEqual({
        atoms: [],
        warnings: [],
      });
      expect(stub.requests.at(-1)?.options).toEqual({ num_ctx: 8192, num_predict: 2048, temperature: 0 });
      expect(stub.requests.at(-1)?.keep_alive).toBe("5m");
    } finally {
      await t.dispose();
    }
  });

  test("auto without llm_model, heuristic, mcp-sampling: the heuristic distiller", async () => {
    expect(await distillerName({})).toBe("heuristic");
    expect(
      await distillerName({
        distiller: "heuristic",
        ollama_host: stub.url,
        embed_model: STUB_MODEL,
        llm_model: STUB_CHAT_MODEL,
      }),
    ).toBe("heuristic");
    expect(await distillerName({ distiller: "mcp-sampling" })).toBe("heuristic");
  });

  test('"ollama" without ollama_host and llm_model is INVALID_INPUT naming both', async () => {
    const err = await rejectsWith(openTestServices("postgres", { distiller: "ollama" }), "INVALID_INPUT");
    expect(err.message).toContain("ollama_host (OLLAMA_HOST) and llm_model (PEGAS_LLM_MODEL)");
    expect(err.hint).toContain("heuristic");
  });
});
