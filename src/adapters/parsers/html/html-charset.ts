/**
 * Charset of an HTML document, after the WHATWG HTML Standard §13.2.3 "Determining the character encoding":
 * BOM, then the transport layer (the HTTP Content-Type charset), then a `<meta charset>` or
 * `<meta http-equiv="Content-Type" content="…; charset=…">` found by prescanning the head of the bytes, then
 * (where browsers fall back to a locale default) valid UTF-8 or detection — see ../text/charset.ts.
 */
import { decodeText, type DeclaredCharset, type Decoded } from "../../../domain/charset/charset.ts";

/** Bytes prescanned for a meta declaration (the standard says 1024; real pages put long heads first). */
const PRESCAN_BYTES = 2048;

const META = /<meta\b[^>]*>/gi;
const META_CHARSET = /\bcharset\s*=\s*["']?\s*([^\s"';/>]+)/i;
const HTTP_EQUIV = /\bhttp-equiv\s*=\s*["']?\s*content-type\b/i;
const CONTENT = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/** The charset label declared by a meta element in the first 2 KiB, or null (comments are skipped). */
export function prescanMetaCharset(bytes: Uint8Array): string | null {
  // Latin-1 view: every byte maps to one character, and the markup of a declaration is ASCII.
  const head = new TextDecoder("windows-1252")
    .decode(bytes.subarray(0, PRESCAN_BYTES))
    .replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  for (const [tag] of head.matchAll(META)) {
    if (HTTP_EQUIV.test(tag)) {
      const c = CONTENT.exec(tag);
      const label = c ? META_CHARSET.exec(c[1] ?? c[2] ?? c[3] ?? "")?.[1] : undefined;
      if (label) return label;
      continue;
    }
    // A content attribute of another meta (e.g. a description mentioning "charset=") declares nothing.
    const direct = META_CHARSET.exec(tag.replace(CONTENT, ""));
    if (direct) return direct[1];
  }
  return null;
}

/**
 * Decodes HTML bytes: BOM > `transport` charset > meta prescan > valid UTF-8 > detection. A declared charset
 * contradicted by valid non-ASCII UTF-8 bytes is overridden with a warning (see decodeText).
 * @throws PegasError UNSUPPORTED_MEDIA for binary bytes.
 */
export function decodeHtml(bytes: Uint8Array, transport: string | undefined, uri: string): Decoded {
  const declared: DeclaredCharset[] = [];
  if (transport) declared.push({ label: transport, source: "transport" });
  const meta = prescanMetaCharset(bytes);
  if (meta) declared.push({ label: meta, source: "declaration" });
  return decodeText(bytes, declared, uri);
}
