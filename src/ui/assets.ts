/**
 * The admin page's static assets, embedded into the executable at build time (`with { type: "text" }`): the
 * stylesheet, the client script and cytoscape (ES module build) for the graph view. Served from memory with a strong
 * ETag; nothing is fetched from elsewhere at run time.
 */
import { createHash } from "node:crypto";
import cytoscape from "cytoscape/dist/cytoscape.esm.min.mjs" with { type: "text" };
import client from "./client.js" with { type: "text" };
import css from "./ui.css" with { type: "text" };

/** An embedded asset: its bytes as text, media type and ETag. */
export interface Asset {
  body: string;
  type: string;
  etag: string;
}

const asset = (body: string, type: string): Asset => ({ body, type, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` });

/** Assets by file name under `<base>/assets/`. */
export const ASSETS: ReadonlyMap<string, Asset> = new Map([
  ["ui.css", asset(css, "text/css; charset=utf-8")],
  ["client.js", asset(client, "text/javascript; charset=utf-8")],
  ["cytoscape.mjs", asset(cytoscape, "text/javascript; charset=utf-8")],
]);
