/**
 * JSON-RPC over the HTTP of /mcp, before the SDK's transport sees a message: error answers in the transport's own
 * words, and the reading of a POST body that refuses batches (a JSON array: JSON-RPC batching was removed from MCP
 * in protocol 2025-06-18) and tells which method a message calls.
 */
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { readRequestBody } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { RAISE_INPUT_BYTES } from "../domain/limits.ts";
import { nonObjectParams } from "../mcp/stdio-transport.ts";
import { countRefused } from "./metrics.ts";

/** A JSON-RPC error answer; `id` null (the default) as the SDK's transport words its own. */
export function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A POST body read and parsed: the parsed JSON, and its method and id when it is an object that has them. */
export interface ParsedPost {
  body: unknown;
  method: string | null;
  id: string | number | null;
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/**
 * The message of a 413: the body's size when it was declared (`declared`, bytes), the largest this server takes
 * (`limit`, bytes: twice max_input_bytes plus 1 MiB, see maxMessageBytes) and the setting that raises it.
 */
export function bodyTooLargeMessage(limit: number, declared?: number): string {
  const size = declared === undefined ? "the request body is" : `the request body is ${mib(declared)},`;
  return (
    `Payload Too Large: ${size} more than the ${mib(limit)} this server takes (max_input_bytes, JSON-escaped, ` +
    `plus the envelope); give memory_ingest a path or URL instead of the text, or ${RAISE_INPUT_BYTES}`
  );
}

/**
 * Reads and parses the body of a POST to /mcp, up to `maxBytes`: the parsed message, or the error answer — 413 over
 * the limit, 400 -32700 for JSON that does not parse, 400 -32600 for a batch (a JSON array), 400 -32602 for a
 * request whose params are no object. Undefined when the
 * body is not declared JSON: the transport answers that (415) itself, without the body being read.
 */
export async function readPost(req: Request, maxBytes: number): Promise<ParsedPost | Response | undefined> {
  if (!isJsonContentType(req.headers.get("content-type"))) return undefined;
  const read = await readRequestBody(req, maxBytes);
  if (read.tooLarge) return rpcError(413, -32000, bodyTooLargeMessage(maxBytes));
  let body: unknown;
  try {
    body = JSON.parse(read.text ?? "");
  } catch {
    return rpcError(400, -32700, "Parse error: Invalid JSON");
  }
  if (Array.isArray(body)) {
    countRefused("batch");
    return rpcError(
      400,
      -32600,
      "Invalid Request: JSON-RPC batches are not supported (MCP removed batching in protocol 2025-06-18); " +
        "send each message in a POST of its own",
    );
  }
  const bad = nonObjectParams(body);
  if (bad) return rpcError(400, -32602, bad.reason, {}, bad.id);
  const m = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  return { body, method: typeof m.method === "string" ? m.method : null, id };
}

/** True when an SSE event (its lines, without the blank line) carries a JSON-RPC response (an id and a result or error). */
function carriesResponse(event: string): boolean {
  const data = event
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => l.slice(5).replace(/^ /, ""))
    .join("\n");
  try {
    const m = JSON.parse(data) as unknown;
    return typeof m === "object" && m !== null && "id" in m && ("result" in m || "error" in m);
  } catch {
    return false;
  }
}

/**
 * `res` with its SSE body ended right after the first JSON-RPC response it carries, the rest cancelled upstream. For
 * a replay (`GET` with `Last-Event-ID`): the SDK's transport keeps a replayed stream open for more events and closes
 * it when the request's answer is sent — never, when that answer was stored before the client came back. One request
 * per POST (batches are refused) means one answer per stream. Any other answer is returned as it is.
 */
export function endAfterResponse(res: Response): Response {
  if (res.status !== 200 || !res.body) return res;
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let pending = "";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await reader.read();
      if (r.done) return controller.close();
      controller.enqueue(r.value);
      pending += dec.decode(r.value, { stream: true }).replace(/\r\n?/g, "\n");
      for (let cut = pending.indexOf("\n\n"); cut >= 0; cut = pending.indexOf("\n\n")) {
        const event = pending.slice(0, cut);
        pending = pending.slice(cut + 2);
        if (carriesResponse(event)) {
          controller.close();
          await reader.cancel("answer delivered");
          return;
        }
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
