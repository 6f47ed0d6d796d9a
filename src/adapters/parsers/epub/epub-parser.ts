/**
 * EPUB 2 and 3 parser: one section per spine item that has text, in spine (reading) order, with chapter
 * locators; every spine item that could not be read is named in a warning and counted against the spine.
 * Specs: EPUB 3.3 (OCF container, package document, navigation document), OPF 2.0.1 and NCX for EPUB 2.
 */
import { sanitizeText } from "../../../domain/text.ts";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import type { ParseInput, ParseLimits, ParsedDocument, ParsedSection, Parser } from "../../../ports/models/parser.ts";
import { cancellationPoint, checkAborted, checkSourceSize } from "../text/guards.ts";
import { chapterText, parseXhtml } from "./chapter.ts";
import {
  encryptedPaths,
  readPackage,
  rootfilePath,
  type ManifestItem,
  type PackageInfo,
  type SpineItem,
} from "./opf.ts";
import { navTitles, ncxTitles } from "./toc.ts";
import { SafeZip } from "./zip.ts";

const TEXT_TYPES = new Set(["application/xhtml+xml", "text/html", "application/xml", "text/xml", ""]);

/** Shared state of one parse. */
interface Book {
  zip: SafeZip;
  uri: string;
  pkg: PackageInfo;
  titles: Map<string, string>;
  tocSource: "nav" | "ncx" | "none";
  encrypted: Set<string>;
  lowerNames: Map<string, string>;
}

/** Outcome of one spine item: a section, no text (image-only), or a failure to name in a warning. */
type ItemResult =
  | { section: ParsedSection; fromToc: boolean; warnings: string[] }
  | { empty: string }
  | { failure: string };

function unsupported(uri: string, why: string): PegasError {
  return new PegasError("UNSUPPORTED_MEDIA", `'${uri}' is not a readable EPUB: ${why}`, {
    hint: "check that the file is a complete EPUB 2 or 3 (a ZIP with META-INF/container.xml and an OPF package)",
  });
}

