/**
 * Reading an ingest source into text: raw text, or a file path inside the allowed roots. Text and Markdown in
 * UTF-8 (a BOM is dropped); other media types are refused with UNSUPPORTED_MEDIA, never read as garbage.
 */
import { realpathSync, statSync, readFileSync } from "node:fs";
import { extname, isAbsolute, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256Hex } from "../domain/hash.ts";
import { sanitizeText } from "../domain/text.ts";
import { PegasError, invalidInput } from "../errors.ts";

/** A source read into text. */
export interface SourceText {
  kind: "text";
  uri: string;
  title: string | null;
  text: string;
  bytes: number;
  mediaType: string;
  warnings: string[];
}

const TEXT_EXTENSIONS = new Set(["", ".txt", ".text", ".md", ".markdown", ".rst", ".org", ".csv", ".tsv", ".log"]);
const LATER = new Map([
  [".pdf", "PDF"],
  [".epub", "EPUB"],
  [".html", "HTML"],
  [".htm", "HTML"],
  [".docx", "DOCX"],
]);

function decodeUtf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new PegasError("UNSUPPORTED_MEDIA", `'${name}' is not valid UTF-8 text`, {
      hint: "convert it to UTF-8 (e.g. `iconv -f cp1251 -t utf-8`) and ingest again",
    });
  }
}

/** True when `path` is inside one of `roots` (after resolving symlinks). */
export function insideRoots(path: string, roots: string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  });
}

/**
 * Reads a file as text. `roots` (absolute) limit what may be read; `null` allows any path (the CLI, where the
 * user names the file). @throws PegasError INVALID_INPUT (outside roots, not a file, too large), NOT_FOUND,
 * UNSUPPORTED_MEDIA (binary, PDF/EPUB/HTML, not UTF-8).
 */
export function readFileSource(path: string, opts: { roots: string[] | null; maxBytes: number; title?: string }): SourceText {
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch {
    throw new PegasError("NOT_FOUND", `no file '${path}'`, { hint: "give an existing path (absolute, or relative to the server's working directory)" });
  }
  if (opts.roots !== null && !insideRoots(real, opts.roots)) {
    const allowed = opts.roots.length ? opts.roots.map((r) => `'${r}'`).join(", ") : "none configured";
    throw invalidInput(`'${real}' is outside the ingest roots (${allowed})`, "add its directory to PEGAS_INGEST_ROOTS (colon-separated) or pass the text itself");
  }
  const st = statSync(real);
  if (!st.isFile()) throw invalidInput(`'${real}' is not a regular file`);
  if (st.size > opts.maxBytes) throw new PegasError("LIMIT_EXCEEDED", `'${real}' has ${st.size} bytes; the limit is ${opts.maxBytes}`, { hint: "raise max_input_bytes in the config or split the file" });
  const ext = extname(real).toLowerCase();
  const later = LATER.get(ext);
  if (later) throw new PegasError("UNSUPPORTED_MEDIA", `${later} files are not supported yet ('${real}')`, { hint: "extract the text and ingest it as text" });
  const bytes = readFileSync(real);
  if (!TEXT_EXTENSIONS.has(ext) && bytes.subarray(0, 8192).includes(0)) {
    throw new PegasError("UNSUPPORTED_MEDIA", `'${real}' looks binary (NUL bytes in its first 8 KiB)`, { hint: "ingest text, Markdown or a supported document" });
  }
  const { text, warnings } = sanitizeText(decodeUtf8(bytes, real), real);
  return {
    kind: "text",
    uri: pathToFileURL(real).href,
    title: opts.title ?? null,
    text,
    bytes: st.size,
    mediaType: ext === ".md" || ext === ".markdown" ? "text/markdown" : "text/plain",
    warnings,
  };
}

/** Wraps raw text from the caller as a source; its URI is content-addressed (`text:sha256:<hex>`). */
export function rawTextSource(raw: string, opts: { maxBytes: number; title?: string }): SourceText {
  const bytes = Buffer.byteLength(raw, "utf8");
  if (bytes > opts.maxBytes) throw new PegasError("LIMIT_EXCEEDED", `text has ${bytes} bytes; the limit is ${opts.maxBytes}`, { hint: "split it into several ingests" });
  const { text, warnings } = sanitizeText(raw, "text");
  if (!text.trim()) throw invalidInput("text is empty", "pass the text to ingest");
  return { kind: "text", uri: `text:sha256:${sha256Hex(text)}`, title: opts.title ?? null, text, bytes, mediaType: "text/plain", warnings };
}
