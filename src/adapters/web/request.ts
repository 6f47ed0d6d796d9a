/**
 * One HTTP GET over `node:http`/`node:https` up to its response headers, with a deadline and the caller's
 * AbortSignal. The agent (direct or proxy) and the lookup (pinned or refusing) are chosen by the caller, so this
 * module cannot open a connection the guard has not approved.
 */
import type { Agent, IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { cancelledError, networkError, timeoutError } from "./errors.ts";
import type { RequestLookup } from "./resolve.ts";

/** What one request needs. */
export interface HeadRequest {
  url: URL;
  agent: Agent;
  lookup: RequestLookup;
  headers: Record<string, string>;
  /** Absolute deadline (ms since epoch) for connect + response headers. */
  deadline: number;
  /** The configured per-request timeout in ms, for the message. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Proxy as shown, when one carries the request. */
  proxy?: string;
  /** Extra trusted CA certificates (PEM) for https. */
  ca?: string | Uint8Array;
}

/**
 * Sends the GET and resolves with the response once its headers are in; the body is left unread.
 * @throws WebFetchError (timeout, network, proxy, tls) or PegasError CANCELLED; the request is destroyed first.
 */
export function requestHead(r: HeadRequest): Promise<IncomingMessage> {
  const href = r.url.href;
  return new Promise((resolve, reject) => {
    const send = r.url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(r.url, {
      method: "GET",
      headers: r.headers,
      agent: r.agent,
      lookup: r.lookup as never,
      ...(r.ca ? { ca: typeof r.ca === "string" ? r.ca : Buffer.from(r.ca) } : {}),
    });
    let settled = false;
    const finish = (err: Error | null, res?: IncomingMessage) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      r.signal?.removeEventListener("abort", onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(res as IncomingMessage);
    };
    const timer = setTimeout(
      () => finish(timeoutError(href, "headers", r.timeoutMs)),
      Math.max(0, r.deadline - Date.now()),
    );
    const onAbort = () => finish(cancelledError(href, r.signal?.reason));
    // Errors after settling (e.g. from destroy) still need a listener, or they would crash the process.
    req.on("error", (e) => finish(networkError(href, e, r.proxy)));
    req.on("response", (res) => finish(null, res));
    if (r.signal?.aborted) return onAbort();
    r.signal?.addEventListener("abort", onAbort, { once: true });
    req.end();
  });
}

/**
 * Races `work` against the deadline and the signal (for the DNS lookup before a direct request).
 * @throws WebFetchError timeout, PegasError CANCELLED, or what `work` throws.
 */
export function withDeadline<T>(
  work: Promise<T>,
  href: string,
  deadline: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const timer = setTimeout(
      () => {
        done();
        reject(timeoutError(href, "headers", timeoutMs));
      },
      Math.max(0, deadline - Date.now()),
    );
    const onAbort = () => {
      done();
      reject(cancelledError(href, signal?.reason));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => (done(), resolve(v)),
      (e) => (done(), reject(e)),
    );
  });
}
