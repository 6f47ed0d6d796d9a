/**
 * How a refusal over a configurable limit says which setting raises it (docs/configuration.md lists every key).
 * Each limit here is a key of the config file only: none has an environment variable or a command-line flag.
 */

/** Raises the largest source accepted (a file, a fetched body, pasted text, an HTTP request body): bytes. */
export const RAISE_INPUT_BYTES = "raise max_input_bytes in the config file";

/** The config keys of the EPUB (ZIP) limits, by the name the parser's limits carry. */
export const ZIP_LIMIT_KEYS = {
  maxZipEntries: "zip_max_entries",
  maxZipEntryBytes: "zip_max_entry_bytes",
  maxZipTotalBytes: "zip_max_total_bytes",
} as const;
