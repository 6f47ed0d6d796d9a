/**
 * The stdio transport of `serve`: newline-delimited JSON-RPC on stdin/stdout, as the SDK's StdioServerTransport
 * frames it, but a line that is not a JSON-RPC message is answered instead of dropped. The SDK's transport hands
 * such a line only to `onerror`, so a client that sent `"params": 5` (or a line of broken JSON) waited for an answer
 * that never came. Here (JSON-RPC 2.0 §4.2, §5.1):
 * - a line that is not JSON is -32700 "Parse error" with `id` null;
 * - a request (`method` and a string or number `id`) whose `params` are not an object is -32602 of one line saying
 *   what to send (`tools/call params must be a JSON object {"name": <tool>, "arguments": {…}}, not a number`);
 * - any other line with such an `id` is -32600 "Invalid Request"; one without (a malformed notification or
 *   response) is logged on stderr only, since it cannot be answered to anyone;
 * - a blank line is skipped.
 * Stdout carries the answers only; each refusal is also one warning line on stderr.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { log } from "../log.ts";
import { jsonType } from "./call-tool.ts";

/** What one input line is: a message to dispatch, an error answer to send back, or nothing to answer. */
export type StdioLine =
  | { kind: "message"; message: JSONRPCMessage }
  | { kind: "refusal"; answer: JSONRPCMessage | null; reason: string };

const CALL_SHAPE = ' {"name": <tool>, "arguments": {…}}';

/** A JSON-RPC error answer to `id` (null when the request's id could not be read). */
function errorAnswer(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}

/**
 * The -32602 refusal of a JSON-RPC request (`jsonrpc` "2.0", a `method`, a string or number `id`) whose `params`
 * are there but no object: its id and one line naming the method and what to send. Null for anything else. Used
 * by the stdio transport and by the HTTP transport's POST reader (src/http/rpc.ts).
 */
export function nonObjectParams(value: unknown): { id: string | number; reason: string } | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (v.jsonrpc !== "2.0" || typeof v.method !== "string" || !("params" in v)) return null;
  if (typeof v.id !== "string" && typeof v.id !== "number") return null;
  const p = v.params;
  if (typeof p === "object" && p !== null && !Array.isArray(p)) return null;
  const shape = v.method === "tools/call" ? CALL_SHAPE : " (or left out)";
  return { id: v.id, reason: `${v.method} params must be a JSON object${shape}, not ${jsonType(p)}` };
}

/**
 * Reads one line of stdin (without its newline): a JSON-RPC message, or the refusal to answer it with (module doc).
 * Pure; `line` is any text.
 */
export function readStdioLine(line: string): StdioLine | null {
  if (!line.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const reason = "Parse error: the line is not JSON; send one JSON-RPC message per line";
    return { kind: "refusal", answer: errorAnswer(null, ErrorCode.ParseError, reason), reason };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { kind: "message", message: parsed.data };
  const bad = nonObjectParams(value);
  if (bad)
    return { kind: "refusal", answer: errorAnswer(bad.id, ErrorCode.InvalidParams, bad.reason), reason: bad.reason };
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const id = typeof v.id === "string" || typeof v.id === "number" ? v.id : null;
  const reason =
    'Invalid Request: a JSON-RPC 2.0 message needs "jsonrpc": "2.0" and a "method" (a request also a string or number "id", with object "params" or none)';
  return { kind: "refusal", answer: id === null ? null : errorAnswer(id, ErrorCode.InvalidRequest, reason), reason };
}

/** Newline-delimited JSON-RPC over two streams, answering malformed lines (module doc). */
export class StrictStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer: Buffer | undefined;

  /** `maxBufferSize`: bytes of an unfinished line kept before the connection is closed (the SDK's wording). */
  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxBufferSize: number,
  ) {}

  private readonly ondata = (chunk: Buffer): void => {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.buffer = undefined;
      this.onerror?.(new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`));
      void this.close();
      return;
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let i = this.buffer.indexOf(10); i !== -1 && this.buffer; i = this.buffer?.indexOf(10) ?? -1) {
      const line = this.buffer.toString("utf8", 0, i).replace(/\r$/, "");
      this.buffer = this.buffer.subarray(i + 1);
      this.take(line);
    }
  };

  private readonly onstreamerror = (err: Error): void => this.onerror?.(err);

  private take(line: string): void {
    const read = readStdioLine(line);
    if (!read) return;
    if (read.kind === "message") {
      this.onmessage?.(read.message);
      return;
    }
    log.warn(`stdio: refused a line: ${read.reason}`);
    if (read.answer) void this.send(read.answer);
  }

  /** Starts reading stdin. */
  async start(): Promise<void> {
    this.stdin.on("data", this.ondata);
    this.stdin.on("error", this.onstreamerror);
  }

  /** Writes one message as a line; resolves once stdout took it (after a drain when it was full). */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  /** Stops reading (pausing stdin when no one else reads it) and reports the close. */
  async close(): Promise<void> {
    this.stdin.off("data", this.ondata);
    this.stdin.off("error", this.onstreamerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.buffer = undefined;
    this.onclose?.();
  }
}
