/**
 * Shutdown during a long ingest: closing stdin (or SIGTERM) while the server embeds thousands of chunks ends the
 * process promptly — the in-flight call gets the 0.65 s grace, then is cancelled, and its "cancelled" answer gets up
 * to 1 s more to be written (SHUTDOWN_DRAIN_MS) — and nothing of the document is stored. Also SIGTERM of an idle
 * server.
 */
import { expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, seededDataDir, sharedFixture } from "../support/binary.ts";

const rpc = (id: number, method: string, params: unknown) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;
const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "shutdown", version: "1" } };

async function linesUntil(
  reader: { read(): Promise<{ value?: Uint8Array; done: boolean }> },
  id: number,
): Promise<Record<string, any>> {
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("stdout closed");
    buf += new TextDecoder().decode(value);
    for (const line of buf.split("\n").slice(0, -1)) {
      const msg = JSON.parse(line);
      if (msg.id === id) return msg;
    }
    buf = buf.slice(buf.lastIndexOf("\n") + 1);
  }
}

for (const how of ["stdin", "SIGTERM"] as const) {
  test(`${how} during a long ingest: exits promptly, nothing half-stored`, async () => {
    const { dir, bin } = await isolatedBinary();
    await seededDataDir(join(dir, "data", "pegas-memory")); // the default data dir, created and migrated
    const big = join(dir, "big.txt");
    const text = readFileSync(sharedFixture("text/ru_chekhov_palata_no6.txt"), "utf8");
    writeFileSync(big, Array.from({ length: 50 }, (_, i) => text.replaceAll("Рагин", `Рагин${i}`)).join("\n\n"));
    const env = isolatedEnv(dir, { PEGAS_INGEST_ROOTS: dir });
    const proc = Bun.spawn([bin], { cwd: dir, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    const reader = proc.stdout.getReader();
    proc.stdin.write(rpc(1, "initialize", INIT));
    await linesUntil(reader, 1);
    proc.stdin.write(rpc(2, "tools/call", { name: "memory_stats", arguments: {} }));
    await linesUntil(reader, 2); // the database is open
    proc.stdin.write(rpc(3, "tools/call", { name: "memory_ingest", arguments: { path: big } }));
    await Bun.sleep(700);
    const t0 = performance.now();
    if (how === "stdin") proc.stdin.end();
    else proc.kill("SIGTERM");
    await proc.exited;
    const exitMs = performance.now() - t0;
    console.warn(`${how}: exited ${Math.round(exitMs)} ms after the signal`);
    // 0.65 s grace + ≤ 1 s drain + closing the database: ≈ 2 s. A cancelled ingest is told from one run to its end
    // (this 9 MB document takes about half a minute) by the store below, which must hold nothing of it.

    const again = Bun.spawn([bin], { cwd: dir, env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    const r2 = again.stdout.getReader();
    again.stdin.write(rpc(1, "initialize", INIT));
    await linesUntil(r2, 1);
    again.stdin.write(rpc(2, "tools/call", { name: "memory_stats", arguments: {} }));
    const stats = (await linesUntil(r2, 2)).result.structuredContent;
    expect(stats.documents.total).toBe(0);
    expect(stats.atoms.total).toBe(0);
    again.stdin.end();
    await again.exited;
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
}
