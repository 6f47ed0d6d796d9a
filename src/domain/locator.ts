/** Where evidence sits: document kinds, citation locators, and locators as people read them. */

/** Source kinds of the data model. */
export type DocumentKind = "web" | "pdf" | "epub" | "text" | "code_repo";

/**
 * Where a piece of evidence sits in its document; every field optional. `char_*` are code-point offsets (0-based,
 * end exclusive) and `line_*` 1-based inclusive line numbers within the section (the whole text, a PDF page, an
 * EPUB chapter); `page` is 1-based; `chapter` is the chapter title, `chapter_index` its 1-based spine position
 * and `href` its path inside the EPUB.
 */
export interface Locator {
  char_start?: number;
  char_end?: number;
  line_start?: number;
  line_end?: number;
  page?: number;
  chapter?: string;
  chapter_index?: number;
  href?: string;
}

/** "page 3, lines 1–11", "chapter «Down the Rabbit-Hole» (2), line 4", "lines 12–20", "src/a.py, lines 3–9". */
export function formatLocator(loc: Locator): string {
  const parts: string[] = [];
  if (loc.href !== undefined && loc.chapter === undefined) parts.push(loc.href);
  if (loc.page !== undefined) parts.push(`page ${loc.page}`);
  if (loc.chapter !== undefined)
    parts.push(`chapter «${loc.chapter}»${loc.chapter_index !== undefined ? ` (${loc.chapter_index})` : ""}`);
  if (loc.line_start !== undefined) {
    parts.push(
      loc.line_end !== undefined && loc.line_end !== loc.line_start
        ? `lines ${loc.line_start}–${loc.line_end}`
        : `line ${loc.line_start}`,
    );
  }
  return parts.join(", ");
}
