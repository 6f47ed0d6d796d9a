/**
 * Reads a file embedded in the executable (`with { type: "file" }`): whole, since `/$bunfs/` paths allow only
 * whole-file reads, and inflated when the build embedded it Zstandard-compressed (scripts/build.ts). From source the
 * path is the raw file under node_modules, which is returned as read.
 */
import { readFileSync } from "node:fs";

/**
 * The bytes of an embedded file, decompressed when they start with a Zstandard frame's magic number (RFC 8878:
 * 0xFD2FB528, little-endian). Callers
 * use it only for files whose raw form cannot start so (WebAssembly starts with `\0asm`, PGlite's data bundle with
 * its file table).
 * @throws Error from the file system, or Bun's error when a compressed file is corrupt.
 */
export function readEmbedded(path: string): Uint8Array {
  const bytes = readFileSync(path);
  return isZstd(bytes) ? Bun.zstdDecompressSync(bytes) : bytes;
}

/** Whether `bytes` start with a Zstandard frame's magic number (RFC 8878: 0xFD2FB528, little-endian). */
function isZstd(bytes: Uint8Array): boolean {
  return bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
}

/**
 * {@link readEmbedded} off the main thread: the file is read and inflated on Bun's thread pool (`Bun.file().bytes()`,
 * `Bun.zstdDecompress`), so that JavaScript (module loading, a snapshot read) runs meanwhile.
 * @throws Error from the file system, or Bun's error when a compressed file is corrupt.
 */
export async function readEmbeddedAsync(path: string): Promise<Uint8Array> {
  const bytes = await Bun.file(path).bytes();
  return isZstd(bytes) ? await Bun.zstdDecompress(bytes) : bytes;
}
