/**
 * XHTML content documents → text. EPUB content documents are XHTML (EPUB 3.3 §6.1) but in practice often
 * sloppy, so they are parsed with linkedom's lenient HTML parser rather than a strict XML one: named HTML
 * entities (`&nbsp;`, `&mdash;`) then decode, and a stray `&` does not lose the rest of the file. XML's
 * self-closing form of non-void elements (`<title/>`, `<div/>`, `<a id="p4"/>`) means "empty" in XHTML but
 * "open" in HTML, so it is expanded to an explicit end tag first.
 */
import { parseHTML } from "linkedom";
import { blockText, type TextNodeLike } from "../html/block-text.ts";
import { decodeText, type DeclaredCharset } from "../../../domain/charset/charset.ts";
import { sniffTextDeclaration } from "../text/text-parser.ts";

/** HTML void elements (HTML Living Standard §13.1.2): self-closing is their normal form. */
const VOID = new Set("area base br col embed hr img input link meta param source track wbr".split(" "));

/** Longest start tag considered (attributes included); a longer one is left as it is. */
const MAX_TAG = 4096;

const TAG_NAME = /^<([A-Za-z][\w:.-]*)/;

/**
 * Rewrites `<x …/>` into `<x …></x>` for every non-void element. A linear scan pairing each `/>` with the `<` before it
 * (at most {@link MAX_TAG} apart), not a regular expression: attribute-list patterns backtrack quadratically on
 * hostile markup.
 */
export function expandSelfClosing(xhtml: string): string {
  let out = "";
  let done = 0;
  let lastLt = -1;
  let scanned = 0;
  for (let end = xhtml.indexOf("/>"); end !== -1; end = xhtml.indexOf("/>", end + 2)) {
    // Each character is scanned once: the newest "<" before `end` is either new since the last "/>" or lastLt.
    for (let i = end - 1; i >= scanned; i--) {
      if (xhtml.charCodeAt(i) === 0x3c /* < */) {
        lastLt = i;
        break;
      }
    }
    scanned = end;
    const start = lastLt;
    if (start < done || end - start > MAX_TAG) continue;
    const tag = xhtml.slice(start, end);
    const name = TAG_NAME.exec(tag)?.[1];
    // Not a start tag (comment, text "a/>b"), a void element, or a ">" before the "/>" (a quoted attribute value).
    if (!name || VOID.has(name.toLowerCase()) || tag.includes(">")) continue;
    out += `${xhtml.slice(done, end)}></${name}>`;
    done = end + 2;
  }
  return done === 0 ? xhtml : out + xhtml.slice(done);
}

/** Element shape needed from linkedom's document. */
interface DocLike {
  body: TextNodeLike | null;
  documentElement: TextNodeLike | null;
  querySelector(sel: string): { textContent: string | null } | null;
  querySelectorAll(sel: string): ArrayLike<{ textContent: string | null; getAttribute(n: string): string | null }>;
}

/** Decodes an XHTML file (BOM, XML declaration or meta charset, else UTF-8 / detection) and parses it. */
export function parseXhtml(bytes: Uint8Array, what: string): { document: DocLike; warnings: string[] } {
  const declared: DeclaredCharset[] = [];
  const label = sniffTextDeclaration(bytes);
  if (label) declared.push({ label, source: "declaration" });
  const { text, warnings } = decodeText(bytes, declared, what, { allowNul: true });
  const { document } = parseHTML(expandSelfClosing(text)) as unknown as { document: DocLike };
  return { document, warnings: warnings.map((w) => `${what}: ${w}`) };
}

/** Body text of a chapter (blocks separated by blank lines) and its first heading, if any. */
export function chapterText(document: DocLike): { text: string; heading: string | null } {
  // linkedom's `body` getter throws on a document without a root element (e.g. an empty file).
  const root = document.documentElement ? (document.body ?? document.documentElement) : null;
  const text = root ? blockText(root) : "";
  const h = document.querySelector("h1, h2, h3, h4, h5, h6");
  const heading = (h?.textContent ?? "").replace(/\s+/g, " ").trim() || null;
  return { text, heading };
}
