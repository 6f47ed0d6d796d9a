/**
 * PGlite's WASM, file-system bundle and the pg_trgm extension, embedded in the single executable.
 *
 * Bun-specific: `with { type: "file" }` makes `bun build --compile` embed each file and yields its path (a real
 * path under node_modules when run from source, a `/$bunfs/...` path inside the executable). The imports go through
 * relative paths because the package's `exports` map blocks `@electric-sql/pglite/dist/...` specifiers.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readEmbedded } from "./embedded.ts";
import pgliteWasm from "../../node_modules/@electric-sql/pglite/dist/pglite.wasm" with { type: "file" };
import initdbWasm from "../../node_modules/@electric-sql/pglite/dist/initdb.wasm" with { type: "file" };
import pgliteData from "../../node_modules/@electric-sql/pglite/dist/pglite.data" with { type: "file" };
import pgTrgmBundle from "../../node_modules/@electric-sql/pglite/dist/pg_trgm.tar.gz" with { type: "file" };

/** What `PGlite.create` needs so that it never looks for files beside its own module. */
export interface PgliteAssets {
  /** Compiled `pglite.wasm` (the PostgreSQL backend). */
  pgliteWasmModule: WebAssembly.Module;
  /** Compiled `initdb.wasm` (used once, when the data dir is empty). */
  initdbWasmModule: WebAssembly.Module;
  /** `pglite.data`: the share/lib tree PostgreSQL reads at start. */
  fsBundle: Blob;
  /** `file://` URL of an on-disk copy of the pg_trgm extension bundle. */
  pgTrgmUrl: URL;
}

/** The two compiled modules, shared by every PGlite this process opens (a module is immutable and reusable). */
let compiled: Promise<[WebAssembly.Module, WebAssembly.Module]> | undefined;

/**
 * Loads and compiles the embedded PGlite assets (≈ 0.5 CPU-seconds the first time, mostly WASM compilation; later
 * opens in the same process — a takeover, a test suite's many stores — reuse the compiled modules, and the engine
 * its optimised code). PGlite reads extension bundles with streams, which fail on `/$bunfs/` paths, so the pg_trgm
 * bundle is copied once into `cacheDir` (created with mode 0700) under a content-hashed name, written atomically
 * (temp file + rename).
 * @throws Error from the file system when `cacheDir` cannot be written; the compile error when a module is invalid.
 */
export async function loadPgliteAssets(cacheDir: string): Promise<PgliteAssets> {
  compiled ??= Promise.all([
    WebAssembly.compile(readEmbedded(pgliteWasm)),
    WebAssembly.compile(readEmbedded(initdbWasm)),
  ]).catch((err) => {
    compiled = undefined; // a later open tries again
    throw err;
  });
  const [pgliteWasmModule, initdbWasmModule] = await compiled;
  const fsBundle = new Blob([readEmbedded(pgliteData)]);
  const pgTrgmUrl = new URL(`file://${cacheFile(cacheDir, "pg_trgm", readFileSync(pgTrgmBundle))}`);
  return { pgliteWasmModule, initdbWasmModule, fsBundle, pgTrgmUrl };
}

/** Writes `bytes` to `<dir>/<name>-<sha256 prefix>.tar.gz` unless an identical copy is there; returns its path. */
function cacheFile(dir: string, name: string, bytes: Uint8Array): string {
  const digest = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const target = join(dir, `${name}-${digest}.tar.gz`);
  if (existsSync(target) && statSync(target).size === bytes.byteLength) return target;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A unique temp name: two processes may fill the cache at once; rename makes either copy win whole.
  const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, bytes, { mode: 0o600 });
    renameSync(temp, target);
  } finally {
    if (existsSync(temp)) unlinkSync(temp);
  }
  return target;
}
