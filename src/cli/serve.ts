/**
 * `serve`: the long-running command. It picks the transport, so it sits above both: src/http/ (Streamable HTTP)
 * and src/mcp/ (stdio), which share the runtime of src/mcp/server.ts.
 */
import type { Config } from "../config.ts";
import { ServerRuntime, serveStdio } from "../mcp/server.ts";

/**
 * `serve`: MCP over Streamable HTTP (with /healthz, /readyz, /metrics) when `config.http` is set, else over stdio
 * (not both: under systemd stdin is /dev/null, whose end would stop the server). Resolves with the exit status after
 * SIGTERM/SIGINT (or stdin's end for stdio). @throws PegasError INVALID_INPUT when the HTTP address is malformed,
 * cannot be bound, or is beyond loopback without http_token.
 */
export async function serve(config: Config, onStopping?: () => void): Promise<number> {
  if (!config.http) return serveStdio(config, onStopping);
  const { serveHttp } = await import("../http/serve.ts");
  const runtime = new ServerRuntime(config, onStopping);
  await serveHttp(config, runtime);
  runtime.handleSignals();
  return runtime.done;
}
