/**
 * The process that serves an embedded data dir is stopped (SIGSTOP, as Ctrl-Z or a debugger does): the other
 * processes' calls and a new process's open fail with STORE_UNAVAILABLE after their wait instead of hanging, nobody
 * takes the data dir over from the stopped owner, calls work again once it runs (SIGCONT), and when it is then
 * killed another process serves with every acknowledged write there. A host that is only busy is waited for.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgliteTemplate, seededDataDir } from "../support/services.ts";
import { acked, killAll, startWorker, type Worker } from "./fixtures/spawn.ts";

const dirs: string[] = [];
async function seededDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "pm-stop-"));
  dirs.push(dir);
  return seededDataDir(join(dir, "data"));
}

beforeAll(() => pgliteTemplate().then(() => {}), 120_000);

afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The next event matching `pred` that `w` reports after this call (earlier ones do not count). */
function next(w: Worker, pred: (ev: Record<string, any>) => boolean): Promise<Record<string, any>> {
  const seen = w.events.length;
  return w.waitFor((e) => w.events.indexOf(e) >= seen && pred(e));
}

/** Sends `cmd` to `w` and resolves its next answer: the event `ev`, or an error event. */
function ask(w: Worker, cmd: string, ev: string): Promise<Record<string, any>> {
  const answer = next(w, (e) => e.ev === ev || e.ev === "error");
  w.send(cmd);
  return answer;
}

/** An owner that wrote 20 rows and a client (wait 500 ms) that wrote 20 rows through it. */
async function ownerAndClient(dataDir: string) {
  const owner = startWorker(dataDir, "owner", 20, 1);
  expect((await owner.waitFor((e) => e.ev === "open")).owner).toBe(true);
  await owner.waitFor((e) => e.ev === "done");
  const client = startWorker(dataDir, "client", 20, 2, { PM_TEST_HOST_WAIT_MS: "500" });
  expect((await client.waitFor((e) => e.ev === "open")).owner).toBe(false);
  await client.waitFor((e) => e.ev === "done");
  return { owner, client };
}

test("a stopped owner: calls fail fast naming it, no takeover, calls work after SIGCONT, SIGKILL loses no ack", async () => {
  const dataDir = await seededDir();
  const { owner, client } = await ownerAndClient(dataDir);
  const pid = owner.child.pid!;

  owner.child.kill("SIGSTOP");
  const count = await ask(client, "count", "count");
  expect([count.ev, count.code]).toEqual(["error", "STORE_UNAVAILABLE"]);
  expect(count.message).toContain(`process ${pid}`);
  expect(count.hint).toContain(`kill -CONT ${pid}`);
  const write = await ask(client, "write 1", "written"); // its INSERT is in doubt: sent before it failed
  expect([write.ev, write.code]).toEqual(["error", "STORE_UNAVAILABLE"]);

  // A new process neither hangs nor becomes a second writer beside the stopped owner.
  const late = startWorker(dataDir, "late", 0, 1, { PM_TEST_HOST_WAIT_MS: "500" });
  expect(await late.exited).toBe(1);
  expect(late.events.map((e) => [e.ev, e.during, e.code])).toEqual([["error", "open", "STORE_UNAVAILABLE"]]);

  owner.child.kill("SIGCONT");
  const resumed = await ask(client, "count", "count");
  expect([resumed.ev, resumed.owner, resumed.total - resumed.mine]).toEqual(["count", false, 20]);
  expect((await ask(client, "write 5", "written")).ev).toBe("written");

  owner.child.kill("SIGKILL");
  await owner.exited;
  const after = await ask(client, "count", "count");
  expect([after.ev, after.owner, after.total - after.mine]).toEqual(["count", true, 20]);
  expect(after.mine).toBeGreaterThanOrEqual(acked(client));
  expect(after.mine).toBeLessThanOrEqual(acked(client) + 1); // + the INSERT in doubt
  client.send("close");
  expect(await client.exited).toBe(0);
}, 60_000);

test("a busy owner is waited for: a client whose wait is 1 ms gets its long statement's answer", async () => {
  const dataDir = await seededDir();
  const owner = startWorker(dataDir, "owner", 0, 1);
  expect((await owner.waitFor((e) => e.ev === "open")).owner).toBe(true);
  const client = startWorker(dataDir, "client", 20, 2, { PM_TEST_HOST_WAIT_MS: "1" });
  expect((await client.waitFor((e) => e.ev === "open")).owner).toBe(false);
  await client.waitFor((e) => e.ev === "done");
  const busy = await ask(client, "busy 3000000", "busy");
  expect([busy.ev, busy.n]).toEqual(["busy", 3_000_000]);
  client.send("close");
  owner.send("close");
  expect(await Promise.all([client.exited, owner.exited])).toEqual([0, 0]);
}, 60_000);

test("a stopped client holding a transaction: the others go on after the wait; resumed, it commits it again", async () => {
  const dataDir = await seededDir();
  const owner = startWorker(dataDir, "owner", 0, 1, { PM_TEST_HOST_WAIT_MS: "500" });
  expect((await owner.waitFor((e) => e.ev === "open")).owner).toBe(true);
  const client = startWorker(dataDir, "client", 0, 1);
  expect((await client.waitFor((e) => e.ev === "open")).owner).toBe(false);
  expect((await ask(client, "hold", "holding")).ev).toBe("holding");

  client.child.kill("SIGSTOP");
  // Without the host's check this waits for the idle-in-transaction limit (60 s), past this test's time limit.
  const during = await ask(owner, "count", "count");
  expect([during.ev, during.total]).toEqual(["count", 0]);

  client.child.kill("SIGCONT");
  const held = next(client, (e) => e.ev === "ack" || e.ev === "error");
  client.send("release");
  expect((await held).ev).toBe("ack");
  const after = await ask(owner, "count", "count");
  expect([after.ev, after.total]).toEqual(["count", 1]);
  client.send("close");
  owner.send("close");
  expect(await Promise.all([client.exited, owner.exited])).toEqual([0, 0]);
}, 60_000);
