/**
 * Connection-level failure codes of Bun's fetch and Node's undici (refused, reset, name resolution, unreachable,
 * connect timeouts), shared by the HTTP clients of our engines (Ollama, Qdrant) to tell "the engine is not there"
 * from an answer it gave.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ConnectionRefused",
  "ECONNRESET",
  "ConnectionClosed",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "FailedToOpenSocket",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The network failure code of `err` or of an error it wraps (`cause`, at most 5 deep), else undefined. */
export function networkCode(err: unknown, depth = 0): string | undefined {
  if (err === null || typeof err !== "object" || depth > 4) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
  return networkCode((err as { cause?: unknown }).cause, depth + 1);
}
