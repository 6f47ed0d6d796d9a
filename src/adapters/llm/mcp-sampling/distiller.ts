/**
 * Distiller that asks the connected MCP client's own model (`sampling/createMessage`, MCP specification
 * "Client features › Sampling"), with the same prompt, JSON answer and checks as the Ollama distiller. There is no
 * grammar on the client's side, so the JSON Schema travels in the system prompt and the answer is parsed and
 * validated the same way (one retry, then LLM_FAILED). The client's capabilities are read at every call: when it
 * did not advertise `sampling`, the fallback distiller answers and a note is logged once.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CreateMessageResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import type { DistillInput, DistillResult, Distiller } from "../../../ports/models/distiller.ts";
import { distillWithModel } from "../distill.ts";
import { LlmFailure } from "../../../ports/models/distill-failure.ts";
import type { RawAnswer } from "../parse.ts";
import type { PromptMessage } from "../prompt.ts";

/** Name of this distiller while the client can sample. */
export const SAMPLING_DISTILLER_NAME = "mcp-sampling";

/** Default bound on one sampling request: long, because a client may ask its user to approve each request. */
export const SAMPLING_TIMEOUT_MS = 300_000;

/** Options of {@link createSamplingDistiller}. */
export interface SamplingDistillerOptions {
  /** `maxTokens` of each request: the longest answer per chunk (from distill_num_predict). */
  maxTokens: number;
  /** Bound on one request in milliseconds (default {@link SAMPLING_TIMEOUT_MS}). */
  timeoutMs?: number;
}

const HINT =
  'the chunk is quarantined and can be retried later; check the client\'s model, or set distiller = "heuristic"';

/** The text of a sampling result (text blocks joined; image or audio blocks give no text). */
function resultText(res: CreateMessageResult): string {
  const blocks: unknown[] = Array.isArray(res.content) ? res.content : [res.content];
  return blocks
    .map((b) => ((b as { type?: unknown }).type === "text" ? String((b as { text?: unknown }).text ?? "") : ""))
    .join("");
}

/** One sampling request; failures become CANCELLED or an LlmFailure (timeout, or http for any other refusal). */
async function sample(
  server: McpServer,
  who: string,
  system: string,
  messages: PromptMessage[],
  opts: SamplingDistillerOptions,
  signal?: AbortSignal,
): Promise<RawAnswer> {
  const timeout = opts.timeoutMs ?? SAMPLING_TIMEOUT_MS;
  try {
    const res = await server.server.createMessage(
      {
        messages: messages.map((m) => ({ role: m.role, content: { type: "text" as const, text: m.content } })),
        systemPrompt: system,
        includeContext: "none",
        temperature: 0,
        maxTokens: opts.maxTokens,
      },
      { signal, timeout },
    );
    return { text: resultText(res), stoppedOnLength: res.stopReason === "maxTokens" };
  } catch (err) {
    if (signal?.aborted) throw new PegasError("CANCELLED", `sampling request to ${who} was cancelled`, { cause: err });
    const msg = err instanceof Error ? err.message : String(err);
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      throw new LlmFailure(`${who} did not answer a sampling request within ${timeout} ms`, "timeout", msg, {
        hint: HINT,
        cause: err,
      });
    }
    throw new LlmFailure(`${who} refused or failed a sampling request: ${msg}`, "http", msg, {
      hint: HINT,
      cause: err,
    });
  }
}

/**
 * A distiller that uses the MCP client's model through `server` when the client advertised `sampling`, and
 * `fallback` otherwise. Its `name` is "mcp-sampling" while the client can sample, else the fallback's name.
 * Errors of `distill`: LlmFailure (LLM_FAILED, with a quarantine reason), PegasError CANCELLED.
 */
export function createSamplingDistiller(
  server: McpServer,
  fallback: Distiller,
  opts: SamplingDistillerOptions,
): Distiller {
  let noted = false;
  const canSample = () => Boolean(server.server.getClientCapabilities()?.sampling);
  const who = () => `the model of MCP client '${server.server.getClientVersion()?.name ?? "unknown"}'`;
  return {
    get name() {
      return canSample() ? SAMPLING_DISTILLER_NAME : fallback.name;
    },
    distill(input: DistillInput): Promise<DistillResult> {
      if (!canSample()) {
        if (!noted) {
          noted = true;
          log.info("distiller mcp-sampling: the MCP client did not advertise sampling; using the fallback distiller", {
            fallback: fallback.name,
          });
        }
        return fallback.distill(input);
      }
      const name = who();
      return distillWithModel(input, name, HINT, (system, messages) =>
        sample(server, name, system, messages, opts, input.signal),
      );
    },
  };
}
