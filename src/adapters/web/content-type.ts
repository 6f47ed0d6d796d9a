/**
 * The Content-Type header (RFC 9110 §8.3): media type and charset parameter. Only the header is read here; a
 * charset declared inside the document (HTML meta, XML declaration, BOM) is the parser's business.
 */

/** Media type in lower case without parameters (`""` when absent or malformed) and the charset, if declared. */
export interface ContentType {
  mediaType: string;
  charset?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Parses a Content-Type value, e.g. `text/html; Charset="Windows-1251"` → `{ mediaType: "text/html",
 * charset: "windows-1251" }`. An empty or malformed type gives `mediaType: ""` so the caller sniffs the bytes.
 */
export function parseContentType(value: string | undefined): ContentType {
  if (!value) return { mediaType: "" };
  const [type, ...params] = value.split(";");
  const mediaType = type.trim().toLowerCase();
  let charset: string | undefined;
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const v = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .trim()
      .toLowerCase();
    if (v) charset = v;
    break;
  }
  return { mediaType: TOKEN.test(mediaType) ? mediaType : "", charset };
}
