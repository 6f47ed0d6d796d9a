/** Helpers for the LLM distiller and judge tests against the stand-in chat server of ollama-chat-stub.ts. */
import type { OllamaChatOptions } from "../../src/adapters/llm/ollama/chat.ts";
import { OllamaDistiller } from "../../src/adapters/llm/ollama/distiller.ts";
import { OllamaJudge } from "../../src/adapters/llm/ollama/judge.ts";
import { type OllamaChatStub, STUB_CHAT_MODEL, type StubChatRequest } from "../support/ollama-chat-stub.ts";

/** Options pointing at `stub` (num_ctx 4096, num_predict 1024, keep_alive "7m", 1 in flight, 5 s), with overrides. */
export function chatOptions(stub: OllamaChatStub, over: Partial<OllamaChatOptions> = {}): OllamaChatOptions {
  return {
    host: stub.url,
    model: STUB_CHAT_MODEL,
    keepAlive: "7m",
    concurrency: 1,
    timeoutMs: 5000,
    numCtx: 4096,
    numPredict: 1024,
    ...over,
  };
}

/** An OllamaDistiller on `stub`. */
export const stubDistiller = (stub: OllamaChatStub, over: Partial<OllamaChatOptions> = {}) =>
  new OllamaDistiller(chatOptions(stub, over));

/** An OllamaJudge on `stub`. */
export const stubJudge = (stub: OllamaChatStub, over: Partial<OllamaChatOptions> = {}) =>
  new OllamaJudge(chatOptions(stub, over));

/** One atom of a scripted answer; links default to none. */
export interface ScriptAtom {
  type: string;
  claim: string;
  content?: string;
  confidence?: number;
  quote: string;
  links?: Array<{ to: number; kind: string }>;
}

/** A scripted `/api/chat` answer whose content is `{"atoms": [...]}`. */
export function atomsAnswer(atoms: ScriptAtom[]): { content: string } {
  const full = atoms.map((a) => ({ content: a.claim, confidence: 0.8, links: [], ...a }));
  return { content: JSON.stringify({ atoms: full }) };
}

/** The system message of a recorded request. */
export function systemOf(req: StubChatRequest): string {
  const m = req.messages.filter((x) => x.role === "system");
  if (m.length !== 1) throw new Error(`expected one system message, got ${m.length}`);
  return m[0].content;
}

/** The single user message of a recorded request. */
export function userOf(req: StubChatRequest): string {
  const m = req.messages.filter((x) => x.role === "user");
  if (m.length !== 1) throw new Error(`expected one user message, got ${m.length}`);
  return m[0].content;
}

/** Occurrences of `needle` in `text`. */
export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
