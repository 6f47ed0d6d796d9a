/**
 * Compression of whole text answers (HTML, CSS, JavaScript, JSON, SVG, Prometheus text) for clients that accept it:
 * Brotli (`br`) or gzip, chosen from Accept-Encoding by q-value (Brotli when both rank alike), through node:zlib's
 * asynchronous functions (they run off the event loop, in Bun as in Node). Answers of a compressible type carry
 * `Vary: Accept-Encoding` whether compressed or not; answers under {@link COMPRESS_MIN_BYTES}, of other types, already
 * encoded, marked `Cache-Control: no-transform`, without a body, or with status 204/206/304 pass unchanged.
 *
 * Why not Hono's `hono/compress` (4.13): it offers gzip and deflate only (the Accept-Encoding token is handed to
 * CompressionStream as its format, and Bun's is called "brotli", not "br"), and it applies its size threshold only
 * when a Content-Length header is present, which `c.html()` / `c.json()` never set, so a 9-byte page was gzipped.
 * Its content-type rule is reused here ({@link COMPRESSIBLE_CONTENT_TYPE_REGEX}: every text type but
 * text/event-stream, JSON, JavaScript, `+xml` such as SVG, …).
 *
 * The middleware reads the whole body before compressing it: mount it only over routes whose answers are complete
 * bodies (the admin page, /metrics, /readyz), never over /mcp, whose Streamable HTTP answers are event streams that
 * must reach the client frame by frame. An event stream (text/event-stream) or an answer marked no-transform is left
 * alone anyway.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { parseAccept } from "hono/utils/accept";

/** A content coding this server produces (the Accept-Encoding / Content-Encoding token). */
export type Encoding = "br" | "gzip";

/**
 * How hard to compress: `fast` for answers made per request (Brotli quality 5, gzip level 6: ≈ 1 ms and 0.5 ms for a
 * 30 KB page), `best` for embedded assets compressed once and kept (Brotli quality 11, gzip level 9: ≈ 0.6 s for
 * cytoscape's 441 KB, once per process, off the event loop).
 */
export type Effort = "fast" | "best";

/** Bodies smaller than this (bytes) are sent as they are: the framing would eat most of the gain. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const BROTLI_QUALITY: Record<Effort, number> = { fast: 5, best: 11 };
const GZIP_LEVEL: Record<Effort, number> = { fast: 6, best: 9 };

/** Encodings in order of preference when the client ranks them alike. */
const PREFERENCE: readonly Encoding[] = ["br", "gzip"];

/**
 * The encoding to answer with for an Accept-Encoding header value: the supported coding with the highest q-value
 * (`*` stands for codings not named; q=0 refuses), Brotli before gzip on a tie; null for none (identity), also when
 * the header is absent or empty.
 */
export function chooseEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepts = parseAccept(acceptEncoding);
  const wildcard = accepts.find((a) => a.type === "*")?.q ?? 0;
  let best: { enc: Encoding; q: number } | null = null;
  for (const enc of PREFERENCE) {
    const named = accepts.find((a) => a.type.toLowerCase() === enc);
    const q = named ? named.q : wildcard;
    if (q > 0 && (!best || q > best.q)) best = { enc, q };
  }
  return best?.enc ?? null;
}

/** True for a Content-Type worth compressing (text but not an event stream, JSON, JavaScript, SVG, …). */
export function isCompressible(contentType: string | null | undefined): boolean {
  return Boolean(contentType) && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType as string);
}

