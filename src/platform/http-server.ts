/**
 * The HTTP listener: the one place that uses Bun's server API (`Bun.serve`), so that the runtime choice stays
 * reversible (DESIGN.md, "Runtime and packaging"). Everything above it speaks Web-standard Request/Response.
 */
import { PegasError } from "../errors.ts";

/** A listening server. */
export interface HttpListener {
  /** The address actually bound (`port` is the real one when 0 was asked). */
  readonly hostname: string;
  readonly port: number;
  /** `http://host:port` with an IPv6 host in brackets. */
  readonly url: string;
  /**
   * Stops accepting connections. `force` false lets responses in flight complete; true cuts every connection.
   * Resolves once every connection is closed (with `force` false that may take as long as the longest response).
   */
  stop(force: boolean): Promise<void>;
}

/** What to serve and where. */
export interface ListenOptions {
  hostname: string;
  /** 0 = any free port. */
  port: number;
  /** Answers one request (a Hono app's `fetch`). */
  fetch: (req: Request) => Response | Promise<Response>;
  /**
   * Seconds a connection may stay silent before it is closed; must exceed the SSE keep-alive interval of the MCP
   * transport (15 s) so that idle event streams survive.
   */
  idleTimeoutS?: number;
}

/** Idle timeout of a connection when none is given (s): four keep-alive frames of the MCP transport may be missed. */
const DEFAULT_IDLE_TIMEOUT_S = 60;

/** Starts listening. @throws PegasError INVALID_INPUT when the address cannot be bound (in use, not local). */
export function listen(opts: ListenOptions): HttpListener {
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: opts.hostname,
      port: opts.port,
      fetch: opts.fetch,
      idleTimeout: opts.idleTimeoutS ?? DEFAULT_IDLE_TIMEOUT_S,
    });
  } catch (err) {
    const shown = opts.hostname.includes(":") ? `[${opts.hostname}]:${opts.port}` : `${opts.hostname}:${opts.port}`;
    throw new PegasError("INVALID_INPUT", `cannot listen on ${shown}: ${(err as Error).message}`, {
      hint: "pick a free port and an address of this host (--http HOST:PORT, env PEGAS_HTTP)",
      cause: err,
    });
  }
  const hostname = server.hostname ?? opts.hostname;
  const port = server.port ?? opts.port;
  return {
    hostname,
    port,
    url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`,
    stop: (force) => server.stop(force),
  };
}
