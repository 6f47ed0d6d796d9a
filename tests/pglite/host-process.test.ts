/**
 * The pieces that tell a stopped host from a busy one: the pid record and /proc states, the client's name in
 * application_name, the wire ping, and the watch that fails a call only when the check finds the host stalled.
 */
import { afterAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  clientName,
  clientProcess,
  forgetHost,
  pingHost,
  processState,
  readHost,
  recordHost,
} from "../../src/adapters/sql/pglite/host-process.ts";
import { resolvePaths } from "../../src/adapters/sql/pglite/paths.ts";
import { stalledHost, watch } from "../../src/adapters/sql/pglite/stall.ts";
import { startupParameters } from "../../src/adapters/sql/pglite/wire-messages.ts";
import { PegasError } from "../../src/errors.ts";

const root = mkdtempSync(join(tmpdir(), "pm-hostproc-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("the record names this process as running; a reused pid (other start time) is gone; forgotten, none", () => {
  const path = join(root, "host.pid");
  expect(readHost(path)).toBeNull();
  recordHost(path);
  expect(readHost(path)).toEqual({ pid: process.pid, state: "running" });
  const [pid, start] = readFileSync(path, "utf8").trim().split(" ");
  writeFileSync(path, `${pid} ${Number(start) + 1}\n`);
  expect(readHost(path)).toEqual({ pid: process.pid, state: "gone" });
  writeFileSync(path, "not a pid\n");
  expect(readHost(path)).toBeNull();
  forgetHost(path);
  expect(readHost(path)).toBeNull();
});

test("a SIGSTOPped process is stopped, SIGCONTed running, killed gone", async () => {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const pid = child.pid!;
  const until = async (state: string) => {
    for (let i = 0; i < 200 && processState(pid) !== state; i++) await Bun.sleep(10);
    return processState(pid);
  };
  try {
    expect(await until("running")).toBe("running");
    child.kill("SIGSTOP");
    expect(await until("stopped")).toBe("stopped");
    child.kill("SIGCONT");
    expect(await until("running")).toBe("running");
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
  expect(processState(pid)).toBe("gone");
});

test("a client's application_name carries its pid and start time through the startup message", () => {
  const params = ["user", "postgres", "application_name", clientName(), "database", "postgres"];
  const body = Buffer.from(`${params.join("\0")}\0\0`);
  const msg = Buffer.alloc(8 + body.length);
  msg.writeInt32BE(msg.length, 0);
  msg.writeInt32BE(196608, 4);
  body.copy(msg, 8);
  const parsed = startupParameters(msg);
  expect(parsed.get("user")).toBe("postgres");
  const client = clientProcess(parsed.get("application_name"));
  expect(client?.pid).toBe(process.pid);
  expect(processState(client!.pid, client!.start)).toBe("running");
  expect(clientProcess("pegas-memory")).toBeNull();
});

/** A unix socket server whose connections get `answer` (or nothing) for any bytes. */
async function socketServer(path: string, answer: string | null): Promise<Server> {
  const server = createServer((conn) => conn.on("data", () => answer !== null && conn.write(answer)));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return server;
}

test("the ping is answered by a server that answers and not by one that is silent", async () => {
  const answering = await socketServer(join(root, "answering.sock"), "N");
  const silent = await socketServer(join(root, "silent.sock"), null);
  try {
    expect(await pingHost(join(root, "answering.sock"), 1000)).toBe(true);
    expect(await pingHost(join(root, "silent.sock"), 100)).toBe(false);
    expect(await pingHost(join(root, "absent.sock"), 1000)).toBe(false);
  } finally {
    answering.close();
    silent.close();
  }
});

test("without a pid record a silent host is stalled and an answering one is not", async () => {
  const paths = resolvePaths(join(root, "data"));
  expect(await stalledHost(paths, 100)).toBeInstanceOf(PegasError); // nothing listens at all
  const silent = await socketServer(paths.socketPath, null);
  try {
    const err = await stalledHost(paths, 100);
    expect([err?.code, err?.hint?.includes(`pegas-memory-${paths.hash}`)]).toEqual(["STORE_UNAVAILABLE", true]);
  } finally {
    silent.close();
  }
  recordHost(paths.hostRecordPath); // this process: running, so merely busy
  expect(await stalledHost(paths, 100)).toBeNull();
  forgetHost(paths.hostRecordPath);
});

/** Starts fake-host.ts on a fresh data dir in `mode`; resolves its paths and child once it serves. */
async function fakeHost(mode: "idle" | "busy" | "sleep") {
  const dataDir = join(root, `fake-${mode}`);
  const child = spawn(process.execPath, [join(import.meta.dir, "fixtures", "fake-host.ts"), dataDir, mode], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`fake host exited (${code})`)));
  });
  await Bun.sleep(200); // past the 50 ms it keeps its event loop after "ready"
  return { paths: resolvePaths(dataDir), child };
}

test("a host that answers, or computes, is not stalled; one that sleeps without answering (a debugger) is", async () => {
  const hosts = await Promise.all([fakeHost("idle"), fakeHost("busy"), fakeHost("sleep")]);
  try {
    const [idle, busy, sleeping] = await Promise.all(hosts.map((h) => stalledHost(h.paths, 300)));
    expect([idle, busy]).toEqual([null, null]);
    expect(sleeping?.code).toBe("STORE_UNAVAILABLE");
    expect(sleeping?.message).toContain(`process ${hosts[2]!.child.pid}, which serves it, answers nothing`);
  } finally {
    for (const h of hosts) h.child.kill("SIGKILL");
  }
});

test("watch: settles as the call does, goes on while the check finds nothing, fails with what it finds", async () => {
  const never = new Promise<never>(() => {});
  const now = Date.now();
  expect(await watch(Promise.resolve(7), now, async () => new PegasError("INTERNAL", "unused"))).toBe(7);
  let checks = 0;
  const slow = Bun.sleep(400).then(() => "done");
  expect(await watch(slow, now, async () => (checks++, null))).toBe("done");
  expect(checks).toBeGreaterThanOrEqual(1);
  const stalled = new PegasError("STORE_UNAVAILABLE", "stopped");
  await expect(watch(never, now, async () => stalled)).rejects.toBe(stalled);
  await expect(watch(Promise.reject(new Error("own")), now + 60_000, async () => stalled)).rejects.toThrow("own");
});
