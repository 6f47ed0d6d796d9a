/**
 * Masking of secrets in the configuration (src/config.ts) and in connection URLs, for messages, logs and `doctor`.
 */
import type { Config } from "./config.ts";

/** Query parameters that carry secrets in connection URLs (libpq's `password`, `sslpassword`; API keys, tokens). */
const SECRET_PARAM = /pass|secret|token|key/i;

/**
 * A URL with its secrets masked, for messages and logs: the user-info password (`scheme://user:***@host`, also when
 * the password holds an unencoded `@`) and query parameters named like a password, secret, token or key. A URL
 * without secrets comes back unchanged; one that does not parse is masked up to its last `@`.
 */
export function maskUrl(u: string): string {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return u.replace(/\/\/([^:@/]*):(.*)@/, "//$1:***@");
  }
  const secretParams = [...url.searchParams.keys()].filter((k) => SECRET_PARAM.test(k));
  if (!url.password && secretParams.length === 0) return u;
  if (url.password) url.password = "***";
  for (const k of secretParams) url.searchParams.set(k, "***");
  return url.href;
}

/** The configuration with secrets masked, for logs and `doctor`. */
export function redactConfig(cfg: Config): Record<string, unknown> {
  const mask = (u?: string) => (u ? maskUrl(u) : u);
  const secret = (v?: string) => (v ? "***" : v);
  return {
    ...cfg,
    database_url: mask(cfg.database_url),
    proxy_url: mask(cfg.proxy_url),
    qdrant_url: mask(cfg.qdrant_url),
    search_url: mask(cfg.search_url),
    memgraph_url: mask(cfg.memgraph_url),
    qdrant_api_key: secret(cfg.qdrant_api_key),
    memgraph_password: secret(cfg.memgraph_password),
    http_token: secret(cfg.http_token),
  };
}
