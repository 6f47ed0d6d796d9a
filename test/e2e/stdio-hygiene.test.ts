/**
 * Raw stdio: every stdout line is a JSON-RPC message, `initialize` answers before the database opens, and
 * closing stdin ends the process within 1 s.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { isolatedBinary, isolatedEnv } from "../support/binary.ts";

const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n";

test("stdout carries JSON-RPC only; stdin EOF ends the process within 1 s", async () => {
  const { dir, bin } = await isolatedBinary();
  const proc = Bun.spawn([bin], { cwd: dir, env: isolatedEnv(dir), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  proc.stdin.write(rpc(1, "initialize", init));
  proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  proc.stdin.write(rpc(2, "tools/call", { name: "memory_store", arguments: { type: "fact", claim: "Палата № 6 стоит во дворе больницы." } }));
  proc.stdin.write(rpc(3, "tools/call", { name: "memory_search", arguments: { query: "палата во дворе" } }));
  proc.stdin.write(rpc(4, "tools/call", { name: "memory_search", arguments: { query: "" } }));
  const reader = proc.stdout.getReader();
  let buf = "";
  const seen = new Set<number>();
  while (seen.size < 4) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
    for (const line of buf.split("\n").slice(0, -1)) {
      const msg = JSON.parse(line);
      expect(msg.jsonrpc).toBe("2.0");
      if (typeof msg.id === "number") seen.add(msg.id);
    }
    buf = buf.slice(buf.lastIndexOf("\n") + 1);
  }
  expect([...seen].sort()).toEqual([1, 2, 3, 4]);
  const closedAt = performance.now();
  proc.stdin.end();
  const code = await proc.exited;
  const elapsed = performance.now() - closedAt;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const line of new TextDecoder().decode(value).split("\n").filter(Boolean)) expect(JSON.parse(line).jsonrpc).toBe("2.0");
  }
  expect(code).toBe(0);
  expect(elapsed).toBeLessThan(1000);
  rmSync(dir, { recursive: true, force: true });
}, 120_000);
