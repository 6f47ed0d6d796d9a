/**
 * Reading ingest sources into bytes: raw text, a file or a directory of files inside the allowed roots, or a URL
 * through the Fetcher port. What the bytes are (text, PDF, EPUB, HTML) is the parsers' business.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256Hex } from "../../domain/hash.ts";
import { RAISE_INPUT_BYTES } from "../../domain/limits.ts";
import { PegasError, invalidInput } from "../../errors.ts";
import { walkTree } from "../../platform/walk.ts";

/** A source read into bytes, before parsing. */
export interface RawSource {
  /** Document identity: `file:` URL of the real path, the requested http(s) URL, or `text:sha256:<hex>`. */
  uri: string;
  /** File name or URL, for the extension. */
  name: string;
  bytes: Uint8Array;
  /** Already-decoded text (raw text from the caller): no parser runs. */
  text?: string;
  /** Media type from HTTP or the caller, if known. */
  mediaType?: string;
  /** Charset from HTTP, if any. */
  charset?: string;
  title?: string;
  /** Facts about the retrieval kept as document metadata (final URL, HTTP status…). */
  metadata: Record<string, unknown>;
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
  return invalidInput(
    `'${path}' is outside the ingest roots (${allowed})`,
    "add its directory to PEGAS_INGEST_ROOTS (colon-separated); memory_ingest also takes the text itself",
  );
}

/** A hidden component (".ssh", ".env") below the root: never read over MCP. */
function hiddenBelow(path: string, roots: string[]): boolean {
  const root = roots.find((r) => insideRoots(path, [r]));
  return (
    root !== undefined &&
    relative(root, path)
      .split(sep)
      .some((part) => part.startsWith("."))
  );
}

/**
 * Resolves a path for reading. With roots (MCP), the path is checked before the file system is touched (nobody
 * probes which files exist outside them), again after symlinks are resolved (roots resolved too), and hidden
 * files and directories are refused. `roots` null (the CLI) reads any path.
 * @throws PegasError INVALID_INPUT (outside the roots, hidden), NOT_FOUND.
 */
export function resolveReadable(path: string, roots: string[] | null): string {
  const abs = resolve(path);
  const realRoots = roots?.map(realOrSelf) ?? null;
  if (roots && realRoots && !insideRoots(abs, roots) && !insideRoots(abs, realRoots)) throw outsideRoots(abs, roots);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      throw invalidInput(`'${path}' is a symbolic link loop`, "give the real path of the file or directory");
    throw new PegasError("NOT_FOUND", `no file '${path}'`, {
      hint: "give an existing path (absolute, or relative to the server's working directory)",
    });
  }
  if (roots && realRoots && !insideRoots(real, realRoots)) throw outsideRoots(abs, roots);
  if (realRoots && hiddenBelow(real, realRoots))
    throw invalidInput(
      `'${abs}' is a hidden file or lies in a hidden directory`,
      "hidden files are not ingested over MCP; use the CLI",
    );
  return real;
}

/** Reads one regular file. @throws PegasError INVALID_INPUT (not a file), LIMIT_EXCEEDED (size). */
export function readFileSource(real: string, maxBytes: number, title?: string): RawSource {
  const st = statSync(real);
  if (!st.isFile()) throw invalidInput(`'${real}' is not a regular file`);
  if (st.size > maxBytes)
    throw new PegasError("LIMIT_EXCEEDED", `'${real}' has ${st.size} bytes; the limit max_input_bytes is ${maxBytes}`, {
      hint: `${RAISE_INPUT_BYTES}, or split the file`,
    });
  return {
    uri: pathToFileURL(real).href,
    name: basename(real),
    bytes: readFileSync(real),
    title,
    metadata: { path: real, bytes: st.size },
  };
}

/** An entry of a directory that was passed over, and why. */
export interface SkippedEntry {
  source: string;
  reason: string;
}

/**
 * Walks a directory as a stream and yields its supported files, recursively, in sorted pre-order; hidden entries,
 * unsupported extensions, special files, links leading outside `roots` and directories already walked (symlink
 * loops) are passed over and pushed to `skipped`. The walk stops after `maxFiles` files (a safety setting, not an
 * error: `onLimit` is called once and the caller reports the rest as not read). A directory that cannot be listed
 * ends the walk with its error.
 */
export async function* walkDirectory(
  dir: string,
  opts: {
    supported: ReadonlySet<string>;
    roots: string[] | null;
    maxFiles: number;
    skipped: SkippedEntry[];
    onLimit: () => void;
    signal?: AbortSignal;
  },
): AsyncGenerator<string> {
  const visited = new Set<string>([dir]);
  const skip = (source: string, reason: string): { kind: "skip" } => {
    opts.skipped.push({ source, reason });
    return { kind: "skip" };
  };
  const walk = walkTree<null>(
    { abs: dir, rel: "", ctx: null },
    {
      order: "pre-order",
      compare: (a, b) => a.name.localeCompare(b.name),
      signal: opts.signal,
      onError: (_dir, err) => {
        throw err;
      },
      visit: (_dir, entry, _rel, full) => {
        if (entry.name.startsWith(".")) return skip(full, "hidden");
        let real: string;
        try {
          real = resolveReadable(full, opts.roots);
        } catch (err) {
          return skip(full, (err as Error).message);
        }
        const st = statSync(real);
        if (st.isDirectory()) {
          if (visited.has(real)) return skip(real, "directory already walked (a symlink loop?)");
          visited.add(real);
          return { kind: "enter", ctx: null, abs: real };
        }
        if (!st.isFile()) return skip(full, "not a regular file");
        if (!opts.supported.has(extname(real).toLowerCase())) return skip(full, "unsupported file type");
        return { kind: "take" };
      },
    },
  );
  const seen = new Set<string>(); // two links to one file: it is read once
  for await (const f of walk) {
    const real = realOrSelf(f.abs);
    if (seen.has(real)) continue;
    if (seen.size >= opts.maxFiles) {
      opts.onLimit();
      return;
    }
    seen.add(real);
    yield real;
  }
}

/** Wraps raw text from the caller as a source; its URI is content-addressed (`text:sha256:<hex>`). */
export function rawTextSource(raw: string, opts: { maxBytes: number; title?: string }): RawSource {
  const bytes = Buffer.from(raw, "utf8");
  if (bytes.byteLength > opts.maxBytes) {
    throw new PegasError(
      "LIMIT_EXCEEDED",
      `text has ${bytes.byteLength} bytes; the limit max_input_bytes is ${opts.maxBytes}`,
      { hint: `split it into several ingests, or ${RAISE_INPUT_BYTES}` },
    );
  }
  const nuls = raw.match(/\u0000/g)?.length ?? 0;
  if (nuls > 16 && nuls / raw.length > 0.001) {
    throw new PegasError("UNSUPPORTED_MEDIA", `text holds ${nuls} NUL characters: it looks like binary data`, {
      hint: "pass text, or a path to the file",
    });
  }
  if (!raw.trim()) throw invalidInput("text is empty", "pass the text to ingest");
  return {
    uri: `text:sha256:${sha256Hex(bytes)}`,
    name: "text",
    bytes,
    text: raw,
    mediaType: "text/plain",
    title: opts.title,
    metadata: {},
  };
}
