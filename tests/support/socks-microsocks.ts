/**
 * A real SOCKS5 server (RFC 1928) for tests: Debian's `microsocks` (apt-get install -y microsocks), listening on
 * 127.0.0.1 at a free port and binding its outgoing connections to another loopback address (default 127.0.0.2),
 * so a target server can tell proxied connections (from 127.0.0.2) from direct ones (from 127.0.0.1). Its log
 * (stderr, "client[N] 127.0.0.1: connected to HOST:PORT") shows whether it got a name or an address.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer } from "node:net";

/** A running microsocks. */
export interface Microsocks {
  readonly port: number;
  /** Outgoing bind address. */
  readonly bindAddress: string;
  /** Lines microsocks wrote to stderr. */
  readonly log: string[];
  stop(): Promise<void>;
}

/** The path of `microsocks`, or null when it is not installed. */
export function microsocksPath(): string | null {
  return Bun.which("microsocks");
}

/** A TCP port on 127.0.0.1 that was free a moment ago (listen on 0, then close). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect({ host: "127.0.0.1", port });
    c.once("connect", () => (c.destroy(), resolve(true)));
    c.once("error", () => resolve(false));
  });
}

async function waitListening(child: ChildProcess, port: number): Promise<boolean> {
  for (let i = 0; i < 60 && child.exitCode === null; i++) {
    if (await canConnect(port)) return true;
    await Bun.sleep(50);
  }
  return false;
}

/**
 * Starts microsocks on 127.0.0.1; tries up to 5 ports in case one is taken meanwhile.
 * @throws Error when microsocks is missing or never listens.
 */
export async function startMicrosocks(bindAddress = "127.0.0.2"): Promise<Microsocks> {
  const bin = microsocksPath();
  if (!bin) throw new Error("microsocks is not installed");
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const log: string[] = [];
    const child = spawn(bin, ["-i", "127.0.0.1", "-p", String(port), "-b", bindAddress], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (d: Buffer) => log.push(...String(d).split("\n").filter(Boolean)));
    if (await waitListening(child, port)) {
      const stop = async () => {
        if (child.exitCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        await Promise.race([exited, Bun.sleep(2000)]);
      };
      return { port, bindAddress, log, stop };
    }
    child.kill("SIGKILL");
  }
  throw new Error("microsocks did not start listening");
}
