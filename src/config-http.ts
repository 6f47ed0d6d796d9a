/**
 * The settings of the HTTP endpoint (`serve --http`), part of the one configuration schema of src/config.ts (which
 * also maps their environment variables): the address, the bearer token, the browser origins /mcp accepts and the
 * per-session rate limit of tool calls.
 */
import { z } from "zod";

/** A comma-separated environment value as a list (trimmed, empties dropped); any other value unchanged. */
function csv(v: unknown): unknown {
  return typeof v === "string"
    ? v
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
    : v;
}

/** An origin as browsers send it (`scheme://host[:port]`, no path, no user), or `*` for any. */
const ORIGIN = /^(\*|[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]+\/?)$/i;

/** Fields of ConfigSchema (src/config.ts) about the HTTP endpoint. */
export const HTTP_SETTINGS = {
  http: z
    .string()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):\d{1,5}$/, "http must be host:port, e.g. 127.0.0.1:8765 or [::1]:8765")
    .optional()
    .describe("address of the HTTP endpoint (/healthz, /readyz, /metrics, /mcp) of `serve`; unset = stdio only"),
  http_token: z
    .string()
    .min(16, "http_token must be at least 16 characters")
    .optional()
    .describe("bearer token of the HTTP endpoint; required when http binds beyond loopback"),
  allowed_origins: z
    .preprocess(csv, z.array(z.string().regex(ORIGIN, "allowed_origins takes origins like https://app.example, or *")))
    .describe("Origin headers /mcp accepts besides loopback ones (comma-separated in the environment); * = any"),
  http_rate_limit: z.coerce
    .number()
    .min(0)
    .describe("tool calls per second each MCP session over HTTP may make (a token bucket); 0 = no limit"),
  http_rate_burst: z.coerce
    .number()
    .int()
    .positive()
    .describe("tool calls an MCP session over HTTP may make at once before http_rate_limit paces it"),
};

/** Defaults of {@link HTTP_SETTINGS}: no extra origin; 100 tool calls/s per session, bursts of 200 (an agent never meets them). */
export const HTTP_DEFAULTS = { allowed_origins: [] as string[], http_rate_limit: 100, http_rate_burst: 200 };
