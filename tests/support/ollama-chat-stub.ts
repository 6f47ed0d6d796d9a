/**
 * A stand-in test server that speaks the part of Ollama's HTTP API the chat adapters use (`POST /api/chat`,
 * non-streaming), plus `/api/embed` (deterministic vectors of ollama-stub.ts, so that services with an Ollama
 * embedder can start against it), `/api/tags` and `/api/version`, on 127.0.0.1 with an ephemeral port. It is NOT
 * Ollama and runs no model: each chat request takes the next scripted answer from a queue. It records every chat
 * request body as received.
 */
import { STUB_MODEL, stubVector } from "./ollama-stub.ts";

/** Chat model name the stub serves by default. */
export const STUB_CHAT_MODEL = "stub-chat";

/**
 * One scripted answer: a message (with done_reason, default "stop"), an HTTP error with Ollama's `{"error"}` body,
 * an answer that never comes (until the client goes away), or a function of the request.
 */
export type ChatScript =
  | { content: string; done_reason?: string }
  | { status: number; error: string }
  | { hang: true }
  | ((req: StubChatRequest) => ChatScript);

/** One chat request body as the stub received it. */
export interface StubChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  format?: unknown;
  stream?: boolean;
  keep_alive?: string | number;
  options?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A running stub. */
export interface OllamaChatStub {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Models that count as pulled (chat and embed). */
  models: string[];
  /** Every chat request seen, in arrival order. */
  readonly requests: StubChatRequest[];
  /** Appends answers to the queue (one per future chat request). */
  script(...answers: ChatScript[]): void;
  /** Answers still queued. */
  readonly pending: number;
  /** Clears the queue and the recorded requests. */
  reset(): void;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** A message answer in Ollama's non-streaming chat shape. */
function chatAnswer(model: string, content: string, doneReason: string): Response {
  return json({
    model,
    created_at: new Date().toISOString(),
    message: { role: "assistant", content },
    done: true,
    done_reason: doneReason,
    total_duration: 1000,
    load_duration: 0,
    prompt_eval_count: 10,
    eval_count: 10,
  });
}

function hang(signal: AbortSignal): Promise<Response> {
  return new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve(new Response("", { status: 499 })), { once: true });
  });
}

async function answerChat(
  stub: OllamaChatStub,
  queue: ChatScript[],
  req: StubChatRequest,
  signal: AbortSignal,
): Promise<Response> {
  if (!stub.models.includes(req.model))
    return json({ error: `model "${req.model}" not found, try pulling it first` }, 404);
  let next = queue.shift();
  if (next === undefined) return json({ error: "stand-in test server: no scripted answer left" }, 500);
  while (typeof next === "function") next = next(req);
  if ("hang" in next) return hang(signal);
  if ("status" in next) return json({ error: next.error }, next.status);
  return chatAnswer(req.model, next.content, next.done_reason ?? "stop");
}

async function answerEmbed(stub: OllamaChatStub, body: { model?: unknown; input?: unknown }): Promise<Response> {
  const model = String(body.model);
  if (!stub.models.includes(model)) return json({ error: `model "${model}" not found, try pulling it first` }, 404);
  const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
  return json({ model, embeddings: input.map((s) => stubVector(model, s, 768)) });
}

/** Starts the stand-in server (chat models `[STUB_CHAT_MODEL]`, embed model `STUB_MODEL`); `await stub.stop()`. */
export function startOllamaChatStub(): OllamaChatStub {
  const queue: ChatScript[] = [];
  const requests: StubChatRequest[] = [];
  const stub: OllamaChatStub = {
    url: "",
    models: [STUB_CHAT_MODEL, STUB_MODEL],
    requests,
    script: (...answers) => void queue.push(...answers),
    get pending() {
      return queue.length;
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    stop: async () => {
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "GET" && path === "/api/version") return json({ version: "0.0.0-stub" });
      if (req.method === "GET" && path === "/api/tags")
        return json({ models: stub.models.map((name) => ({ name, model: name })) });
      const body = (await req.json().catch(() => null)) as StubChatRequest | null;
      if (req.method === "POST" && path === "/api/embed" && body) return answerEmbed(stub, body);
      if (req.method !== "POST" || path !== "/api/chat") return new Response("404 page not found", { status: 404 });
      if (!body || typeof body.model !== "string") return json({ error: "model is required" }, 400);
      requests.push(body);
      return answerChat(stub, queue, body, req.signal);
    },
  });
  (stub as { url: string }).url = `http://127.0.0.1:${server.port}`;
  return stub;
}
