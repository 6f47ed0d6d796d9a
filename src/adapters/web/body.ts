/**
 * Reading a response body under limits: at most `maxBytes` on the wire and at most `maxBytes` after decoding
 * (gzip, deflate, br), so a small compressed body cannot expand into gigabytes (a zip bomb via Content-Encoding).
 * The wire phase is bounded by `bodyTimeoutMs` and the caller's signal; the decode phase by its input size.
 */
import type { IncomingMessage } from "node:http";
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from "node:zlib";
import type { Transform } from "node:stream";
import { RAISE_INPUT_BYTES } from "../../domain/limits.ts";
import { PegasError } from "../../errors.ts";
import { cancelledError, displayUrl, limitError, networkError, timeoutError } from "./errors.ts";

/** Limits and context of one body read. */
export interface BodyLimits {
  /** Request URL, for messages. */
  url: string;
  /** Largest body in bytes, on the wire and decoded. */
  maxBytes: number;
  /** Time in ms the whole body may take once the headers are in. */
  bodyTimeoutMs: number;
  signal?: AbortSignal;
  /** The proxy as shown, if one carries the request (for error messages). */
  proxy?: string;
}

const CODINGS = new Set(["gzip", "x-gzip", "deflate", "br"]);

function tooBig(limits: BodyLimits, what: string): PegasError {
  return limitError(
    limits.url,
    `${what} exceeds the limit max_input_bytes of ${limits.maxBytes} bytes`,
    `${RAISE_INPUT_BYTES}, or fetch a smaller resource`,
  );
}

/**
 * The content coding to undo: `""` for none or identity, else one of gzip/x-gzip/deflate/br.
 * @throws PegasError UNSUPPORTED_MEDIA for an unknown coding or more than one.
 */
export function contentCoding(url: string, header: string | undefined): string {
  const list = (header ?? "")
    .toLowerCase()
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s && s !== "identity");
  if (list.length === 0) return "";
  if (list.length === 1 && CODINGS.has(list[0])) return list[0];
  throw new PegasError(
    "UNSUPPORTED_MEDIA",
    `'${displayUrl(url)}' was sent with Content-Encoding '${list.join(", ")}'`,
    {
      hint: "only gzip, deflate and br are decoded; the server ignored our Accept-Encoding",
    },
  );
}

/**
 * Reads the raw (still encoded) body of `res`.
 * @throws PegasError LIMIT_EXCEEDED (Content-Length or streamed bytes over `maxBytes`), CANCELLED, or a
 * WebFetchError for a timeout or a connection that closed before the body was complete.
 */
export function readRawBody(res: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    res.destroy();
    return Promise.reject(tooBig(limits, `Content-Length ${declared}`));
  }
  const { url, signal } = limits;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (err) {
        res.destroy();
        reject(err);
      } else resolve(body as Buffer);
    };
    const timer = setTimeout(() => finish(timeoutError(url, "body", limits.bodyTimeoutMs)), limits.bodyTimeoutMs);
    const onAbort = () => finish(cancelledError(url, signal?.reason));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    res.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return finish(tooBig(limits, "the body"));
      chunks.push(chunk);
    });
    // A body cut short must not pass as a whole one: that would be silent loss.
    const cut = () =>
      finish(networkError(url, new Error("the connection closed before the body was complete"), limits.proxy));
    res.on("end", () => (res.complete === false ? cut() : finish(null, Buffer.concat(chunks, size))));
    res.on("error", (e) =>
      finish(
        networkError(url, new Error(`the connection broke during the body (${e.message})`, { cause: e }), limits.proxy),
      ),
    );
    res.on("close", () => setImmediate(() => (settled ? undefined : cut())));
  });
}

function decoder(coding: string, raw: Buffer): Transform {
  if (coding === "br") return createBrotliDecompress();
  if (coding !== "deflate") return createGunzip();
  // "deflate" should be zlib-wrapped (RFC 9110 §8.4.1.2), but servers send raw DEFLATE too: look at the header.
  const zlibWrapped = raw.length >= 2 && (raw[0] & 0x0f) === 8 && ((raw[0] << 8) | raw[1]) % 31 === 0;
  return zlibWrapped ? createInflate() : createInflateRaw();
}

/**
 * Undoes the content coding of `raw`, stopping as soon as the output exceeds `maxBytes`.
 * @throws PegasError LIMIT_EXCEEDED for too much output, UNSUPPORTED_MEDIA for a corrupt or truncated stream.
 */
export function decodeBody(raw: Buffer, coding: string, limits: BodyLimits): Promise<Uint8Array> {
  if (!coding) return Promise.resolve(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
  return new Promise((resolve, reject) => {
    const d = decoder(coding, raw);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      if (err) {
        d.destroy();
        reject(err);
      } else {
        const out = Buffer.concat(chunks, size);
        resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
      }
    };
    d.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return finish(tooBig(limits, `the ${coding}-decoded body`));
      chunks.push(chunk);
    });
    d.on("end", () => finish(null));
    d.on("error", (e) =>
      finish(
        new PegasError(
          "UNSUPPORTED_MEDIA",
          `the ${coding} body of '${displayUrl(limits.url)}' is corrupt or truncated`,
          {
            hint: "the server sent a broken response; try again later",
            cause: e,
          },
        ),
      ),
    );
    d.end(raw);
  });
}
