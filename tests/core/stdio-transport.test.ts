/**
 * The stdio transport answers a line that is not a JSON-RPC message instead of dropping it (the SDK's transport
 * only reported it to `onerror`, so a client sending `"params": 5` waited forever): raw lines go into a server made
 * as `serve` makes it, through two PassThrough streams, and the answers on its stdout are read back. Every request
 * here is refused or answered before the database would open, so no store is made.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { loadConfig } from "../../src/config.ts";
import { CallTracker } from "../../src/mcp/calls.ts";
import { createMcpServer } from "../../src/mcp/server.ts";
import { readStdioLine, StrictStdioTransport } from "../../src/mcp/stdio-transport.ts";
import { LazyServices } from "../../src/wiring/lazy-services.ts";

interface Wire {
  stdin: PassThrough;
  answers: Array<Record<string, any>>;
  transport: StrictStdioTransport;
  close: () => Promise<void>;
}

let open: Wire | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

/** A server on a strict stdio transport over in-memory streams; `answers` collects its stdout lines as JSON. */
async function wire(maxBytes = 1 << 20): Promise<Wire> {
  const cfg = loadConfig({ flags: {}, env: { HOME: "/nonexistent" }, configPath: "/dev/null" });
  const server = createMcpServer(new LazyServices(cfg), new CallTracker(), cfg);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers: Array<Record<string, any>> = [];
  let rest = "";
  stdout.on("data", (b: Buffer) => {
    const lines = (rest + b.toString("utf8")).split("\n");
    rest = lines.pop()!;
    for (const l of lines) answers.push(JSON.parse(l));
  });
  const transport = new StrictStdioTransport(stdin, stdout, maxBytes);
  await server.connect(transport);
  open = { stdin, answers, transport, close: () => server.close() };
  return open;
}

/** Waits until `n` answers have arrived (or fails after 5 s). */
async function answered(w: Wire, n: number): Promise<void> {
  for (let t = 0; t < 500 && w.answers.length < n; t++) await Bun.sleep(10);
  expect(w.answers.length).toBe(n);
}

const req = (id: number, method: string, params?: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`;

describe("stdio: malformed lines are answered, not dropped", () => {
  test("non-object params are -32602 of one line naming the method; the next request is still served", async () => {
    const w = await wire();
    w.stdin.write(req(1, "tools/call", 5));
    w.stdin.write(req(2, "tools/call", []));
    w.stdin.write(req(3, "tools/list", "x"));
    w.stdin.write(req(4, "tools/list", null));
    w.stdin.write(req(5, "ping"));
    await answered(w, 5);
    const byId = new Map(w.answers.map((a) => [a.id, a]));
    expect(byId.get(1)!.error).toEqual({
      code: -32602,
      message: 'tools/call params must be a JSON object {"name": <tool>, "arguments": {…}}, not a number',
    });
    expect(byId.get(2)!.error.message).toEndWith("not an array");
    expect(byId.get(3)!.error).toEqual({
      code: -32602,
      message: "tools/list params must be a JSON object (or left out), not a string",
    });
    expect(byId.get(4)!.error.message).toEndWith("not null");
    expect(byId.get(5)!.result).toEqual({});
  });

  test("broken JSON is -32700 with id null; a blank line is skipped; a request split over chunks is read", async () => {
    const w = await wire();
    w.stdin.write("{not json\n\n  \n");
    const ping = req(7, "ping");
    w.stdin.write(ping.slice(0, 10));
    w.stdin.write(`${ping.slice(10, -1)}\r\n`);
    await answered(w, 2);
    expect(w.answers[0]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the line is not JSON; send one JSON-RPC message per line" },
    });
    expect(w.answers[1]).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
  });

  test("a line over the size limit closes the transport with the SDK's wording", async () => {
    const w = await wire(64);
    const errors: string[] = [];
    let closed = false;
    const onerror = w.transport.onerror;
    const onclose = w.transport.onclose;
    w.transport.onerror = (e) => {
      errors.push(e.message);
      onerror?.(e);
    };
    w.transport.onclose = () => {
      closed = true;
      onclose?.();
    };
    w.stdin.write(req(8, "ping", { pad: "x".repeat(100) }));
    for (let t = 0; t < 100 && !closed; t++) await Bun.sleep(10);
    expect(closed).toBe(true);
    expect(errors).toEqual(["ReadBuffer exceeded maximum size of 64 bytes"]);
    expect(w.answers).toEqual([]);
  });
});

describe("readStdioLine", () => {
  test("what each kind of line becomes", () => {
    expect(readStdioLine("   ")).toBeNull();
    expect(readStdioLine(req(1, "ping").trim())).toEqual({
      kind: "message",
      message: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    const bad = readStdioLine('{"jsonrpc":"2.0","id":"a"}');
    expect(bad?.kind === "refusal" && bad.answer).toMatchObject({ id: "a", error: { code: -32600 } });
    // A malformed notification names no one to answer: refused, logged, unanswered.
    const note = readStdioLine('{"jsonrpc":"2.0","method":5}');
    expect(note).toMatchObject({ kind: "refusal", answer: null });
    expect(note?.kind === "refusal" && note.reason).not.toContain("\n");
  });
});
