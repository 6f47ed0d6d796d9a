/**
 * The source formats the parsers read and the file extensions that name them, apart from the parsers themselves
 * (select.ts maps a format to its parser): a directory ingest lists what it would pick up without loading a parser.
 */

/** A format with its own parser. */
export type SourceFormat = "pdf" | "epub" | "html" | "text";

/** The format a file extension (lower case, with its dot) names; other extensions are read as text when they are. */
export const EXTENSION_FORMATS: Readonly<Record<string, SourceFormat>> = {
  ".pdf": "pdf",
  ".epub": "epub",
  ".html": "html",
  ".htm": "html",
  ".xhtml": "html",
  ".txt": "text",
  ".text": "text",
  ".md": "text",
  ".markdown": "text",
  ".rst": "text",
  ".org": "text",
  ".csv": "text",
  ".tsv": "text",
  ".log": "text",
};

/** File extensions a directory ingest picks up. */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(EXTENSION_FORMATS));
