/**
 * PDF parser (pdf.js via `unpdf`): one section per page with a `{ page }` locator, text rebuilt from the positioned
 * text items so that two-column pages read column by column, lines join into paragraphs, end-of-line hyphens
 * are resolved and ligatures expanded. Pages without text are reported ("no text layer: scanned? OCR is not
 * available"), never passed off as an empty success.
 */
import { RAISE_INPUT_BYTES } from "../../../domain/limits.ts";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { sanitizeText } from "../../../domain/text.ts";
import type { ParsedDocument, ParsedSection, ParseInput, ParseLimits, Parser } from "../../../ports/models/parser.ts";
import { layoutPage } from "./layout.ts";
import { buildVocabulary, pageText } from "./paragraphs.ts";
import { abortable, loadPdfjs, openPdf, pdfError, readInfo, type PdfDocument } from "./pdfjs.ts";
import { toRuns } from "./runs.ts";
import type { PageLayout } from "./types.ts";

/** Media type this parser produces and accepts. */
export const PDF_MEDIA_TYPE = "application/pdf";

/** Warning for pages that carry no text at all: most often a scan without an OCR layer. */
export const NO_TEXT_LAYER = "no text layer: scanned? OCR is not available";

/** A page's text is "garbled" when more than this share of its characters are private-use, U+FFFD or controls. */
const GARBLED_SHARE = 0.2;

/** What was read from the pages: a layout per page (null when the page could not be read) and why not. */
interface PagesRead {
  layouts: (PageLayout | null)[];
  failures: string[];
}

/**
 * The PDF adapter of the Parser port. `parse` returns kind `pdf`, media type `application/pdf`, the title from the
 * info dictionary (or XMP), one section per page that has text (`locator.page` 1-based), metadata `pages`,
 * `author`, `producer`, `pages_without_text` (page numbers) and `multi_column_pages`, and warnings.
 * @throws PegasError LIMIT_EXCEEDED (over `limits.maxBytes`), UNSUPPORTED_MEDIA (not a PDF, encrypted, damaged or
 * no readable page), CANCELLED (`input.signal` aborted; checked between pages).
 */
export const pdfParser: Parser = {
  name: "pdf",
  parse: parsePdf,
};

