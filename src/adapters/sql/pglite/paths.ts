/**
 * Names derived from an embedded data dir: the lock's abstract socket name, the wire socket path and the cache dir.
 * Every process that opens the same dir (by any path that resolves to it) derives the same names.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { PegasError } from "../../../errors.ts";
import { tmpdir } from "node:os";

/** Longest socket path we use: sun_path holds 108 bytes on Linux; keep a margin. */
const MAX_SOCKET_PATH = 100;
const SOCKET_NAME = ".s.PGSQL.5432";

/** The names one data dir maps to. */
export interface PglitePaths {
  /** The data dir, absolute and with symlinks resolved (it is PGlite's PGDATA). */
  dataDir: string;
  /** sha256 of `dataDir`, 32 hex chars. */
  hash: string;
  /** Abstract-namespace socket name (leading NUL) whose listener owns the data dir. */
  lockName: string;
  /** File unix socket where the owner serves the PostgreSQL wire protocol. */
  socketPath: string;
  /** File beside the socket where the owner records its pid (host-process.ts). */
  hostRecordPath: string;
  /** Dir for extracted assets (the pg_trgm bundle). */
  cacheDir: string;
}

/**
 * Creates the data dir (mode 0700) when missing and derives its names. When `<dataDir>/.s.PGSQL.5432` is longer
 * than 100 bytes the socket goes to a private dir `pegas-memory-<hash>` under `runtimeDir` (config `runtime_dir`:
 * $XDG_RUNTIME_DIR, else the OS temp dir) instead.
 * @throws PegasError INVALID_INPUT when the data dir cannot be created, or STORE_UNAVAILABLE when the fallback socket
 *   dir exists but is not a private dir of this user (someone may be squatting it).
 */
export function resolvePaths(dataDir: string, runtimeDir: string = tmpdir()): PglitePaths {
  let real: string;
  try {
    mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 });
    real = realpathSync(resolve(dataDir));
  } catch (err) {
    throw new PegasError("INVALID_INPUT", `cannot create the data dir '${dataDir}': ${(err as Error).message}`, {
      hint: "choose a writable directory for the embedded database (PEGAS_DATA_DIR or --data-dir)",
      cause: err,
    });
  }
  const hash = hashOf(real);
  let socketPath = join(real, SOCKET_NAME);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    socketPath = join(privateRuntimeDir(runtimeDir, hash), SOCKET_NAME);
  return {
    dataDir: real,
    hash,
    lockName: `\0pegas-memory-${hash}`,
    socketPath,
    hostRecordPath: `${socketPath}.pid`,
    cacheDir: join(real, ".cache"),
  };
}

const hashOf = (real: string) => createHash("sha256").update(real).digest("hex").slice(0, 32);

/**
 * Where the host of `dataDir` records its pid ({@link PglitePaths.hostRecordPath}), derived as {@link resolvePaths}
 * does but creating nothing: null when the data dir does not exist (then no process hosts it).
 */
export function hostRecordOf(dataDir: string, runtimeDir: string = tmpdir()): string | null {
  let real: string;
  try {
    real = realpathSync(resolve(dataDir));
  } catch {
    return null;
  }
  let socketPath = join(real, SOCKET_NAME);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    socketPath = join(runtimeDir, `pegas-memory-${hashOf(real)}`, SOCKET_NAME);
  return `${socketPath}.pid`;
}

/** Creates (or checks) `<runtime dir>/pegas-memory-<hash>`, which must be a dir of ours with mode 0700. */
function privateRuntimeDir(runtimeDir: string, hash: string): string {
  const dir = join(runtimeDir, `pegas-memory-${hash}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.() ?? st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) {
    throw new PegasError("STORE_UNAVAILABLE", `socket dir '${dir}' is not a private directory of this user`, {
      hint: "remove it, or use a data dir with a shorter path so the socket lives inside it",
    });
  }
  if (Buffer.byteLength(join(dir, SOCKET_NAME)) > MAX_SOCKET_PATH) {
    throw new PegasError("STORE_UNAVAILABLE", `socket path under '${dir}' is longer than ${MAX_SOCKET_PATH} bytes`, {
      hint: "set XDG_RUNTIME_DIR or TMPDIR to a short path, or use a data dir with a shorter path",
    });
  }
  return dir;
}
