/**
 * Parser port: bytes of a source → sections of text with their locators. One adapter per format (text, PDF, EPUB,
 * HTML). A parser never reports success while losing text silently: what it could not extract becomes a warning
 * (e.g. "no text layer: scanned? OCR is not available"), what it cannot read at all is a PegasError
 * (UNSUPPORTED_MEDIA for encrypted or broken files, LIMIT_EXCEEDED for limits, CANCELLED when aborted).
 */
import type { DocumentKind, Locator } from "../../domain/locator.ts";

/** One section: a PDF page, an EPUB chapter, a web article, a whole text file. */
export interface ParsedSection {
  /** The section's text: LF newlines, NFKC-normalized where the format needs it, storable (no NUL). */
  text: string;
  /** Where the section is (`page`, or `chapter`/`chapter_index`/`href`); chunk locators add char/line ranges. */
  locator: Locator;
}

/** A parsed document. */
export interface ParsedDocument {
  kind: DocumentKind;
  /** Media type of the source, e.g. `application/pdf`, `text/html; charset=windows-1251` → `text/html`. */
  mediaType: string;
  /** Title from the document itself (PDF info, OPF dc:title, HTML title / Readability), or null. */
  title: string | null;
  sections: ParsedSection[];
  /** Extra facts kept as document metadata: author/byline, site, published, lang, charset, pages, chapters… */
  metadata: Record<string, unknown>;
  /** Human-readable warnings about text that could not be extracted or looks wrong. */
  warnings: string[];
}

/** Limits a parser enforces (bytes are uncompressed sizes). */
export interface ParseLimits {
  /** Largest source, in bytes. */
  maxBytes: number;
  /** Most entries in a zip container (EPUB). */
  maxZipEntries: number;
  /** Largest total uncompressed size of a zip container, in bytes. */
  maxZipTotalBytes: number;
  /** Largest uncompressed size of one zip entry, in bytes. */
  maxZipEntryBytes: number;
}

/** What a parser reads. */
export interface ParseInput {
  bytes: Uint8Array;
  /** Where it came from (file: or http(s): URI), for messages and relative links. */
  uri: string;
  /** Media type from the HTTP header or the file extension, if known. */
  mediaType?: string;
  /** Charset from the HTTP Content-Type header, if any (it wins over a meta declaration). */
  charset?: string;
  signal?: AbortSignal;
}

/** A format adapter. */
export interface Parser {
  /** Adapter name, e.g. `pdf`. */
  readonly name: string;
  /** Parses the bytes. @throws PegasError UNSUPPORTED_MEDIA, LIMIT_EXCEEDED, INVALID_INPUT, CANCELLED. */
  parse(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument>;
}
