/**
 * `serve --http HOST:PORT`: checks the exposure rule, listens (src/platform/http-server.ts), sweeps idle MCP sessions
 * and joins the runtime's shutdown: at SIGTERM the listener stops taking connections at once, calls in flight get
 * the grace period, then sessions, connections and the databases are closed.
 */
import type { Config } from "../config.ts";
import { log } from "../log.ts";
import { within } from "../domain/deadline.ts";
import { SHUTDOWN_STEP_MS, type ServerRuntime } from "../mcp/server.ts";
import { type HttpListener, listen } from "../platform/http-server.ts";
import { listenAddress, loopbackHostHeaders } from "./address.ts";
import { createHttpApp, type HttpAppOptions } from "./app.ts";

/** How often idle sessions are looked for (ms); an idle session lives at most this much past its expiry. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Serves the HTTP endpoint of `runtime` on `config.http` until the runtime stops; resolves with the bound listener
 * once it listens (its `port` is the real one when 0 was asked). The services start opening at once, so that the
 * first call and /readyz need not wait for it.
 * @throws PegasError INVALID_INPUT when the address is malformed, cannot be bound, or is beyond loopback while no
 *   http_token (PEGAS_HTTP_TOKEN) is set; nothing is left listening then.
 */
export async function serveHttp(
  config: Config,
  runtime: ServerRuntime,
  opts: Pick<HttpAppOptions, "sessions"> = {},
): Promise<HttpListener> {
  const addr = listenAddress(config);
  let bound: HttpListener | null = null;
  // DNS-rebinding protection: a loopback endpoint answers only Host headers naming loopback (a web page cannot
  // rebind its own name to 127.0.0.1 and drive the tools); beyond loopback the bearer token guards instead.
  const allowedHosts = addr.loopback
    ? () => (bound ? loopbackHostHeaders(bound.hostname, bound.port) : [])
    : () => undefined;
  const { app, sessions } = createHttpApp({ runtime, allowedHosts, ...opts });
  const listener = listen({ hostname: addr.hostname, port: addr.port, fetch: app.fetch });
  bound = listener;
  const sweeper = setInterval(
    () => void sessions.sweep(),
    Math.min(SWEEP_EVERY_MS, opts.sessions?.idleMs ?? SWEEP_EVERY_MS),
  );
  sweeper.unref();
  let drained: Promise<void> = Promise.resolve();
  runtime.attach({
    quiesce: () => {
      clearInterval(sweeper);
      drained = listener.stop(false).catch(() => {});
    },
    // The answers of cancelled calls were just written: closing the sessions ends their streams, and the connections
    // close once those are delivered; whatever is still open after a short wait is cut.
    close: async () => {
      await sessions.closeAll();
      await within(drained, SHUTDOWN_STEP_MS);
      await listener.stop(true);
    },
  });
  runtime.services
    .get()
    .catch((err) => log.warn("services did not open yet; /readyz reports why, calls retry", { err }));
  log.info("http server listening", {
    url: listener.url,
    mcp: `${listener.url}/mcp`,
    token: config.http_token !== undefined,
    loopback: addr.loopback,
  });
  return listener;
}
