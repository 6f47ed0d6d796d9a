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

/** True when `path` is inside one of `roots` (plain path comparison; callers resolve symlinks on both sides). */
export function insideRoots(path: string, roots: string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  });
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function outsideRoots(path: string, roots: string[]): PegasError {
  const allowed = roots.length ? roots.map((r) => `'${r}'`).join(", ") : "none configured";
  return invalidInput(`'${path}' is outside the ingest roots (${allowed})`, "add its directory to PEGAS_INGEST_ROOTS (colon-separated) or pass the text itself");
}

/**
 * Resolves a path for reading. With roots, the path is checked before the file system is touched (so that nobody
 * can probe which files exist outside them) and again after symlinks are resolved (roots resolved too).
 */
function resolveReadable(path: string, roots: string[] | null): string {
  const abs = resolve(path);
  const realRoots = roots?.map(realOrSelf) ?? null;
  if (roots && realRoots && !insideRoots(abs, roots) && !insideRoots(abs, realRoots)) throw outsideRoots(abs, roots);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new PegasError("NOT_FOUND", `no file '${path}'`, { hint: "give an existing path (absolute, or relative to the server's working directory)" });
  }
  if (roots && realRoots && !insideRoots(real, realRoots)) throw outsideRoots(abs, roots);
  return real;
}

/**
 * Reads a file as text. `roots` (absolute) limit what may be read; `null` allows any path (the CLI, where the
 * user names the file). @throws PegasError INVALID_INPUT (outside roots, not a file, too large), NOT_FOUND,
 * UNSUPPORTED_MEDIA (binary, PDF/EPUB/HTML, not UTF-8).
 */
export function readFileSource(path: string, opts: { roots: string[] | null; maxBytes: number; title?: string }): SourceText {
  const real = resolveReadable(path, opts.roots);
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
  const nuls = raw.length ? (raw.match(/\u0000/g)?.length ?? 0) : 0;
  if (nuls > 16 && nuls / raw.length > 0.001) {
    throw new PegasError("UNSUPPORTED_MEDIA", `text holds ${nuls} NUL characters: it looks like binary data`, { hint: "pass text, or a path to the file" });
  }
  if (bytes > opts.maxBytes) throw new PegasError("LIMIT_EXCEEDED", `text has ${bytes} bytes; the limit is ${opts.maxBytes}`, { hint: "split it into several ingests" });
  const { text, warnings } = sanitizeText(raw, "text");
  if (!text.trim()) throw invalidInput("text is empty", "pass the text to ingest");
  return { kind: "text", uri: `text:sha256:${sha256Hex(text)}`, title: opts.title ?? null, text, bytes, mediaType: "text/plain", warnings };
}
