/**
 * The MCP sampling distiller with the SDK's own Client connected to our McpServer in memory: a client that
 * advertises sampling answers `sampling/createMessage` with scripted JSON; a client without it gets the heuristic
 * distiller. The services wrapper swaps the distiller only when config says "mcp-sampling".
 */
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CreateMessageRequest, CreateMessageRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { distillText, heuristicDistiller } from "../../src/adapters/distiller/heuristic/index.ts";
import { quarantineReason } from "../../src/ports/models/distill-failure.ts";
import { DISTILL_SYSTEM_PROMPT } from "../../src/adapters/llm/prompt.ts";
import { createSamplingDistiller } from "../../src/adapters/llm/mcp-sampling/distiller.ts";
import { withSamplingDistiller } from "../../src/wiring/sampling.ts";
import type { Services } from "../../src/core/services.ts";
import { rejectsWith } from "../support/errors.ts";
import { testConfig } from "../support/services.ts";
import { atomsAnswer } from "./support.ts";
import { setLogLevel } from "../../src/log.ts";

type Scripted = { text: string; stopReason?: string } | { error: string };

const TEXT = "Москва — столица России. Население Москвы составляет 13 миллионов человек.";
const ANSWER = atomsAnswer([
  { type: "definition", claim: "Москва — столица России.", quote: "Москва — столица России." },
  {
    type: "fact",
    claim: "Население Москвы составляет 13 миллионов человек.",
    quote: "Население Москвы составляет 13 миллионов человек.",
  },
]).content;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** Our server and the SDK client, linked in memory; the client answers sampling from `script` when `sampling`. */
async function connect(sampling: boolean, script: Scripted[] = []) {
  const server = new McpServer({ name: "pegas-memory-test", version: "0" }, { capabilities: { tools: {} } });
  const client = new Client(
    { name: "scripted-client", version: "1" },
    { capabilities: sampling ? { sampling: {} } : {} },
  );
  const requests: CreateMessageRequest["params"][] = [];
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      requests.push(req.params);
      const next = script.shift();
      if (!next) throw new Error("no scripted answer left");
      if ("error" in next) throw new McpError(-32603, next.error);
      return {
        model: "client-model",
        role: "assistant",
        content: { type: "text", text: next.text },
        stopReason: next.stopReason ?? "endTurn",
      };
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  open.push(client, server);
  return { server, client, requests };
}

describe("a client that can sample", () => {
  test("the client's answer becomes atoms; the request carries the shared prompt and no context", async () => {
    const { server, requests } = await connect(true, [{ text: ANSWER }]);
    const d = createSamplingDistiller(server, heuristicDistiller, { maxTokens: 1500 });
    expect(d.name).toBe("mcp-sampling");
    const { atoms, warnings } = await d.distill({ text: TEXT, lang: "ru", title: "Города" });
    expect(warnings).toEqual([]);
    expect(atoms.map((a) => [a.type, a.claim])).toEqual([
      ["definition", "Москва — столица России."],
      ["fact", "Население Москвы составляет 13 миллионов человек."],
    ]);
    expect(requests).toHaveLength(1);
    const p = requests[0];
    expect(p.systemPrompt).toBe(DISTILL_SYSTEM_PROMPT);
    expect(p.includeContext).toBe("none");
    expect(p.maxTokens).toBe(1500);
    expect(p.temperature).toBe(0);
    expect(p.messages).toHaveLength(1);
    expect((p.messages[0].content as { text: string }).text).toContain(`<chunk>\n${TEXT}\n</chunk>`);
  });

  test("bad JSON twice: 2 requests, then LLM_FAILED with reason json", async () => {
    const { server, requests } = await connect(true, [{ text: "Sure! Here are the atoms:" }, { text: '{"atoms": [' }]);
    const d = createSamplingDistiller(server, heuristicDistiller, { maxTokens: 500 });
    const err = await rejectsWith(d.distill({ text: TEXT, lang: "ru" }), "LLM_FAILED");
    expect(requests).toHaveLength(2);
    expect(quarantineReason(err)).toEqual({ reason: "json", detail: '{"atoms": [' });
    expect(err.message).toContain("scripted-client");
  });

  test("stopReason maxTokens, then a good answer: the atoms after 2 requests", async () => {
    const { server, requests } = await connect(true, [
      { text: '{"atoms": [', stopReason: "maxTokens" },
      { text: ANSWER },
    ]);
    const { atoms } = await createSamplingDistiller(server, heuristicDistiller, { maxTokens: 500 }).distill({
      text: TEXT,
      lang: "ru",
    });
    expect(atoms).toHaveLength(2);
    expect(requests).toHaveLength(2);
    expect((requests[1].messages[0].content as { text: string }).text).toContain("cut off at the length limit");
  });

  test("a client that refuses the request: LLM_FAILED with reason http, not retried", async () => {
    const { server, requests } = await connect(true, [{ error: "user rejected the sampling request" }]);
    const err = await rejectsWith(
      createSamplingDistiller(server, heuristicDistiller, { maxTokens: 500 }).distill({ text: TEXT, lang: "ru" }),
      "LLM_FAILED",
    );
    expect(requests).toHaveLength(1);
    expect(quarantineReason(err)?.reason).toBe("http");
    expect(err.message).toContain("user rejected the sampling request");
  });

  test("no answer within timeoutMs: reason timeout", async () => {
    const { server, client } = await connect(true);
    client.setRequestHandler(CreateMessageRequestSchema, () => new Promise(() => {}));
    const d = createSamplingDistiller(server, heuristicDistiller, { maxTokens: 500, timeoutMs: 100 });
    const err = await rejectsWith(d.distill({ text: TEXT, lang: "ru" }), "LLM_FAILED");
    expect(quarantineReason(err)?.reason).toBe("timeout");
  });
});