/** Inflates an entry or rethrows only limit errors; other failures become `null` plus a reason. */
function tryRead(zip: SafeZip, path: string): { bytes: Uint8Array } | { error: string } {
  try {
    return { bytes: zip.read(path) };
  } catch (err) {
    if (err instanceof PegasError) throw err;
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function openPackage(zip: SafeZip, uri: string): PackageInfo {
  if (!zip.entry("META-INF/container.xml")) throw unsupported(uri, "no META-INF/container.xml");
  const container = tryRead(zip, "META-INF/container.xml");
  if ("error" in container) throw unsupported(uri, `META-INF/container.xml: ${container.error}`);
  const opfPath = rootfilePath(new TextDecoder().decode(container.bytes));
  if (!opfPath) throw unsupported(uri, "META-INF/container.xml names no rootfile (OPF package)");
  if (!zip.entry(opfPath)) throw unsupported(uri, `the OPF package '${opfPath}' named in container.xml is missing`);
  const opf = tryRead(zip, opfPath);
  if ("error" in opf) throw unsupported(uri, `the OPF package '${opfPath}': ${opf.error}`);
  const pkg = readPackage(new TextDecoder().decode(opf.bytes), opfPath);
  if (!pkg) throw unsupported(uri, `'${opfPath}' has no <package> element`);
  if (!pkg.spine.length) throw unsupported(uri, `'${opfPath}' has an empty spine (no reading order)`);
  return pkg;
}

/** The ZIP entry name of a manifest item: decoded path, raw path, then a case-insensitive match. */
function entryName(book: Book, item: ManifestItem): string | null {
  for (const p of [item.path, item.rawPath]) if (p && book.zip.entry(p)) return p;
  return item.path ? (book.lowerNames.get(item.path.toLowerCase()) ?? null) : null;
}

/** Chapter titles from the EPUB 3 nav document, else (absent or unreadable) the EPUB 2 NCX, else none. */
function loadTitles(book: Book, warnings: string[]): void {
  for (const [toc, source] of [
    [book.pkg.nav, "nav"],
    [book.pkg.ncx, "ncx"],
  ] as const) {
    if (!toc) continue;
    const name = entryName(book, toc);
    const read = name ? tryRead(book.zip, name) : { error: "missing from the archive" };
    if ("error" in read) {
      warnings.push(`table of contents '${toc.path ?? toc.href}' is unreadable (${read.error})`);
      continue;
    }
    book.titles =
      source === "nav" ? navTitles(read.bytes, name!) : ncxTitles(new TextDecoder().decode(read.bytes), name!);
    book.tocSource = source;
    return;
  }
}

function readItem(book: Book, s: SpineItem, index: number): ItemResult {
  const label = `spine item ${index} ('${s.item?.href ?? s.idref}')`;
  if (!s.item) return { failure: `${label}: no manifest item with id '${s.idref}'` };
  const name = entryName(book, s.item);
  if (!name) return { failure: `${label}: file '${s.item.path ?? s.item.href}' is missing from the archive` };
  if (book.encrypted.has(name)) return { failure: `${label}: encrypted (DRM), cannot be read` };
  if (s.item.mediaType.startsWith("image/")) return { empty: name };
  if (!TEXT_TYPES.has(s.item.mediaType)) return { failure: `${label}: media type '${s.item.mediaType}' is not XHTML` };
  const read = tryRead(book.zip, name);
  if ("error" in read) return { failure: `${label}: unreadable (${read.error})` };
  let parsed: { text: string; heading: string | null; warnings: string[] };
  try {
    const { document, warnings } = parseXhtml(read.bytes, name);
    parsed = { ...chapterText(document), warnings };
  } catch (err) {
    if (err instanceof PegasError && err.code !== "UNSUPPORTED_MEDIA") throw err;
    return { failure: `${label}: unreadable XHTML (${err instanceof Error ? err.message : String(err)})` };
  }
  const { text, heading, warnings } = parsed;
  if (!text.trim()) return { empty: name };
  const clean = sanitizeText(text, `chapter ${index} (${name})`);
  const tocTitle = book.titles.get(name);
  const locator = { chapter: tocTitle ?? heading ?? "", chapter_index: index, href: name };
  return {
    section: { text: clean.text, locator },
    fromToc: tocTitle !== undefined,
    warnings: [...warnings, ...clean.warnings],
  };
}

/** What the spine walk collected. */
interface Tally {
  sections: ParsedSection[];
  failures: string[];
  empty: string[];
  nonLinear: number[];
  fromToc: number;
  warnings: string[];
}

function openBook(input: ParseInput, limits: ParseLimits, warnings: string[]): Book {
  const zip = SafeZip.open(input.bytes, limits, input.uri);
  const pkg = openPackage(zip, input.uri);
  const book: Book = {
    zip,
    uri: input.uri,
    pkg,
    titles: new Map(),
    tocSource: "none",
    encrypted: new Set(),
    lowerNames: new Map(),
  };
  for (const n of zip.names()) book.lowerNames.set(n.toLowerCase(), n);
  if (zip.entry("META-INF/encryption.xml")) {
    const enc = tryRead(zip, "META-INF/encryption.xml");
    if ("bytes" in enc) book.encrypted = encryptedPaths(new TextDecoder().decode(enc.bytes));
  }
  loadTitles(book, warnings);
  return book;
}

function record(t: Tally, r: ItemResult, s: SpineItem, index: number): void {
  if ("failure" in r) t.failures.push(r.failure);
  else if ("empty" in r) t.empty.push(r.empty);
  else {
    // A spine item the TOC does not name and that has no heading continues the previous chapter (split files).
    r.section.locator.chapter ||= t.sections.at(-1)?.locator.chapter ?? r.section.locator.href;
    if (!s.linear) t.nonLinear.push(index);
    if (r.fromToc) t.fromToc++;
    t.sections.push(r.section);
    t.warnings.push(...r.warnings);
  }
}

/** Parses an EPUB; see {@link epubParser}. */
async function parseEpub(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument> {
  checkAborted(input.signal, input.uri);
  checkSourceSize(input.bytes, limits, input.uri);
  const tally: Tally = { sections: [], failures: [], empty: [], nonLinear: [], fromToc: 0, warnings: [] };
  const book = openBook(input, limits, tally.warnings);
  const pause = cancellationPoint(input.signal, input.uri);
  const spine = book.pkg.spine;
  for (let i = 0; i < spine.length; i++) {
    await pause();
    record(tally, readItem(book, spine[i], i + 1), spine[i], i + 1);
  }
  return finish(input, book, tally);
}

function finish(input: ParseInput, book: Book, t: Tally): ParsedDocument {
  const { pkg } = book;
  const warnings = [...t.failures, ...t.warnings];
  if (t.failures.length) {
    warnings.push(
      `extracted ${t.sections.length} of ${pkg.spine.length} spine items; ${t.failures.length} could not be read (named above)`,
    );
  }
  if (!t.sections.length)
    warnings.push("no text extracted from any spine item (image-only book? OCR is not available)");
  if (warnings.length) log.debug("epub parser warnings", { uri: input.uri, warnings });
  return {
    kind: "epub",
    mediaType: "application/epub+zip",
    title: pkg.title,
    sections: t.sections,
    metadata: {
      author: pkg.creators.join("; ") || null,
      creators: pkg.creators,
      lang: pkg.language,
      published: pkg.date,
      epub_version: pkg.version,
      spine_items: pkg.spine.length,
      chapters_extracted: t.sections.length,
      spine_items_without_text: t.empty,
      spine_items_failed: t.failures.length,
      non_linear_chapters: t.nonLinear,
      toc_source: book.tocSource,
      toc_entries: book.titles.size,
      chapters_titled_from_toc: t.fromToc,
      inflated_bytes: book.zip.inflatedBytes,
    },
    warnings,
  };
}

/**
 * Parser for EPUB 2 and 3 (`kind: "epub"`): one section per spine item with text, locator `{ chapter: title
 * (nav/NCX, else first heading, else the previous chapter's), chapter_index: 1-based spine position, href:
 * container path }`. Metadata: author (dc:creator), creators, lang (dc:language), epub_version, spine_items,
 * chapters_extracted, spine_items_without_text (image-only items), spine_items_failed, non_linear_chapters
 * (chapter_index of `linear="no"` items), toc_source ("nav" | "ncx" | "none"), toc_entries,
 * chapters_titled_from_toc, inflated_bytes. Unreadable spine items are
 * warnings, each named. @throws PegasError UNSUPPORTED_MEDIA (not a ZIP, no container/OPF/spine),
 * LIMIT_EXCEEDED (maxBytes, maxZipEntries, maxZipEntryBytes, maxZipTotalBytes), CANCELLED.
 */
export const epubParser: Parser = { name: "epub", parse: parseEpub };
