/**
 * Reads a file embedded in the executable (`with { type: "file" }`): whole, since `/$bunfs/` paths allow only
 * whole-file reads, and inflated when the build embedded it gzip-compressed (scripts/build.ts). From source the
 * path is the raw file under node_modules, which is returned as read.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

/**
 * The bytes of an embedded file, gunzipped when they start with gzip's magic number (RFC 1952: 0x1f 0x8b). Callers
 * use it only for files whose raw form cannot start so (WebAssembly starts with `\0asm`, PGlite's data bundle with
 * its file table).
 * @throws Error from the file system, or zlib's error when a compressed file is corrupt.
 */
export function readEmbedded(path: string): Uint8Array {
  const bytes = readFileSync(path);
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}
