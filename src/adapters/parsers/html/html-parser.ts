/**
 * Web page parser: HTML bytes → the page's main content as one section. Steps: charset (html-charset.ts), DOM
 * (linkedom), self-declared metadata (page-meta.ts), consent/cookie-wall removal (consent.ts), main content by
 * Mozilla Readability, else the body without navigation chrome; text with paragraphs, fenced code and Markdown
 * tables (block-text.ts; code languages are read before Readability strips classes, code-block.ts). A page
 * with (almost) no text left is never a silent success: no section and a warning the caller acts upon.
 */
import { Readability, isProbablyReaderable } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { sanitizeText } from "../../../domain/text.ts";
import { log } from "../../../log.ts";
import type { ParseInput, ParseLimits, ParsedDocument, Parser } from "../../../ports/models/parser.ts";
import { cancellationPoint, checkAborted, checkSourceSize } from "../text/guards.ts";
import { blockText, type TextNodeLike } from "./block-text.ts";
import { markCodeLanguages, type MarkableDoc } from "./code-block.ts";
import { readsAsWall, removeConsentElements } from "./consent.ts";
import { decodeHtml } from "./html-charset.ts";
import { readPageMeta, type PageMeta } from "./page-meta.ts";

/**
 * Below this many characters of extracted text a page is looked at as possibly blocked: it is refused when its text
 * reads as a consent, bot or JavaScript wall (consent.ts `readsAsWall`) or holds fewer than {@link MIN_PAGE_WORDS}
 * words. A short page that is neither (a 165-character notice) is content; length alone never refuses it.
 */
export const MIN_PAGE_TEXT = 200;

/** Fewest words (runs of letters or digits) a short page must hold to be content rather than leftover chrome. */
export const MIN_PAGE_WORDS = 8;

/**
 * Whether the extracted `text` (trimmed) leaves the page empty or blocked: no text, or a short text (under
 * {@link MIN_PAGE_TEXT} characters) that reads as a wall or has fewer than {@link MIN_PAGE_WORDS} words.
 */
export function isBlockedText(text: string): boolean {
  if (!text) return true;
  if (text.length >= MIN_PAGE_TEXT) return false;
  return readsAsWall(text) || (text.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) < MIN_PAGE_WORDS;
}

/** The warning for an empty or blocked page; callers match on it to store a snippet instead. */
export const EMPTY_PAGE_WARNING = "page is empty or blocked (cookie wall?)";

/** Page chrome dropped by the body fallback: navigation, banners, sidebars, forms. */
const CHROME_TAGS = new Set(["nav", "header", "footer", "aside", "form", "menu"]);
const CHROME_ROLES =
  '[role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"], [role="search"], [role="menu"]';

/**
 * In-article navigation removed before extraction (Readability keeps it, as part of the article container):
 * navigation landmarks, tables of contents, and MediaWiki's "[edit]" links and navigation boxes.
 */
const CHROME_CLASSES = ["toc", "mw-editsection", "navbox", "mw-jump-link"];
const IN_ARTICLE_CHROME = `nav, [role="navigation"], #toc, ${CHROME_CLASSES.map((c) => `.${c}`).join(", ")}`;

/** linkedom's document, as far as it is used here. */
type Doc = Parameters<typeof readPageMeta>[0] &
  Parameters<typeof removeConsentElements>[0] & { body: TextNodeLike | null };
/** The DOM Document type of Readability's typings (this project compiles without the DOM lib). */
type DomDocument = Parameters<typeof isProbablyReaderable>[0];

function parseDom(html: string): Doc {
  return parseHTML(html).document as unknown as Doc;
}

/** A document or element whose matching descendants can be removed. */
type ChromeRoot = { querySelectorAll(sel: string): ArrayLike<{ remove(): void }> };

function removeAll(root: ChromeRoot, selector: string): void {
  const found = root.querySelectorAll(selector);
  for (let i = 0; i < found.length; i++) found[i].remove();
}

