/**
 * Durable commits for the embedded database.
 *
 * PGlite starts PostgreSQL with `-F` (fsync off), and the Emscripten NODEFS that maps its data dir onto the disk
 * has no `fsync` stream operation, so fsync(2) inside the WebAssembly is a no-op, and fdatasync(2) is one always
 * (Emscripten's `__syscall_fdatasync`). A commit then reached the OS page cache but not the disk: a power cut or a
 * kernel crash could lose acknowledged writes, or leave a checkpoint whose data pages never reached the disk. A
 * crash of the process alone loses nothing either way (the page cache survives it).
 *
 * Here fsync is real again: {@link DurableNodeFS} is PGlite's NodeFS whose NODEFS streams fsync through Node's
 * `fs.fsyncSync`, and {@link DURABLE_START_PARAMS} are PGlite's start parameters without `-F`, with
 * `wal_sync_method=fsync` (the only method that reaches the disk through Emscripten). PostgreSQL then syncs the WAL
 * before it acknowledges a COMMIT and the data files at each checkpoint, as on a server (PostgreSQL manual, 28.1
 * "Reliability" and 20.5 "Write Ahead Log": fsync, wal_sync_method).
 */
import { fsyncSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/**
 * PostgreSQL's buffer pool in the embedded database. The default 128 MB is WebAssembly memory that is touched as an
 * ingest fills it and never returned: with 32 MB the peak RSS of a 4 MB log-like ingest fell from 803 to 697 MiB at
 * the same CPU time (23.6 CPU-s; bench/notes.md, 2026-12-03); with 16 MB the idle RSS of a store of the two fixture
 * books fell from 209 to 191 MiB (idle_rss), and a 4 MB ingest took the same CPU time (natural 21.6 vs 21.2 CPU-s;
 * log-like 35 vs 43, under load) at a slightly lower peak (509 vs 517, 595 vs 612 MiB). Pages beyond it come from the
 * OS page cache through the Emscripten file system.
 */
export const SHARED_BUFFERS = "16MB";

/**
 * PGlite's default start parameters without `-F` (fsync off), with the WAL synced by fsync(2) and a smaller buffer
 * pool ({@link SHARED_BUFFERS}).
 */
export const DURABLE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((p) => p !== "-F"),
  "-c",
  "wal_sync_method=fsync",
  "-c",
  `shared_buffers=${SHARED_BUFFERS}`,
];

/** The part of an Emscripten NODEFS stream the fsync operation needs: the host's file descriptor. */
interface NodefsStream {
  nfd?: number;
}

/** The part of Emscripten's NODEFS this module patches. */
interface Nodefs {
  stream_ops: { fsync?: (stream: NodefsStream) => number };
  /** Runs `fn`, turning a Node error with a code into Emscripten's ErrnoError (what a syscall returns). */
  tryFSOperation<T>(fn: () => T): T;
}

/**
 * Gives NODEFS streams a real fsync: `fs.fsyncSync` of the host descriptor (files and directories alike). An
 * error (EIO, ENOSPC) reaches PostgreSQL as the syscall's errno, and it stops rather than trust the data (PANIC,
 * `data_sync_retry` off). Idempotent.
 */
export function enableNodefsFsync(nodefs: Nodefs): void {
  nodefs.stream_ops.fsync = (stream) => {
    const fd = stream.nfd;
    if (typeof fd === "number") nodefs.tryFSOperation(() => fsyncSync(fd));
    return 0;
  };
}

/** The Emscripten module handed to a `preRun` hook: NODEFS is one of its members. */
interface EmscriptenModule {
  NODEFS: Nodefs;
}

/** PGlite's NodeFS on a data dir, whose files fsync for real (see the module's comment). */
export class DurableNodeFS extends NodeFS {
  /** NodeFS's own set-up (it mounts the dir in `preRun`), plus a `preRun` hook that patches NODEFS's fsync. */
  override async init(...args: Parameters<NodeFS["init"]>): ReturnType<NodeFS["init"]> {
    const result = await super.init(...args);
    const opts = result.emscriptenOpts as { preRun?: Array<(mod: EmscriptenModule) => void> };
    opts.preRun = [...(opts.preRun ?? []), (mod) => enableNodefsFsync(mod.NODEFS)];
    return result;
  }
}
