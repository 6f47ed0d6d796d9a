/**
 * A tiny HTTP proxy for tests on 127.0.0.1: CONNECT tunnels (https-proxy-agent) and absolute-form GET forwarding
 * (http-proxy-agent). It resolves names from its own table (like a real proxy's DNS, but never leaving
 * loopback), refuses any destination that is not loopback, and binds its outgoing connections to 127.0.0.3 so a
 * target server can tell proxied connections from direct ones.
 */
import { type IncomingMessage, type Server, createServer, request } from "node:http";
import { type Socket, connect, isIP } from "node:net";

/** A running proxy. */
export interface TestHttpProxy {
  readonly url: string;
  readonly port: number;
  /** Every destination asked for, as `CONNECT host:port` or `GET absolute-url`. */
  readonly seen: string[];
  stop(): Promise<void>;
}

/** Outgoing bind address of the proxy. */
export const PROXY_BIND_ADDRESS = "127.0.0.3";

function destination(hosts: Record<string, string>, host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  const mapped = hosts[bare] ?? (isIP(bare) ? bare : null);
  // Never leave loopback, whatever a test asks for.
  return mapped && (mapped.startsWith("127.") || mapped === "::1") ? mapped : null;
}

function forward(hosts: Record<string, string>, req: IncomingMessage, res: import("node:http").ServerResponse): void {
  let u: URL;
  try {
    u = new URL(req.url ?? "");
  } catch {
    return void res.writeHead(400).end();
  }
  const addr = destination(hosts, u.hostname);
  if (!addr || u.protocol !== "http:") return void res.writeHead(502).end("bad destination");
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  const out = request(
    { host: addr, port: u.port || 80, path: u.pathname + u.search, headers, localAddress: PROXY_BIND_ADDRESS },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  out.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end("upstream failed")));
  out.end();
}

function tunnel(hosts: Record<string, string>, req: IncomingMessage, client: Socket, head: Buffer): void {
  const m = /^(.+):(\d+)$/.exec(req.url ?? "");
  const addr = m ? destination(hosts, m[1]) : null;
  if (!m || !addr) return void client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
  const up = connect({ host: addr, port: Number(m[2]), localAddress: PROXY_BIND_ADDRESS }, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) up.write(head);
    up.pipe(client);
    client.pipe(up);
  });
  up.on("error", () => client.destroy());
  client.on("error", () => up.destroy());
}

/** Starts the proxy; `hosts` maps names (lower case) to loopback addresses. */
export async function startHttpProxy(hosts: Record<string, string> = {}): Promise<TestHttpProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push(`GET ${req.url}`);
    forward(hosts, req, res);
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    sockets.add(client);
    tunnel(hosts, req, client, head);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
