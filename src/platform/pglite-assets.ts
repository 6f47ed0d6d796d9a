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
import { readEmbeddedAsync } from "./embedded.ts";
import pgliteWasm from "../../node_modules/@electric-sql/pglite/dist/pglite.wasm" with { type: "file" };
import initdbWasm from "../../node_modules/@electric-sql/pglite/dist/initdb.wasm" with { type: "file" };
import pgliteData from "../../node_modules/@electric-sql/pglite/dist/pglite.data" with { type: "file" };
import pgTrgmBundle from "../../node_modules/@electric-sql/pglite/dist/pg_trgm.tar.gz" with { type: "file" };

/** What `PGlite.create` needs so that it never looks for files beside its own module. */
export interface PgliteAssets {
  /** Compiled `pglite.wasm` (the PostgreSQL backend). */
  pgliteWasmModule: WebAssembly.Module;
  /** Compiled `initdb.wasm`: only when asked for (an empty data dir to initialise); PGlite never reads it otherwise. */
  initdbWasmModule?: WebAssembly.Module;
  /** `pglite.data`: the share/lib tree PostgreSQL reads at start. */
  fsBundle: Blob;
  /** `file://` URL of an on-disk copy of the pg_trgm extension bundle. */
  pgTrgmUrl: URL;
}

/**
 * One promise per embedded asset, shared by every PGlite this process opens (a compiled module is immutable and
 * reusable; the bundle's bytes are copied by PGlite). A failed one is forgotten, so that a later open tries again.
 */
const loads = new Map<string, Promise<unknown>>();

function once<T>(key: string, load: () => Promise<T>): Promise<T> {
  let p = loads.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load();
    loads.set(key, p);
    p.catch(() => loads.delete(key));
  }
  return p;
}

/** `path` inflated off the main thread and compiled (JSC compiles on its own threads too). */
const compiled = (path: string) => once(path, async () => WebAssembly.compile(await readEmbeddedAsync(path)));
const bundleBytes = () => once(pgliteData, () => readEmbeddedAsync(pgliteData));

/**
 * Starts inflating and compiling what opening an existing data dir needs (`pglite.wasm`, ≈ 0.3 CPU-s to compile,
 * and `pglite.data`) in the background, so that it overlaps the module loading and file reading that come before
 * {@link loadPgliteAssets}. Errors surface there, not here. Idempotent.
 */
export function prewarmPgliteAssets(): void {
  compiled(pgliteWasm).catch(() => {});
  bundleBytes().catch(() => {});
}

/**
 * Loads and compiles the embedded PGlite assets (≈ 0.3 CPU-seconds the first time, mostly WASM compilation; later
 * opens in the same process — a takeover, a test suite's many stores — reuse the compiled modules, and the engine
 * its optimised code). `initdb.wasm` is compiled only `withInitdb` (a data dir without a cluster and no template).
 * PGlite reads extension bundles with streams, which fail on `/$bunfs/` paths, so the pg_trgm
 * bundle is copied once into `cacheDir` (created with mode 0700) under a content-hashed name, written atomically
 * (temp file + rename).
 * @throws Error from the file system when `cacheDir` cannot be written; the compile error when a module is invalid.
 */
export async function loadPgliteAssets(cacheDir: string, withInitdb = false): Promise<PgliteAssets> {
  const [pgliteWasmModule, initdbWasmModule, bundle] = await Promise.all([
    compiled(pgliteWasm),
    withInitdb ? compiled(initdbWasm) : undefined,
    bundleBytes(),
  ]);
  loads.delete(pgliteData); // read again by a later open rather than held for the life of the process
  const fsBundle = new Blob([bundle as Uint8Array<ArrayBuffer>]);
  const pgTrgmUrl = new URL(`file://${cacheFile(cacheDir, "pg_trgm", readFileSync(pgTrgmBundle))}`);
  return { pgliteWasmModule, ...(initdbWasmModule ? { initdbWasmModule } : {}), fsBundle, pgTrgmUrl };
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
