/**
 * A loopback HTTPS server with a throw-away self-signed certificate for one name (default `public.test`), made
 * with the `openssl` command line; tests pass the certificate as the fetch's extra CA. It serves the plain test
 * page on every path and records the TLS server name (SNI) and Host of each request.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PAGE_HTML } from "./http-target.ts";

/** A running HTTPS server. */
export interface TlsTarget {
  readonly port: number;
  /** The certificate (PEM), to trust as a CA. */
  readonly cert: string;
  /** SNI and Host header of each request. */
  readonly requests: Array<{ servername: string; host: string }>;
  stop(): Promise<void>;
}

/** The path of `openssl`, or null when it is not installed. */
export function opensslPath(): string | null {
  return Bun.which("openssl");
}

function makeCert(name: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "pegas-tls-"));
  try {
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        `/CN=${name}`,
        "-addext",
        `subjectAltName=DNS:${name}`,
      ],
      { stdio: "ignore", timeout: 30_000 },
    );
    return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts an HTTPS server on 127.0.0.1 (ephemeral port) whose certificate names `name`. */
export async function startTlsTarget(name = "public.test"): Promise<TlsTarget> {
  const { key, cert } = makeCert(name);
  const requests: TlsTarget["requests"] = [];
  const server = createServer({ key, cert }, (req, res) => {
    requests.push({
      servername: String((req.socket as { servername?: unknown }).servername ?? ""),
      host: req.headers.host ?? "",
    });
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(PAGE_HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    cert,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
