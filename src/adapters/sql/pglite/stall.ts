/**
 * Failing fast on a host that answers nothing. A call through another process's host is watched: once it has waited
 * its whole wait (config `store_wait_ms`), the host is looked at; when it is stopped (SIGSTOP, Ctrl-Z, a debugger)
 * the call fails with STORE_UNAVAILABLE naming the host's pid, and when it is only busy (PGlite runs a long
 * statement, perhaps this very call's) the call goes on waiting. A stopped host is never taken over: it keeps its
 * lock, and resumed it goes on serving, so a second writer on the data dir cannot arise.
 */
import { PegasError } from "../../../errors.ts";
import { mainThread, pingHost, readHost } from "./host-process.ts";
import type { PglitePaths } from "./paths.ts";

/** How often a call that outlived its wait on a busy host looks at the host again, in ms. */
const RECHECK_MS = 250;
/** Longest wait for the ping of a host without a readable pid record, in ms. */
const PING_MS = 1000;

/**
 * Why the host of `paths` cannot answer now, or null when it can (or is merely busy). With a pid record, /proc
 * decides: stopped (SIGSTOP, a tracer) is stalled; running is busy unless it also leaves a ping unanswered while its
 * main thread sleeps without using any CPU (paused in a JavaScript debugger, or hung), since a busy host computes
 * (PGlite) or waits on the disk (state D). Without a record (a host of an older version, another pid namespace) a
 * ping alone decides. `waitedMs` only goes into the message.
 */
export async function stalledHost(paths: PglitePaths, waitedMs: number): Promise<PegasError | null> {
  const host = readHost(paths.hostRecordPath);
  if (host?.state === "stopped") return stoppedHostError(paths, host.pid, waitedMs, "is stopped");
  const pingMs = Math.min(Math.max(waitedMs, 100), PING_MS);
  if (host?.state === "running") {
    const before = mainThread(host.pid);
    if (before?.state !== "S" || (await pingHost(paths.socketPath, pingMs))) return null;
    const after = mainThread(host.pid);
    if (after?.state !== "S" || after.cpu !== before.cpu) return null;
    return stoppedHostError(paths, host.pid, waitedMs, "answers nothing and does nothing (paused in a debugger?)");
  }
  if (await pingHost(paths.socketPath, pingMs)) return null;
  return stoppedHostError(paths, null, waitedMs, "answers nothing (it may be stopped)");
}

/** STORE_UNAVAILABLE for a host (`pid`, or null when unknown) that answered nothing for `waitedMs`; `what` it does. */
export function stoppedHostError(paths: PglitePaths, pid: number | null, waitedMs: number, what: string): PegasError {
  const who = pid ? `process ${pid}, which serves it, ${what}` : `the process that serves it ${what}`;
  const resume = pid
    ? `\`kill -CONT ${pid}\``
    : `\`kill -CONT <pid>\` (\`ss -xlp | grep pegas-memory-${paths.hash}\` shows the pid)`;
  return new PegasError(
    "STORE_UNAVAILABLE",
    `the embedded database at '${paths.dataDir}' did not answer within ${waitedMs} ms: ${who}`,
    {
      hint: `resume it (${resume}, \`fg\` in its terminal, or continue in its debugger); calls work again as soon as it runs, and a write already sent is then committed or rolled back whole`,
    },
  );
}

/**
 * Settles as `p` does, unless `p` is still pending at `deadline` (epoch ms) and `check` then, or at a recheck every
 * 250 ms, returns an error: then rejects with that error. `p` itself runs on; the caller must stop it.
 */
export function watch<T>(p: Promise<T>, deadline: number, check: () => Promise<PegasError | null>): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout>;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const tick = async () => {
      const err = await check().catch(() => null);
      if (settled) return;
      if (err) settle(() => reject(err));
      else timer = setTimeout(tick, RECHECK_MS);
    };
    timer = setTimeout(tick, Math.max(0, deadline - Date.now()));
    p.then(
      (v) => settle(() => resolve(v)),
      (e) => settle(() => reject(e)),
    );
  });
}
