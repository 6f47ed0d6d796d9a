/**
 * Reading ingest sources into bytes: raw text, a file or a directory of files inside the allowed roots, or a URL
 * through the Fetcher port. What the bytes are (text, PDF, EPUB, HTML) is the parsers' business.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { sha256Hex } from "../../domain/hash.ts";
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

/** Most files one directory ingest takes. */
export const MAX_DIRECTORY_FILES = 5000;

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
    throw new PegasError("LIMIT_EXCEEDED", `'${real}' has ${st.size} bytes; the limit is ${maxBytes}`, {
      hint: "raise max_input_bytes in the config or split the file",
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
 * The supported files of a directory, recursively, sorted; hidden entries, unsupported extensions, special files,
 * links leading outside `roots` and directories already walked (symlink loops) are passed over and reported.
 * @throws PegasError INVALID_INPUT when no file is supported, LIMIT_EXCEEDED past {@link MAX_DIRECTORY_FILES}.
 */
export async function listDirectory(
  dir: string,
  supported: ReadonlySet<string>,
  roots: string[] | null,
): Promise<{ files: string[]; skipped: SkippedEntry[] }> {
  const files = new Set<string>();
  const skipped: SkippedEntry[] = [];
  const visited = new Set<string>([dir]);
  const taken = walkTree<null>(
    { abs: dir, rel: "", ctx: null },
    {
      order: "pre-order",
      compare: (a, b) => a.name.localeCompare(b.name),
      onError: (_dir, err) => {
        throw err;
      },
      visit: (_dir, entry, _rel, full) => {
        if (entry.name.startsWith(".")) {
          skipped.push({ source: full, reason: "hidden" });
          return { kind: "skip" };
        }
        let real: string;
        try {
          real = resolveReadable(full, roots);
        } catch (err) {
          skipped.push({ source: full, reason: (err as Error).message });
          return { kind: "skip" };
        }
        const st = statSync(real);
        if (st.isDirectory()) {
          if (!visited.has(real)) {
            visited.add(real);
            return { kind: "enter", ctx: null, abs: real };
          }
          skipped.push({ source: real, reason: "directory already walked (a symlink loop?)" });
        } else if (!st.isFile()) skipped.push({ source: full, reason: "not a regular file" });
        else if (!supported.has(extname(real).toLowerCase()))
          skipped.push({ source: full, reason: "unsupported file type" });
        else {
          files.add(real);
          if (files.size > MAX_DIRECTORY_FILES) {
            throw new PegasError("LIMIT_EXCEEDED", `'${dir}' holds more than ${MAX_DIRECTORY_FILES} supported files`, {
              hint: "ingest its subdirectories one by one",
            });
          }
        }
        return { kind: "skip" };
      },
    },
  );
  for await (const _ of taken); // every decision is made in visit: the walk takes nothing itself
  if (!files.size) throw invalidInput(`'${dir}' holds no supported file`, `supported: ${[...supported].join(" ")}`);
  return { files: [...files], skipped };
}

/** Wraps raw text from the caller as a source; its URI is content-addressed (`text:sha256:<hex>`). */
export function rawTextSource(raw: string, opts: { maxBytes: number; title?: string }): RawSource {
  const bytes = Buffer.from(raw, "utf8");
  if (bytes.byteLength > opts.maxBytes) {
    throw new PegasError("LIMIT_EXCEEDED", `text has ${bytes.byteLength} bytes; the limit is ${opts.maxBytes}`, {
      hint: "split it into several ingests",
    });
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
