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
  /** HTTP status: 2xx, or 304 for a conditional request whose stored copy is current. */
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

/** Validators of a stored copy for a conditional GET (RFC 9110 §13.1); absent fields are not sent. */
export interface ConditionalRequest {
  /** The stored ETag, sent as If-None-Match. */
  etag?: string;
  /** The stored Last-Modified (an HTTP date), sent as If-Modified-Since. */
  lastModified?: string;
}

/** Fetches URLs. */
export interface Fetcher {
  /** GETs `url`; with `conditional` validators a 304 answer resolves as status 304 with no bytes. */
  fetch(url: string, signal?: AbortSignal, conditional?: ConditionalRequest): Promise<FetchedResource>;
}
