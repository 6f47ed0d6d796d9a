/**
 * Fetcher port: GET one http(s) URL for ingest, with redirects, size caps, proxy and address safety applied by the
 * adapter (src/adapters/web). Errors are PegasError: INVALID_INPUT (refused URL or address), LIMIT_EXCEEDED,
 * NETWORK_FAILED (network, proxy, timeout, HTTP status; `status` and `blocked` kept when the server answered),
 * NOT_FOUND (404/410), CANCELLED.
 */

/** A fetched resource. */
export interface FetchedResource {
  /** Final URL after redirects, without fragment. */
  url: string;
  status: number;
  /** Media type from Content-Type, lower case, no parameters; "" when absent (sniff the bytes). */
  mediaType: string;
  /** Charset parameter of Content-Type, lower case, if any. */
  charset?: string;
  /** Body after Content-Encoding was undone. */
  bytes: Uint8Array;
  headers: Record<string, string>;
  redirects: string[];
}

/** Fetches URLs. */
export interface Fetcher {
  fetch(url: string, signal?: AbortSignal): Promise<FetchedResource>;
}
