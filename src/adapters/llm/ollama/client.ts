/**
 * One call through the `ollama` npm client (`/api/embed`, `/api/chat`), with a per-request timeout and the caller's
 * AbortSignal.
 * The client (0.6.x) passes no signal to `fetch` for non-streaming calls, so the signal is injected through a
 * `fetch` wrapper given to a per-call client (construction only formats the host; it opens nothing).
 */
import { type ChatRequest, type ChatResponse, type EmbedRequest, type EmbedResponse, Ollama } from "ollama";
import { cancelled, describeFailure, type OllamaTarget, timedOut } from "./failures.ts";

/**
 * Turns every non-OK response into `{"error": "..."}` JSON. The client prints to stdout (`console.log`) when an
 * error body is not JSON, and stdout belongs to the MCP stdio transport, so it must never see such a body.
 */
async function asJsonError(res: Response): Promise<Response> {
  const text = await res.text().catch(() => "");
  let message = text.trim().slice(0, 500) || `Error ${res.status}: ${res.statusText}`;
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === "string") message = body.error;
  } catch {
    // not JSON: keep the text itself as the message
  }
  return new Response(JSON.stringify({ error: message }), {
    status: res.status,
    statusText: res.statusText,
    headers: { "content-type": "application/json" },
  });
}

/** A fetch for the `ollama` client that always uses `signal` and never hands it a non-JSON error body. */
function guardedFetch(signal: AbortSignal): typeof fetch {
  const f = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, { ...init, signal });
    return res.ok ? res : asJsonError(res);
  };
  return f as typeof fetch;
}

/**
 * Sends one embed request and returns Ollama's response as parsed JSON (not yet checked); see {@link ollamaCall}.
 */
export function embedRequest(
  target: OllamaTarget,
  request: EmbedRequest,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<EmbedResponse> {
  return ollamaCall(target, signal, timeoutMs, (client) => client.embed(request));
}

/**
 * Sends one non-streaming chat request (`POST /api/chat`) and returns Ollama's response as parsed JSON (not yet
 * checked); see {@link ollamaCall}. `target.task` should be "chat" so that failures are worded for chat.
 */
export function chatRequest(
  target: OllamaTarget,
  request: ChatRequest,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<ChatResponse> {
  return ollamaCall(target, signal, timeoutMs, (client) => client.chat({ ...request, stream: false }));
}

/**
 * Runs `call` on a per-call client whose requests are bound by `timeoutMs` and `signal`.
 * @param timeoutMs bound on the whole request, response body included, in milliseconds.
 * @throws PegasError CANCELLED when `signal` aborts; LLM_FAILED on timeout ({@link isTimeout} tells it), HTTP or
 *   network errors (see {@link describeFailure}; the HTTP error stays in `cause`, where
 *   {@link isContextLengthError} finds it).
 */
export async function ollamaCall<T>(
  target: OllamaTarget,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  call: (client: Ollama) => Promise<T>,
): Promise<T> {
  if (signal?.aborted) throw cancelled(target, signal.reason);
  const ctl = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    ctl.abort(new Error(`timeout after ${timeoutMs} ms`));
  }, timeoutMs);
  const onAbort = () => ctl.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const client = new Ollama({ host: target.host, fetch: guardedFetch(ctl.signal) });
    return await call(client);
  } catch (err) {
    if (expired) throw timedOut(target, timeoutMs, err);
    if (signal?.aborted) throw cancelled(target, err);
    throw describeFailure(err, target);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
