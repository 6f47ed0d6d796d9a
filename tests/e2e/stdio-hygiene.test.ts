/**
 * Raw stdio: `initialize` answers before the database is opened, every stdout line is a JSON-RPC message, and
 * closing stdin ends the process (exit status 0).
 */
import { expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv } from "../support/binary.ts";

const rpc = (id: number, method: string, params: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;

/** Reads stdout lines, checking each is JSON-RPC, until the responses with the given ids have arrived. */
async function readResponses(
  reader: { read(): Promise<{ value?: Uint8Array; done: boolean }> },
  ids: number[],
  state: { buf: string },
): Promise<void> {
  const seen = new Set<number>();
  while (ids.some((id) => !seen.has(id))) {
    const { value, done } = await reader.read();
    if (done) throw new Error("stdout closed early");
    state.buf += new TextDecoder().decode(value);
    const lines = state.buf.split("\n");
    state.buf = lines.pop()!;
    for (const line of lines) {
      const msg = JSON.parse(line);
      expect(msg.jsonrpc).toBe("2.0");
      if (typeof msg.id === "number") seen.add(msg.id);
    }
  }
}

test("initialize before the database opens; stdout carries JSON-RPC only; stdin EOF ends the process", async () => {
  const { dir, bin } = await isolatedBinary();
  const dataDir = join(dir, "data", "pegas-memory");
  const proc = Bun.spawn([bin], { cwd: dir, env: isolatedEnv(dir), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const reader = proc.stdout.getReader();
  const state = { buf: "" };
  proc.stdin.write(
    rpc(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    }),
  );
  await readResponses(reader, [1], state);
  expect(existsSync(dataDir)).toBe(false);

  proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  proc.stdin.write(
    rpc(2, "tools/call", {
      name: "memory_store",
      arguments: { type: "fact", claim: "Палата № 6 стоит во дворе больницы." },
    }),
  );
  proc.stdin.write(rpc(3, "tools/call", { name: "memory_search", arguments: { query: "палата во дворе" } }));
  proc.stdin.write(rpc(4, "tools/call", { name: "memory_search", arguments: { query: "" } }));
  await readResponses(reader, [2, 3, 4], state);
  expect(existsSync(dataDir)).toBe(true);

  proc.stdin.end();
  const code = await proc.exited;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const line of new TextDecoder().decode(value).split("\n").filter(Boolean))
      expect(JSON.parse(line).jsonrpc).toBe("2.0");
  }
  expect(code).toBe(0);
  rmSync(dir, { recursive: true, force: true });
}, 120_000);
