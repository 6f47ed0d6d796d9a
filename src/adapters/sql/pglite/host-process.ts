/**
 * Which process serves an embedded data dir, and whether it can answer at all. The host records its pid beside its
 * socket; /proc then tells a stopped host (SIGSTOP, Ctrl-Z, a debugger: it answers nothing until resumed) from a
 * busy one (PGlite runs a long statement on the host's main thread: it answers once that statement ends). A stopped
 * host keeps its lock, since the kernel keeps its abstract socket, so nobody takes over: the callers fail fast.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { SSL_REQUEST } from "./wire-messages.ts";

/** What /proc says about a recorded host: `gone` when the pid is dead or now names another process. */
export type HostState = "running" | "stopped" | "gone";

/** The recorded host of a data dir and its state now. */
export interface HostProcess {
  /** Its process id (in this pid namespace). */
  pid: number;
  state: HostState;
}

/**
 * State letter, CPU time (utime + stime, clock ticks) and start time (clock ticks after boot) from a /proc stat file
 * (proc(5): fields 3, 14, 15 and 22; the command name, field 2, may hold spaces and parentheses, so fields are
 * counted from its last ')'). `path` is /proc/<pid>/stat, or /proc/<pid>/task/<pid>/stat for the main thread alone.
 */
function procStat(path: string): { state: string; cpu: number; start: string } | null {
  try {
    const text = readFileSync(path, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    if (!fields[0] || !fields[19]) return null;
    return { state: fields[0], cpu: Number(fields[11]) + Number(fields[12]), start: fields[19] };
  } catch {
    return null;
  }
}

/**
 * State letter and CPU time (clock ticks) of the main thread of `pid`, the one that runs JavaScript and PGlite;
 * null when /proc cannot tell.
 */
export function mainThread(pid: number): { state: string; cpu: number } | null {
  return procStat(`/proc/${pid}/task/${pid}/stat`);
}

/**
 * Records this process as the host in `path` ("<pid> <start time>", written to a temporary file and renamed, so a
 * reader sees the old record or the new one). The start time tells a reused pid from the recorded process. Call
 * only while holding the ownership lock. Best effort: without /proc or a writable dir, callers just learn less.
 */
export function recordHost(path: string): void {
  const start = procStat("/proc/self/stat")?.start ?? "0";
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${process.pid} ${start}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** Removes the host record; call before releasing the lock (afterwards the record may be the next host's). */
export function forgetHost(path: string): void {
  rmSync(path, { force: true });
}

/**
 * The recorded host and its state (proc(5) states T and t, stopped by a signal or a tracer, are `stopped`; Z and X
 * are `gone`); null when there is no readable record (no host yet, a host of an older version, no /proc).
 */
export function readHost(path: string): HostProcess | null {
  let pid: number;
  let start: string | undefined;
  try {
    const [p, s] = readFileSync(path, "utf8").trim().split(" ");
    pid = Number(p);
    start = s;
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  return { pid, state: processState(pid, start) };
}

/**
 * State of process `pid` (in this pid namespace) per /proc; `gone` also when its start time differs from `start`
 * (the pid was reused) or /proc cannot tell.
 */
export function processState(pid: number, start = "0"): HostState {
  const stat = procStat(`/proc/${pid}/stat`);
  if (!stat || (start !== "0" && stat.start !== start) || stat.state === "Z" || stat.state === "X") return "gone";
  return stat.state === "T" || stat.state === "t" ? "stopped" : "running";
}

/** The application_name by which a process's connections tell the host who they are; see {@link clientProcess}. */
export function clientName(): string {
  return `pegas-memory pid ${process.pid} start ${procStat("/proc/self/stat")?.start ?? "0"}`;
}

/** The pid and start time in an application_name made by {@link clientName}, or null. */
export function clientProcess(applicationName: string | undefined): { pid: number; start: string } | null {
  const m = /^pegas-memory pid (\d{1,10}) start (\d{1,20})$/.exec(applicationName ?? "");
  return m ? { pid: Number(m[1]), start: m[2]! } : null;
}

/**
 * Whether the wire server on `socketPath` answers a cheap ping within `ms`: an SSLRequest, which the server's event
 * loop answers at once ('N') without PGlite. A stopped host, and one whose PGlite blocks its thread, answer nothing.
 */
export function pingHost(socketPath: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once("connect", () => {
      const ping = Buffer.alloc(8);
      ping.writeInt32BE(8, 0);
      ping.writeInt32BE(SSL_REQUEST, 4);
      socket.write(ping);
    });
    socket.once("data", () => done(true));
    socket.once("error", () => done(false));
    socket.once("close", () => done(false));
  });
}
