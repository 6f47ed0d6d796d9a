/**
 * Sources into parsed documents for ingest: raw text stored as given, bytes through the configured parsers, and a
 * fetched page as a source whose HTTP facts (final URL, status, validators) become document metadata.
 */
import type { ProgressSpan } from "../../domain/progress.ts";
import { sanitizeText } from "../../domain/text.ts";
import type { FetchedResource } from "../../ports/models/fetcher.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import type { Services } from "../services.ts";
import type { RawSource } from "./source.ts";

/** Raw text from the caller: stored as given (NUL and lone surrogates repaired, with warnings). */
function textDocument(text: string): ParsedDocument {
  const clean = sanitizeText(text, "text");
  return {
    kind: "text",
    mediaType: "text/plain",
    title: null,
    sections: [{ text: clean.text, locator: {} }],
    metadata: {},
    warnings: clean.warnings,
  };
}

/** Parses a source: raw text as given, else its bytes by the parser its media type or name calls for. */
export async function parseRaw(
  services: Pick<Services, "parse">,
  raw: RawSource,
  signal?: AbortSignal,
  progress?: ProgressSpan,
): Promise<ParsedDocument> {
  if (raw.text !== undefined) return textDocument(raw.text);
  progress?.at(0.5, 1, `parse: ${raw.uri}`, true);
  return services.parse({
    bytes: raw.bytes,
    uri: raw.uri,
    name: raw.name,
    mediaType: raw.mediaType,
    charset: raw.charset,
    signal,
  });
}

/**
 * A fetched page as an ingest source. `uri` (the requested URL, without fragment) stays the document's identity; the
 * final URL, the status, the fetch time and the validators (ETag, Last-Modified: a later refresh sends them back as
 * a conditional request; null when the server sent none) go to its metadata.
 */
export function fetchedSource(uri: string, r: FetchedResource, title?: string): RawSource {
  const etag = r.headers.etag;
  const lastModified = r.headers["last-modified"];
  return {
    uri,
    name: r.url,
    bytes: r.bytes,
    mediaType: r.mediaType || undefined,
    charset: r.charset,
    title,
    metadata: {
      final_url: r.url,
      http_status: r.status,
      fetched_at: new Date().toISOString(),
      // null, not absent: a version's metadata is merged over the last one's, whose validators no longer hold.
      etag: etag ?? null,
      last_modified: lastModified ?? null,
    },
  };
}
