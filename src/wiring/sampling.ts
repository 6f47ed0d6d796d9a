/**
 * Makes the sampling distiller available to tools: the services are built by src/wiring/services.ts without knowledge of
 * the MCP connection, so the MCP server wraps its services getter with {@link withSamplingDistiller}, which replaces
 * `distiller` by a sampling distiller (falling back to the configured one) when config `distiller` is
 * "mcp-sampling", and passes the services through unchanged otherwise.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Services } from "../core/services.ts";

/**
 * Wraps `getServices`: the same services, with `distiller` asking the MCP client's model when config says
 * "mcp-sampling". One wrapper per services object (the wrapped object is reused across calls).
 */
export function withSamplingDistiller(
  server: McpServer,
  getServices: () => Promise<Services>,
): () => Promise<Services> {
  const wrapped = new WeakMap<Services, Services>();
  return async () => {
    const services = await getServices();
    if (services.config.distiller !== "mcp-sampling") return services;
    let out = wrapped.get(services);
    if (!out) {
      // Loaded only when configured: the server must answer `initialize` without the LLM adapters' modules.
      const { createSamplingDistiller } = await import("../adapters/llm/mcp-sampling/distiller.ts");
      const distiller = createSamplingDistiller(server, services.distiller, {
        maxTokens: services.config.distill_num_predict,
      });
      out = { ...services, distiller };
      wrapped.set(services, out);
    }
    return out;
  };
}
