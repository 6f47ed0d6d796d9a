/**
 * Text and Markdown parser: bytes in any charset → one section holding the whole text. The charset comes from a
 * BOM, the transport (`input.charset`), an in-file declaration, strict UTF-8, or detection (see charset.ts).
 */
import { sanitizeText } from "../../../domain/text.ts";
import { log } from "../../../log.ts";
import type { ParseInput, ParseLimits, ParsedDocument, Parser } from "../../../ports/models/parser.ts";
import { decodeText, type DeclaredCharset } from "../../../domain/charset/charset.ts";
import { checkAborted, checkSourceSize } from "./guards.ts";

/** Bytes searched for an in-file charset declaration. */
const DECLARATION_BYTES = 1024;

/**
 * `charset=` (HTML meta, Content-Type lines), `encoding=` (XML declaration, vim's `fileencoding=`) and
 * `coding:` (Emacs and PEP 263 `-*- coding: cp1251 -*-`): the declarations people put at the top of text files.
 */
const DECLARATION = /(?:charset|encoding|coding)\s*[:=]\s*["']?\s*([A-Za-z][A-Za-z0-9._:-]*)/i;

/** The charset label declared in the first KiB of `bytes`, if any (read as Latin-1: labels are ASCII). */
export function sniffTextDeclaration(bytes: Uint8Array): string | null {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, DECLARATION_BYTES));
  return DECLARATION.exec(head)?.[1] ?? null;
}

function isMarkdown(input: ParseInput): boolean {
  if (input.mediaType) return /markdown/i.test(input.mediaType);
  return /\.(md|markdown|mdown|mkd)$/i.test(input.uri.split(/[?#]/)[0]);
}

/** The first ATX level-1 heading (`# Title`) of a Markdown text, or null. */
function markdownTitle(text: string): string | null {
  for (const line of text.slice(0, 8192).split("\n")) {
    if (!/^#[ \t]/.test(line)) continue;
    // CommonMark's optional closing sequence: trailing #s preceded by a space.
    const title = line
      .slice(2)
      .trim()
      .replace(/(?:^|[ \t])#+$/, "")
      .trim();
    return title || null;
  }
  return null;
}

function mediaTypeOf(input: ParseInput): string {
  if (input.mediaType) return input.mediaType.split(";")[0].trim().toLowerCase();
  return isMarkdown(input) ? "text/markdown" : "text/plain";
}

/** Parses text/Markdown; see {@link Parser.parse}. */
async function parseText(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument> {
  checkAborted(input.signal, input.uri);
  checkSourceSize(input.bytes, limits, input.uri);
  const declared: DeclaredCharset[] = [];
  if (input.charset) declared.push({ label: input.charset, source: "transport" });
  const inFile = sniffTextDeclaration(input.bytes);
  if (inFile) declared.push({ label: inFile, source: "declaration" });
  const decoded = decodeText(input.bytes, declared, input.uri);
  checkAborted(input.signal, input.uri);
  const clean = sanitizeText(decoded.text, "text");
  const warnings = [...decoded.warnings, ...clean.warnings];
  if (warnings.length) log.debug("text parser warnings", { uri: input.uri, warnings });
  const text = clean.text;
  const sections = text.trim() ? [{ text, locator: {} }] : [];
  if (!sections.length) warnings.push("the text is empty");
  return {
    kind: "text",
    mediaType: mediaTypeOf(input),
    title: isMarkdown(input) ? markdownTitle(text) : null,
    sections,
    metadata: {
      charset: decoded.charset.encoding,
      charset_source: decoded.charset.source,
      bytes: input.bytes.byteLength,
      chars: text.length,
      lines: text ? text.split("\n").length : 0,
    },
    warnings,
  };
}

/**
 * Parser for plain text and Markdown (`kind: "text"`): one section `{ text, locator: {} }`, metadata `charset`
 * (WHATWG name), `charset_source`, `bytes`, `chars` (UTF-16 units), `lines`; title = Markdown's first `# heading`.
 * @throws PegasError UNSUPPORTED_MEDIA (binary: NULs, not UTF-16), LIMIT_EXCEEDED (maxBytes), CANCELLED.
 */
export const textParser: Parser = { name: "text", parse: parseText };