describe("a client that cannot sample", () => {
  test("the heuristic distiller answers, under its own name, and a note is logged once", async () => {
    const { server } = await connect(false);
    const d = createSamplingDistiller(server, heuristicDistiller, { maxTokens: 500 });
    expect(d.name).toBe("heuristic");
    setLogLevel("info"); // the note is info; an earlier file in this process may have left the logger quieter
    const stderr = spyOn(process.stderr, "write");
    try {
      const got = await d.distill({ text: TEXT, lang: "ru" });
      await d.distill({ text: TEXT, lang: "ru" });
      expect(got).toEqual(distillText({ text: TEXT, lang: "ru" }));
      expect(got.atoms.length).toBeGreaterThan(0);
      const notes = stderr.mock.calls.filter(([line]) => String(line).includes("did not advertise sampling"));
      expect(notes).toHaveLength(1);
    } finally {
      stderr.mockRestore();
    }
  });
});

describe("cancellation", () => {
  test("an abort while the client thinks is CANCELLED, not a quarantine", async () => {
    const { server, client } = await connect(true);
    client.setRequestHandler(CreateMessageRequestSchema, () => new Promise(() => {}));
    const ac = new AbortController();
    const p = createSamplingDistiller(server, heuristicDistiller, { maxTokens: 500 }).distill({
      text: TEXT,
      lang: "ru",
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(new Error("tool call cancelled")), 30);
    const err = await rejectsWith(p, "CANCELLED");
    expect(quarantineReason(err)).toBeNull();
  });
});

describe("withSamplingDistiller", () => {
  const services = (distiller: string) =>
    ({
      config: testConfig({ distiller, distill_num_predict: 700 }),
      distiller: heuristicDistiller,
    }) as unknown as Services;

  test("config mcp-sampling: the distiller asks the client, once wrapped per services object", async () => {
    const { server, requests } = await connect(true, [{ text: ANSWER }]);
    const s = services("mcp-sampling");
    const get = withSamplingDistiller(server, async () => s);
    const first = await get();
    expect(await get()).toBe(first);
    expect(first.distiller.name).toBe("mcp-sampling");
    expect(first.config).toBe(s.config);
    expect((await first.distiller.distill({ text: TEXT, lang: "ru" })).atoms).toHaveLength(2);
    expect(requests[0].maxTokens).toBe(700);
  });

  test("any other config: the services pass through unchanged", async () => {
    const { server } = await connect(true);
    const s = services("heuristic");
    expect(await withSamplingDistiller(server, async () => s)()).toBe(s);
  });
});
