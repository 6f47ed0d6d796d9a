/**
 * Two servers on one embedded data dir (as two MCP clients would start them): both work and lose nothing, also
 * when the process that hosts the database is killed with SIGKILL halfway.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, seededDataDir } from "../support/binary.ts";

// Per process, IN_FLIGHT at a time from each: both processes write through the one hosted database the whole time
// (and, in the SIGKILL test, each side still has about half its stores to make when the host dies).
const PER_PROCESS = 80;
const IN_FLIGHT = 8;

interface Server {
  client: Client;
  transport: StdioClientTransport;
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});

async function start(bin: string, dir: string, dataDir: string): Promise<Server> {
  const transport = new StdioClientTransport({
    command: bin,
    cwd: dir,
    env: isolatedEnv(dir, { PEGAS_DATA_DIR: dataDir }),
    stderr: "ignore",
  });
  const client = new Client({ name: "mp", version: "1" });
  await client.connect(transport);
  cleanup.push(() => client.close().catch(() => {}));
  return { client, transport };
}

const marker = (who: string, i: number) => `zq${who}${i}`;

/** Stores PER_PROCESS distinct atoms, IN_FLIGHT at a time; returns the indexes acknowledged without error. */
async function storeMany(s: Server, who: string, onAck?: (n: number) => void): Promise<number[]> {
  const acked: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < PER_PROCESS) {
      const i = next++;
      const claim = `Процесс ${who} записал наблюдение номер ${i} о палате, маркер ${marker(who, i)}.`;
      try {
        const r = await s.client.callTool({ name: "memory_store", arguments: { type: "fact", claim } }, undefined, {
          timeout: 60_000,
        });
        if (!r.isError) {
          acked.push(i);
          onAck?.(acked.length);
        }
      } catch {
        return; // the process is gone
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return acked;
}

/** The indexes (ascending) whose atom a lexical search for its marker does not find first; IN_FLIGHT searches at a time. */
async function findsAll(s: Server, who: string, indexes: number[]): Promise<number[]> {
  const missing: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < indexes.length) {
      const i = indexes[next++]!;
      const r = await s.client.callTool({
        name: "memory_search",
        arguments: { query: marker(who, i), k: 1, mode: "lexical" },
      });
      const hit = (r.structuredContent as { hits: Array<{ claim: string }> }).hits[0];
      if (!hit?.claim.includes(`${marker(who, i)}.`)) missing.push(i);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return missing.sort((x, y) => x - y);
}

async function atomCount(s: Server): Promise<number> {
  const r = await s.client.callTool({ name: "memory_stats", arguments: {} });
  return (r.structuredContent as { atoms: { total: number } }).atoms.total;
}

describe("two processes on one embedded data dir", () => {
  test(`${PER_PROCESS} stores each at the same time: ${2 * PER_PROCESS} atoms, each found from either process`, async () => {
    const { dir, bin } = await isolatedBinary();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const dataDir = await seededDataDir(join(dir, "shared-data"));
    const a = await start(bin, dir, dataDir);
    const b = await start(bin, dir, dataDir);
    const [ackA, ackB] = await Promise.all([storeMany(a, "a"), storeMany(b, "b")]);
    expect(ackA.length).toBe(PER_PROCESS);
    expect(ackB.length).toBe(PER_PROCESS);
    expect(await atomCount(a)).toBe(2 * PER_PROCESS);
    expect(await atomCount(b)).toBe(2 * PER_PROCESS);
    expect(await findsAll(a, "b", ackB)).toEqual([]);
    expect(await findsAll(b, "a", ackA)).toEqual([]);
  }, 300_000);

  test("the host killed with SIGKILL halfway: the other takes over and no acknowledged store is lost", async () => {
    const { dir, bin } = await isolatedBinary();
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const dataDir = await seededDataDir(join(dir, "shared-data"));
    const host = await start(bin, dir, dataDir);
    await atomCount(host); // opens the database: this process hosts it
    const other = await start(bin, dir, dataDir);
    await atomCount(other);
    const pid = host.transport.pid!;
    let killed = false;
    const [ackHost, ackOther] = await Promise.all([
      storeMany(host, "h", (n) => {
        if (n >= PER_PROCESS / 2 && !killed) {
          killed = true;
          process.kill(pid, "SIGKILL");
        }
      }),
      storeMany(other, "o"),
    ]);
    expect(killed).toBe(true);
    expect(ackHost.length).toBeGreaterThanOrEqual(PER_PROCESS / 2);
    expect(ackOther.length).toBe(PER_PROCESS);
    expect(await findsAll(other, "h", ackHost)).toEqual([]);
    expect(await findsAll(other, "o", ackOther)).toEqual([]);
    expect(await atomCount(other)).toBeGreaterThanOrEqual(ackHost.length + ackOther.length);
  }, 300_000);
});
