/**
 * Turns what `@qdrant/js-client-rest` throws into PegasError. The client (1.19) throws, under Bun and Node alike:
 * an `ApiError` from `@qdrant/openapi-typescript-fetch` for every non-2xx answer (`status`, `statusText`, `data` =
 * Qdrant's `{status: {error}, time}` envelope); `QdrantClientTimeoutError` when its AbortSignal timer fires; a
 * TypeError with `code` ECONNREFUSED (Bun) or a `cause.code` (Node's undici) when nothing listens.
 */
import { networkCode } from "../../platform/network-codes.ts";
import { PegasError } from "../../errors.ts";

/** Where and what: the server URL, the collection, the operation (e.g. `upsert`), the request timeout in ms. */
export interface QdrantTarget {
  url: string;
  collection: string;
  op: string;
  timeoutMs: number;
}

/** HTTP status of an `ApiError` (a non-2xx answer), else undefined. */
export function httpStatusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** Qdrant's own error text from the `{status: {error}}` envelope, or the answer's text, cut to 300 characters. */
function qdrantMessage(err: unknown): string {
  const data = (err as { data?: unknown }).data;
  const inner = (data as { status?: { error?: unknown } } | null)?.status?.error;
  const text = typeof inner === "string" ? inner : typeof data === "string" ? data : "";
  const shown = text || ((err as { statusText?: string }).statusText ?? "");
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}

/** True for Qdrant's 404 about the collection itself (`Not found: Collection `x` doesn't exist!`), not a missing route. */
export function isMissingCollection(err: unknown): boolean {
  return httpStatusOf(err) === 404 && /collection/i.test(qdrantMessage(err));
}

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === "QdrantClientTimeoutError" || name === "TimeoutError" || name === "AbortError";
}

const UNREACHABLE_HINT = (url: string) =>
  `is Qdrant running at ${url}? Check qdrant_url / QDRANT_URL, or unset QDRANT_URL to use the embedded index`;

/**
 * Maps a thrown value to PegasError (a PegasError passes through): unreachable, timed out, HTTP 5xx, 429, 408,
 * 401/403 and answers that are not Qdrant's → INDEX_UNAVAILABLE (retrying or fixing the server may help); HTTP 400
 * and 422 → INVALID_INPUT (Qdrant refused the request itself); other 4xx → INDEX_UNAVAILABLE. `cause` keeps `err`.
 */
export function qdrantFailure(err: unknown, t: QdrantTarget): PegasError {
  if (err instanceof PegasError) return err;
  const where = `Qdrant at ${t.url} (collection '${t.collection}')`;
  const unavailable = (message: string, hint: string) =>
    new PegasError("INDEX_UNAVAILABLE", message, { hint, cause: err });
  if (isTimeout(err)) {
    return unavailable(
      `${where} did not answer ${t.op} within ${t.timeoutMs} ms`,
      `${UNREACHABLE_HINT(t.url)}; or raise qdrant_timeout_ms`,
    );
  }
  const code = networkCode(err);
  if (code) return unavailable(`cannot reach Qdrant at ${t.url} for ${t.op} (${code})`, UNREACHABLE_HINT(t.url));
  const status = httpStatusOf(err);
  if (status === undefined) {
    const msg = err instanceof Error ? err.message : String(err);
    return unavailable(
      `${where} gave an unexpected answer to ${t.op}: ${msg}`,
      `check that ${t.url} is a Qdrant REST endpoint (port 6333)`,
    );
  }
  const said = qdrantMessage(err);
  const detail = `${where} refused ${t.op} with HTTP ${status}${said ? `: '${said}'` : ""}`;
  if (status === 400 || status === 422) {
    return new PegasError("INVALID_INPUT", detail, {
      hint: "the request does not fit the collection; see the message",
      cause: err,
    });
  }
  if (status === 401 || status === 403)
    return unavailable(detail, "set qdrant_api_key / QDRANT_API_KEY to the server's API key");
  if (status >= 500 || status === 429 || status === 408)
    return unavailable(detail, `Qdrant is failing or overloaded; retry later and check its log at ${t.url}`);
  return unavailable(detail, `check that ${t.url} is Qdrant 1.10 or newer (the points query API), REST port 6333`);
}