async function parsePdf(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument> {
  checkInput(input, limits);
  const started = performance.now();
  const pdfjs = await abortable(loadPdfjs(), input.signal, input.uri);
  const doc = await openPdf(pdfjs, input.bytes, input.uri, input.signal);
  try {
    const warnings: string[] = [];
    const info = await readInfo(doc).catch((err: unknown) => {
      warnings.push(`document info could not be read: ${(err as Error).message}`);
      return { title: null, author: null, producer: null, created: null, modified: null };
    });
    const read = await readPages(doc, input);
    const result = assemble(read, warnings);
    log.debug("pdf parsed", { uri: input.uri, pages: doc.numPages, ms: Math.round(performance.now() - started) });
    return {
      kind: "pdf",
      mediaType: PDF_MEDIA_TYPE,
      title: info.title,
      sections: result.sections,
      metadata: {
        pages: doc.numPages,
        author: info.author,
        producer: info.producer,
        created: info.created,
        modified: info.modified,
        ...result.metadata,
      },
      warnings: result.warnings,
    };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/** Size limit, cancellation and the `%PDF-` signature, checked before pdf.js sees the bytes. */
function checkInput(input: ParseInput, limits: ParseLimits): void {
  if (input.signal?.aborted) throw new PegasError("CANCELLED", `parsing PDF '${input.uri}' was cancelled`);
  if (input.bytes.byteLength > limits.maxBytes) {
    throw new PegasError(
      "LIMIT_EXCEEDED",
      `PDF '${input.uri}' is ${input.bytes.byteLength} bytes, over the limit max_input_bytes of ${limits.maxBytes} bytes`,
      { hint: `${RAISE_INPUT_BYTES}, or split the file` },
    );
  }
  const head = new TextDecoder("latin1").decode(input.bytes.subarray(0, 1024));
  if (!head.includes("%PDF-")) {
    throw new PegasError("UNSUPPORTED_MEDIA", `'${input.uri}' is not a PDF (no %PDF- header in its first 1024 bytes)`, {
      hint: "check the file type; ingest it with its proper kind",
    });
  }
}

/**
 * Reads every page's positioned text; a page that pdf.js cannot read becomes a failure note (damaged or truncated
 * files often keep most pages readable). @throws PegasError CANCELLED, UNSUPPORTED_MEDIA when no page is readable.
 */
async function readPages(doc: PdfDocument, input: ParseInput): Promise<PagesRead> {
  const layouts: (PageLayout | null)[] = [];
  const failures: string[] = [];
  let firstError: unknown = null;
  for (let n = 1; n <= doc.numPages; n++) {
    // pdf.js without a worker settles everything in microtasks: without this, timers, stdin and the abort of a
    // cancelled request would all wait until the last page.
    await new Promise((resolve) => setImmediate(resolve));
    if (input.signal?.aborted)
      throw new PegasError("CANCELLED", `parsing PDF '${input.uri}' was cancelled at page ${n}`);
    let page: Awaited<ReturnType<PdfDocument["getPage"]>> | null = null;
    try {
      page = await abortable(doc.getPage(n), input.signal, input.uri);
      const content = await abortable(page.getTextContent(), input.signal, input.uri);
      const { runs, rotated } = toRuns(content.items);
      layouts.push(layoutPage(runs, rotated));
    } catch (err) {
      if (err instanceof PegasError && err.code === "CANCELLED") throw err;
      firstError ??= err;
      failures.push(`page ${n} could not be read (${(err as Error)?.message ?? String(err)})`);
      layouts.push(null);
    } finally {
      page?.cleanup();
    }
  }
  if (doc.numPages === 0) throw new PegasError("UNSUPPORTED_MEDIA", `PDF '${input.uri}' has no pages`);
  if (layouts.every((l) => l === null)) throw pdfError(firstError, input.uri);
  return { layouts, failures };
}

/** Turns page layouts into sections, metadata and warnings (no text layer, unreadable or garbled pages). */
function assemble(
  read: PagesRead,
  warnings: string[],
): {
  sections: ParsedSection[];
  metadata: Record<string, unknown>;
  warnings: string[];
} {
  const vocab = buildVocabulary(read.layouts.filter((l): l is PageLayout => l !== null));
  const sections: ParsedSection[] = [];
  const empty: number[] = [];
  const garbled: number[] = [];
  const multiColumn: number[] = [];
  read.layouts.forEach((layout, i) => {
    const n = i + 1;
    if (!layout) return;
    if (layout.columns > 1) multiColumn.push(n);
    const clean = sanitizeText(pageText(layout, vocab), `page ${n}`);
    warnings.push(...clean.warnings);
    if (!/[\p{L}\p{N}]/u.test(clean.text)) empty.push(n);
    else sections.push({ text: clean.text, locator: { page: n } });
    if (isGarbled(clean.text)) garbled.push(n);
  });
  const readable = read.layouts.filter((l) => l !== null).length;
  if (empty.length === readable) warnings.unshift(NO_TEXT_LAYER);
  else if (empty.length > 0)
    warnings.unshift(`${NO_TEXT_LAYER} (no text on ${pageList(empty)} of ${read.layouts.length})`);
  if (garbled.length) {
    warnings.push(
      `text on ${pageList(garbled)} looks garbled (a font without a Unicode map?): search on it will be poor`,
    );
  }
  warnings.push(...read.failures);
  return { sections, metadata: { pages_without_text: empty, multi_column_pages: multiColumn }, warnings };
}

/** True when a large share of the characters cannot be real text (private use, U+FFFD, control characters). */
function isGarbled(text: string): boolean {
  const chars = text.replace(/\s+/g, "");
  if (chars.length < 20) return false;
  const bad = chars.match(/[\p{Co}\uFFFD\p{Cc}]/gu)?.length ?? 0;
  return bad > GARBLED_SHARE * chars.length;
}

/** "page 3" or "pages 1–3, 7" (ranges compressed, at most 20 entries). */
function pageList(pages: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    parts.push(i === j ? `${pages[i]}` : `${pages[i]}–${pages[j]}`);
    i = j;
  }
  const shown = parts.length > 20 ? [...parts.slice(0, 20), "…"] : parts;
  return `${pages.length === 1 ? "page" : "pages"} ${shown.join(", ")}`;
}
