/**
 * JSON-RPC over the HTTP of /mcp, before the SDK's transport sees a message: error answers in the transport's own
 * words, and the reading of a POST body that refuses batches (a JSON array: JSON-RPC batching was removed from MCP
 * in protocol 2025-06-18) and tells which method a message calls.
 */
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { readRequestBody, requestBodyTooLargeMessage } from "@modelcontextprotocol/sdk/server/requestBody.js";

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

/**
 * Reads and parses the body of a POST to /mcp, up to `maxBytes`: the parsed message, or the error answer — 413 over
 * the limit, 400 -32700 for JSON that does not parse, 400 -32600 for a batch (a JSON array). Undefined when the
 * body is not declared JSON: the transport answers that (415) itself, without the body being read.
 */
export async function readPost(req: Request, maxBytes: number): Promise<ParsedPost | Response | undefined> {
  if (!isJsonContentType(req.headers.get("content-type"))) return undefined;
  const read = await readRequestBody(req, maxBytes);
  if (read.tooLarge) return rpcError(413, -32000, requestBodyTooLargeMessage(maxBytes));
  let body: unknown;
  try {
    body = JSON.parse(read.text ?? "");
  } catch {
    return rpcError(400, -32700, "Parse error: Invalid JSON");
  }
  if (Array.isArray(body))
    return rpcError(
      400,
      -32600,
      "Invalid Request: JSON-RPC batches are not supported (MCP removed batching in protocol 2025-06-18); " +
        "send each message in a POST of its own",
    );
  const m = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  return { body, method: typeof m.method === "string" ? m.method : null, id };
}
