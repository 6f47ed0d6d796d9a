/**
 * `serve --http` as a separate process for the HTTP load benchmark and its test: spawned on 127.0.0.1 port 0 (the
 * bound URL is read from its "http server listening" log line), its peak resident memory read from
 * /proc/<pid>/status (VmHWM), stopped with SIGTERM (as systemd stops it) and awaited, or restarted on the same store.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Subprocess } from "bun";

/** How to start the server: the program and its leading arguments, environment and working directory. */
export interface ServerCommand {
  /** e.g. ["/tmp/…/pegas-memory"] or ["bun", "main.ts"]. */
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A running server. */
export interface HttpServerProc {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  pid: number;
  /** Peak resident memory so far (bytes, VmHWM), 0 where /proc is missing. */
  peakRssBytes(): number;
  /** The last 64 KiB of its stderr (JSON log lines). */
  stderrTail(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`); resolves with the exit code. */
  stop(graceMs?: number): Promise<number>;
}

const TAIL_BYTES = 64 * 1024;

/** Reads a /proc/<pid>/status field in kB as bytes (0 when absent). */
export function procStatusBytes(pid: number, field: "VmHWM" | "VmRSS"): number {
  const path = `/proc/${pid}/status`;
  if (!existsSync(path)) return 0;
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(path, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

async function watchStderr(
  proc: Subprocess<"ignore", "ignore", "pipe">,
  onLine: (line: string) => void,
  tail: { text: string },
): Promise<void> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of proc.stderr) {
    const s = decoder.decode(chunk, { stream: true });
    tail.text = (tail.text + s).slice(-TAIL_BYTES);
    buf += s;
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      onLine(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  }
}

/**
 * Starts `<argv> serve --http 127.0.0.1:0 <extraArgs>` and resolves once it listens.
 * @throws Error with the server's stderr when it exits first or does not listen within `timeoutMs`.
 */
export async function startHttpServer(
  cmd: ServerCommand,
  extraArgs: string[],
  timeoutMs = 60_000,
): Promise<HttpServerProc> {
  const proc = Bun.spawn([...cmd.argv, "serve", "--http", "127.0.0.1:0", ...extraArgs], {
    cwd: cmd.cwd,
    env: { ...cmd.env, PEGAS_LOG_LEVEL: "info" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const tail = { text: "" };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not listen within ${timeoutMs} ms: ${tail.text.slice(-2000)}`)),
      timeoutMs,
    );
    void watchStderr(
      proc,
      (line) => {
        if (!line.includes("http server listening")) return;
        try {
          const u = JSON.parse(line).url;
          if (typeof u === "string") {
            clearTimeout(timer);
            resolve(u);
          }
        } catch {
          // a line that is not one JSON object: not ours
        }
      },
      tail,
    );
    void proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${tail.text.slice(-2000)}`));
    });
  }).catch((err) => {
    proc.kill("SIGKILL");
    throw err;
  });
  return {
    url,
    pid: proc.pid,
    peakRssBytes: () => procStatusBytes(proc.pid, "VmHWM"),
    stderrTail: () => tail.text,
    async stop(graceMs = 15_000) {
      proc.kill("SIGTERM");
      const killer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
      const code = await proc.exited;
      clearTimeout(killer);
      return code;
    },
  };
}

/**
 * Stops `srv` cleanly (SIGTERM, as systemd does) and starts the same command on the same `extraArgs` (the same store),
 * so that what is read afterwards comes from the store and not from the old process's memory. Resolves with the new
 * server. @throws Error with the old server's stderr when it does not exit with code 0 within `graceMs`, or the new
 * one does not listen.
 */
export async function restartHttpServer(
  srv: HttpServerProc,
  cmd: ServerCommand,
  extraArgs: string[],
  graceMs = 15_000,
): Promise<HttpServerProc> {
  const code = await srv.stop(graceMs);
  if (code !== 0)
    throw new Error(`server exited with ${code} on SIGTERM (0 expected): ${srv.stderrTail().slice(-2000)}`);
  return startHttpServer(cmd, extraArgs);
}