/** Readability's article (content as an element, not serialized HTML) or null; a throw counts as null. */
function readArticle(
  doc: Doc,
  uri: string,
): {
  text: string;
  title: string | null;
  byline: string | null;
  siteName: string | null;
  published: string | null;
  lang: string | null;
} | null {
  try {
    const article = new Readability<TextNodeLike>(doc as unknown as DomDocument, {
      serializer: (el) => el as unknown as TextNodeLike,
      // Readability strips class attributes from its result; keep those that mark chrome to prune below.
      classesToPreserve: CHROME_CLASSES,
    }).parse();
    if (!article?.content) return null;
    // Pruned from the result, not the input: removing navigation first shifts Readability's scores and can
    // make it pick a comment instead of the post.
    removeAll(article.content as unknown as ChromeRoot, IN_ARTICLE_CHROME);
    return {
      text: blockText(article.content),
      title: article.title || null,
      byline: article.byline || null,
      siteName: article.siteName || null,
      published: article.publishedTime || null,
      lang: article.lang || null,
    };
  } catch (err) {
    log.debug("readability failed; falling back to the body text", { uri, err });
    return null;
  }
}

/** Body text without chrome, from a fresh DOM (Readability mutates the one it reads). */
function bodyText(html: string): string {
  const doc = parseDom(html);
  removeConsentElements(doc);
  removeAll(doc as unknown as ChromeRoot, `${IN_ARTICLE_CHROME}, ${CHROME_ROLES}`);
  return doc.body ? blockText(doc.body, { skip: CHROME_TAGS }) : "";
}

/** Parses HTML; see {@link htmlParser}. */
async function parseHtml(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument> {
  checkAborted(input.signal, input.uri);
  checkSourceSize(input.bytes, limits, input.uri);
  const pause = cancellationPoint(input.signal, input.uri);
  const decoded = decodeHtml(input.bytes, input.charset, input.uri);
  await pause();
  const doc = parseDom(decoded.text);
  const meta = readPageMeta(doc);
  const consentRemoved = removeConsentElements(doc);
  const readerable = isProbablyReaderable(doc as unknown as DomDocument);
  markCodeLanguages(doc as unknown as MarkableDoc);
  await pause();
  const article = readArticle(doc, input.uri);
  let text = article?.text ?? "";
  let extraction = "readability";
  if (text.length < MIN_PAGE_TEXT) {
    await pause();
    const body = bodyText(decoded.text);
    if (body.length > text.length) [text, extraction] = [body, "body"];
  }
  await pause();
  const clean = sanitizeText(text, "page text");
  const warnings = [...decoded.warnings, ...clean.warnings];
  const empty = isBlockedText(clean.text.trim());
  if (empty)
    warnings.push(
      `${EMPTY_PAGE_WARNING}: ${clean.text.trim().length} characters of text after removing ${consentRemoved} consent element(s)`,
    );
  if (warnings.length) log.debug("html parser warnings", { uri: input.uri, warnings });
  const merged: PageMeta = {
    title: article?.title ?? meta.title,
    byline: article?.byline ?? meta.byline,
    siteName: article?.siteName ?? meta.siteName,
    published: article?.published ?? meta.published,
    modified: meta.modified,
    lang: article?.lang ?? meta.lang,
  };
  return {
    kind: "web",
    mediaType: (input.mediaType ?? "text/html").split(";")[0].trim().toLowerCase(),
    title: merged.title,
    sections: empty ? [] : [{ text: clean.text, locator: {} }],
    metadata: {
      byline: merged.byline,
      site: merged.siteName,
      published: merged.published,
      modified: merged.modified,
      lang: merged.lang,
      charset: decoded.charset.encoding,
      charset_source: decoded.charset.source,
      extraction: empty ? "none" : extraction,
      readerable,
      consent_elements_removed: consentRemoved,
      chars: clean.text.length,
    },
    warnings,
  };
}

/**
 * Parser for web pages (`kind: "web"`): one section `{ text, locator: {} }` with the main content (paragraphs
 * separated by blank lines), or no section and the warning {@link EMPTY_PAGE_WARNING} when the text left is empty or
 * blocked ({@link isBlockedText}: a cookie wall, a bot check, an empty page). Metadata: byline, site, published, lang,
 * charset, charset_source, extraction ("readability" | "body" | "none"), readerable, consent_elements_removed,
 * chars. @throws PegasError UNSUPPORTED_MEDIA (binary), LIMIT_EXCEEDED (maxBytes), CANCELLED.
 */
export const htmlParser: Parser = { name: "html", parse: parseHtml };
