/**
 * Chooses the parser for a source: sniffed bytes first (a PDF or EPUB is what its bytes say, whatever its name),
 * then the media type (HTTP Content-Type or extension), then the extension; everything else is text, whose parser
 * refuses binary content.
 */
import { extname } from "node:path";
import type { Parser } from "../../ports/models/parser.ts";
import { epubParser } from "./epub/epub-parser.ts";
import { htmlParser } from "./html/html-parser.ts";
import { pdfParser } from "./pdf/index.ts";
import { textParser } from "./text/text-parser.ts";
import { EXTENSION_FORMATS, type SourceFormat, SUPPORTED_EXTENSIONS } from "./formats.ts";

/** What selection looks at. */
export interface ParserHint {
  bytes: Uint8Array;
  /** Media type from the HTTP header, if any (lower case, no parameters). */
  mediaType?: string;
  /** File name or URL path, for its extension. */
  name?: string;
}

/** The parser of each format. */
const PARSERS: Record<SourceFormat, Parser> = { pdf: pdfParser, epub: epubParser, html: htmlParser, text: textParser };

export { SUPPORTED_EXTENSIONS };

const MEDIA_TYPES: Record<string, Parser> = {
  "application/pdf": pdfParser,
  "application/epub+zip": epubParser,
  "text/html": htmlParser,
  "application/xhtml+xml": htmlParser,
  "text/plain": textParser,
  "text/markdown": textParser,
};

function startsWith(bytes: Uint8Array, ascii: string, at = 0): boolean {
  if (bytes.length < at + ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (bytes[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

function sniff(bytes: Uint8Array): Parser | null {
  // PDF: "%PDF-" within the first KiB (some writers put junk before it).
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (head.includes("%PDF-")) return pdfParser;
  // EPUB (OCF): a zip whose first entry is the stored file "mimetype" = application/epub+zip.
  if (startsWith(bytes, "PK\u0003\u0004") && startsWith(bytes, "mimetypeapplication/epub+zip", 30)) return epubParser;
  const lead = head
    .replace(/^\ufeff?\s+/, "")
    .slice(0, 200)
    .toLowerCase();
  if (lead.startsWith("<!doctype html") || lead.startsWith("<html")) return htmlParser;
  return null;
}

/** The parser for a source (see module doc). */
export function selectParser(hint: ParserHint): Parser {
  const sniffed = sniff(hint.bytes);
  if (sniffed) return sniffed;
  // Own keys only: a server's media type "constructor" must not find Object.prototype's.
  const byType = hint.mediaType && Object.hasOwn(MEDIA_TYPES, hint.mediaType) ? MEDIA_TYPES[hint.mediaType] : undefined;
  if (byType) return byType;
  const path =
    hint.name && /^[a-z][a-z0-9+.-]*:\/\//i.test(hint.name) ? new URL(hint.name).pathname : (hint.name ?? "");
  const ext = extname(path).toLowerCase();
  return Object.hasOwn(EXTENSION_FORMATS, ext) ? PARSERS[EXTENSION_FORMATS[ext]] : textParser;
}