/** `bytes` compressed with `enc` at `effort` (zlib's thread pool; the event loop stays free). */
export async function compressBytes(
  bytes: Uint8Array,
  enc: Encoding,
  effort: Effort,
): Promise<Uint8Array<ArrayBuffer>> {
  if (enc === "gzip") return new Uint8Array(await gzip(bytes, { level: GZIP_LEVEL[effort] }));
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT } = zlib.constants;
  const params = {
    [BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
    [BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT,
  };
  return new Uint8Array(await brotli(bytes, { params }));
}

/** `vary` with Accept-Encoding added (unless it is already named, or `*`). */
export function varyWithEncoding(vary: string | null): string {
  if (!vary) return "Accept-Encoding";
  if (vary.trim() === "*" || /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) return vary;
  return `${vary}, Accept-Encoding`;
}

const NO_TRANSFORM = /(^|,)\s*no-transform\s*(,|$)/i;
const UNTOUCHED_STATUS = new Set([204, 206, 304]);

/**
 * Hono middleware compressing the answers of the routes below it (see the module doc for which, and why only whole
 * bodies). A HEAD request is answered as its GET would be (Content-Encoding, Vary, and the Content-Length of the
 * body sent, compressed or not: {@link declareHeadLength}), without the body. A strong ETag becomes weak when the body
 * is compressed (the bytes differ from the identity representation's).
 */
export function compressText(opts: { minBytes?: number } = {}): MiddlewareHandler {
  const minBytes = opts.minBytes ?? COMPRESS_MIN_BYTES;
  return async function compressTextMiddleware(c, next) {
    await next();
    await compressAnswer(c, minBytes);
    if (c.req.method === "HEAD") await declareHeadLength(c);
  };
}

/** Compresses `c.res` in place when the request and the answer allow it (the rules of {@link compressText}). */
async function compressAnswer(c: Context, minBytes: number): Promise<void> {
  const res = c.res;
  if (!res.body || UNTOUCHED_STATUS.has(res.status) || !isCompressible(res.headers.get("content-type"))) return;
  if (res.headers.has("content-encoding") || NO_TRANSFORM.test(res.headers.get("cache-control") ?? "")) return;
  c.header("vary", varyWithEncoding(res.headers.get("vary")));
  const enc = chooseEncoding(c.req.header("accept-encoding"));
  if (!enc) return;
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (declared < minBytes) return;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const body = bytes.byteLength < minBytes ? null : await compressBytes(bytes, enc, "fast");
  // The body was read, so a new answer carries the bytes (Hono's `c.res =` keeps the old answer's headers).
  c.res = new Response(body ?? bytes, res);
  if (!body) return;
  const h = c.res.headers;
  h.set("content-encoding", enc);
  // Set explicitly so that a HEAD answer (whose body the framework drops) still tells the GET's length.
  h.set("content-length", String(body.byteLength));
  const etag = h.get("etag");
  if (etag && !etag.startsWith("W/")) h.set("etag", `W/${etag}`);
}

const EVENT_STREAM = /^\s*text\/event-stream\s*(;|$)/i;

/**
 * For a HEAD request, sets the Content-Length of `c.res` (the answer its GET would send) to the byte length of its
 * body when it has a body and no Content-Length yet; event streams (never ending) and 204/206/304 answers are left
 * alone. Why: Hono answers HEAD by running the GET route and then dropping the body (`new Response(null, res)`), and
 * Bun's listener sends `content-length: 0` for a body-less answer without the header, where RFC 9110 §9.3.2 wants
 * the GET's length (or none). Reads the whole body: use only over routes whose answers are complete bodies.
 */
export async function declareHeadLength(c: Context): Promise<void> {
  const res = c.res;
  if (!res.body || res.headers.has("content-length") || UNTOUCHED_STATUS.has(res.status)) return;
  if (EVENT_STREAM.test(res.headers.get("content-type") ?? "")) return;
  const bytes = new Uint8Array(await res.arrayBuffer());
  c.res = new Response(bytes, res);
  c.res.headers.set("content-length", String(bytes.byteLength));
}

/**
 * Hono middleware giving every HEAD answer of the routes below it the GET's Content-Length ({@link declareHeadLength});
 * GET and other methods pass untouched. Mount it outermost, over routes whose answers are complete bodies (never /mcp).
 */
export function headLength(): MiddlewareHandler {
  return async function headLengthMiddleware(c, next) {
    await next();
    if (c.req.method === "HEAD") await declareHeadLength(c);
  };
}
