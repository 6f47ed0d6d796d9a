/**
 * The admin page's static assets, embedded into the executable at build time (`with { type: "text" }`): the
 * stylesheet, the client script and cytoscape (ES module build) for the graph view. Served from memory with a strong
 * ETag per representation; nothing is fetched from elsewhere at run time. The Brotli and gzip representations are
 * made on first use, at the highest effort (src/platform/compress.ts), and kept for the life of the process.
 */
import { createHash } from "node:crypto";
import cytoscape from "cytoscape/dist/cytoscape.esm.min.mjs" with { type: "text" };
import { COMPRESS_MIN_BYTES, type Encoding, compressBytes } from "../platform/compress.ts";
import client from "./client.js" with { type: "text" };
import css from "./ui.css" with { type: "text" };

/** One representation of an asset: its bytes, the content coding (null = identity) and its strong ETag. */
export interface AssetVariant {
  body: Uint8Array<ArrayBuffer>;
  encoding: Encoding | null;
  etag: string;
}

/** An embedded asset: its bytes as text, media type and ETag (of the identity representation). */
export interface Asset {
  body: string;
  type: string;
  etag: string;
  /**
   * The representation to send for a chosen encoding (null = identity; also identity for an asset smaller than
   * {@link COMPRESS_MIN_BYTES}); the compressed one is made on the first call and shared by later and concurrent
   * calls. Its ETag is the identity one with `-br` / `-gzip` inside the quotes, so that no two representations share
   * a strong ETag (RFC 9110 §8.8.3).
   */
  variant(encoding: Encoding | null): Promise<AssetVariant>;
}

function asset(body: string, type: string): Asset {
  const tag = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  const identity: AssetVariant = { body: new TextEncoder().encode(body), encoding: null, etag: `"${tag}"` };
  const made = new Map<Encoding, Promise<AssetVariant>>();
  return {
    body,
    type,
    etag: identity.etag,
    variant(encoding) {
      if (encoding === null || identity.body.byteLength < COMPRESS_MIN_BYTES) return Promise.resolve(identity);
      let v = made.get(encoding);
      if (!v) {
        v = compressBytes(identity.body, encoding, "best").then((bytes) => ({
          body: bytes,
          encoding,
          etag: `"${tag}-${encoding}"`,
        }));
        v.catch(() => made.delete(encoding)); // a failure is not kept: the next request tries again
        made.set(encoding, v);
      }
      return v;
    },
  };
}

/**
 * True when an If-None-Match header value names `etag` (weak comparison, as RFC 9110 §13.1.2 asks: `W/` is ignored),
 * or is `*`; false when absent.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}

/** Assets by file name under `<base>/assets/`. */
export const ASSETS: ReadonlyMap<string, Asset> = new Map([
  ["ui.css", asset(css, "text/css; charset=utf-8")],
  ["client.js", asset(client, "text/javascript; charset=utf-8")],
  ["cytoscape.mjs", asset(cytoscape, "text/javascript; charset=utf-8")],
]);

/**
 * Starts making every asset's `encoding` representation in the background (no-op once made), so that the browser's
 * first asset requests after a page need not wait for Brotli's highest effort (≈ 0.6 s for cytoscape, off the event
 * loop). Never throws; a failure is retried by the asset's own request.
 */
export function warmAssets(encoding: Encoding | null): void {
  if (encoding === null) return;
  for (const a of ASSETS.values()) a.variant(encoding).catch(() => {});
}
