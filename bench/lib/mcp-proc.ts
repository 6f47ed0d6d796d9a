/**
 * A raw MCP client over stdio for timing the compiled executable: JSON-RPC lines written to stdin, responses
 * matched by id on stdout, with no SDK in between, so that what is timed is the server alone.
 */
import { readFileSync } from "node:fs";
import type { Subprocess } from "bun";

/** Protocol version sent in `initialize`. */
export const PROTOCOL_VERSION = "2025-06-18";

type Waiter = { resolve: (msg: any) => void; reject: (err: Error) => void };

/** A spawned server and the line reader of its stdout. */
export class McpProcess {
  readonly proc: Subprocess<"pipe", "pipe", "pipe">;
  /** `performance.now()` right before the spawn. */
  readonly spawnedAt: number;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();
  private stderrText = "";
  private exitedAt = 0;

  constructor(bin: string, args: string[], opts: { cwd: string; env: Record<string, string> }) {
    this.spawnedAt = performance.now();
    this.proc = Bun.spawn([bin, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    void this.readStdout();
    void new Response(this.proc.stderr).text().then((t) => (this.stderrText = t));
    void this.proc.exited.then(() => {
      this.exitedAt = performance.now();
      for (const w of this.waiters.values())
        w.reject(new Error(`server exited (${this.proc.exitCode}): ${this.stderrText.slice(-500)}`));
      this.waiters.clear();
    });
  }

  private async readStdout(): Promise<void> {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of this.proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) this.onLine(line);
      }
    }
  }

  private onLine(line: string): void {
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not JSON-RPC: the hygiene tests catch that, the benchmark ignores it
    }
    const w = typeof msg?.id === "number" ? this.waiters.get(msg.id) : undefined;
    if (!w || (msg.result === undefined && msg.error === undefined)) return;
    this.waiters.delete(msg.id);
    if (msg.error) w.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
    else w.resolve(msg.result);
  }

  /** Sends a request; resolves with its `result` (rejects on a JSON-RPC error or when the server exits). */
  request(method: string, params: unknown): Promise<any> {
    const id = this.nextId++;
    const p = new Promise<any>((resolve, reject) => this.waiters.set(id, { resolve, reject }));
    this.proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    this.proc.stdin.flush();
    return p;
  }

  /** Sends a notification (no response). */
  notify(method: string, params: unknown = {}): void {
    this.proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
    this.proc.stdin.flush();
  }

  /** `initialize` followed by `notifications/initialized`; resolves with the server's initialize result. */
  async initialize(): Promise<any> {
    const result = await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "pegas-bench", version: "1" },
    });
    this.notify("notifications/initialized");
    return result;
  }

  /** Calls a tool; resolves with its structuredContent. @throws Error when the result is an `isError` result. */
  async callTool(name: string, args: Record<string, unknown>): Promise<any> {
    const r = await this.request("tools/call", { name, arguments: args });
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content).slice(0, 500)}`);
    return r.structuredContent;
  }

  /** Resident set size of the server process in bytes (VmRSS of /proc/<pid>/status). */
  rssBytes(): number {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${this.proc.pid}/status`, "utf8"));
    if (!m) throw new Error(`no VmRSS for pid ${this.proc.pid}`);
    return Number(m[1]) * 1024;
  }

  /** Closes stdin and resolves with the ms from closing to the process's exit (and its exit code). */
  async closeStdin(): Promise<{ ms: number; code: number | null }> {
    const t0 = performance.now();
    this.proc.stdin.end();
    await this.proc.exited;
    return { ms: this.exitedAt - t0, code: this.proc.exitCode };
  }

  /** Kills the process if it still runs (cleanup after a failure). */
  kill(): void {
    if (this.proc.exitCode === null) this.proc.kill("SIGKILL");
  }
}
