/**
 * Builds small EPUB 3 files in memory for parser tests (fflate's zipSync): chapters with any file names (spaces
 * are percent-encoded in the OPF and nav hrefs, as EPUB 3.3 requires), optional missing files and dangling
 * spine references.
 */
import { strToU8, zipSync, type Zippable } from "fflate";

/** One chapter: `file` is the raw file name inside OEBPS/, `body` the XHTML body markup. */
export interface TestChapter {
  file: string;
  title: string;
  body: string;
}

/** Options of {@link buildEpub}. */
export interface EpubOptions {
  /** Chapter files left out of the archive (still in manifest and spine). */
  omitFiles?: string[];
  /** Extra spine idrefs that no manifest item has. */
  danglingIdrefs?: string[];
  /** Extra raw files (container path → content). */
  extra?: Record<string, string | Uint8Array>;
}

/** Percent-encodes each path segment (spaces → %20), as an href must be. */
export function hrefOf(file: string): string {
  return file.split("/").map(encodeURIComponent).join("/");
}

/** A complete XHTML content document. */
export function xhtml(title: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${title}</title></head><body>${body}</body></html>`;
}

function opf(chapters: TestChapter[], dangling: string[]): string {
  const items = chapters
    .map((c, i) => `<item id="c${i + 1}" href="${hrefOf(c.file)}" media-type="application/xhtml+xml"/>`)
    .join("\n");
  const refs = [...chapters.map((_, i) => `c${i + 1}`), ...dangling].map((id) => `<itemref idref="${id}"/>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">test</dc:identifier>
<dc:title>Test Book</dc:title><dc:creator>Test Author</dc:creator><dc:language>ru</dc:language></metadata>
<manifest><item id="nav" href="nav.xhtml" properties="nav" media-type="application/xhtml+xml"/>
${items}</manifest><spine>${refs}</spine></package>`;
}

function nav(chapters: TestChapter[]): string {
  // Fragments on the links: titles must still match the files.
  const lis = chapters.map((c, i) => `<li><a href="${hrefOf(c.file)}#s${i}">${c.title}</a></li>`).join("");
  return xhtml("Nav", `<nav epub:type="toc"><ol>${lis}</ol></nav>`);
}

/** An EPUB 3 archive with the chapters under OEBPS/, a nav document and the given defects. */
export function buildEpub(chapters: TestChapter[], opts: EpubOptions = {}): Uint8Array {
  const files: Zippable = {
    mimetype: [strToU8("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": strToU8(
      `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ),
    "OEBPS/content.opf": strToU8(opf(chapters, opts.danglingIdrefs ?? [])),
    "OEBPS/nav.xhtml": strToU8(nav(chapters)),
  };
  for (const c of chapters) {
    if (!opts.omitFiles?.includes(c.file)) files[`OEBPS/${c.file}`] = strToU8(xhtml(c.title, c.body));
  }
  for (const [path, content] of Object.entries(opts.extra ?? {}))
    files[path] = typeof content === "string" ? strToU8(content) : content;
  return zipSync(files);
}
