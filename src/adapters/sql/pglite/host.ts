/**
 * The owner side of an embedded data dir: opens PGlite on it and serves it on a unix socket to every process
 * (this one included) that opens the same dir. Only the holder of the ownership lock may call {@link startHost}.
 */
import { existsSync, unlinkSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { checkDataDir, ensureCluster } from "./data-dir.ts";
import { forgetHost, recordHost } from "./host-process.ts";
import { clusterState } from "./pg-control.ts";
import type { OwnershipLock } from "./lock.ts";
import type { PglitePaths } from "./paths.ts";
import { WireServer } from "./wire-server.ts";

/** Bound on PGlite's clean shutdown (a checkpoint); past it the data dir is released anyway. */
const PGLITE_CLOSE_TIMEOUT_MS = 15_000;

/** A running host. */
export interface PgliteHost {
  /**
   * Stops serving: busy connections get `graceMs` to finish, then every connection is dropped (open transactions
   * rolled back); PGlite is closed cleanly, the socket file removed and the lock released. Never throws; idempotent.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Opens PGlite on `paths.dataDir` (on first use initdb, ≈ 3 s, or with `template` the embedded migrated cluster when
 * it fits this build, ≈ 0.2 s; crash recovery when the previous owner died), loads pg_trgm, and serves it on
 * `paths.socketPath`. `onLost` is called when the host shuts itself down because PGlite
 * failed; clients then take over as if the owner had died. A client whose process is stopped loses the transaction
 * it holds after `stoppedClientMs` (default 5000) when others wait for it.
 * @throws PegasError INVALID_INPUT when the dir holds foreign files, STORE_UNAVAILABLE when PGlite cannot open it
 *   or the socket cannot be served; the lock is released in both cases.
 */
export async function startHost(
  paths: PglitePaths,
  lock: OwnershipLock,
  onLost: () => void,
  stoppedClientMs?: number,
  template = false,
): Promise<PgliteHost> {
  let pg: PGlite | undefined;
  // First of all, so that a client waiting through initdb can tell this busy host from a stopped one.
  recordHost(paths.hostRecordPath);
  try {
    checkDataDir(paths.dataDir);
    const state = clusterState(paths.dataDir);
    if (state && state !== "shut down") {
      log.info("embedded database was not shut down cleanly; PGlite runs crash recovery", {
        dataDir: paths.dataDir,
        state,
      });
    }
    pg = await openPgliteEngine(paths, template);
    // The lock is ours, so a socket file left here belongs to a dead owner.
    if (existsSync(paths.socketPath)) unlinkSync(paths.socketPath);
    let host: PgliteHost | undefined;
    const server = new WireServer(pg, {
      stoppedClientMs,
      onBackendError: () => {
        log.error("embedded database failed; giving up the data dir so that a fresh host takes over", {
          dataDir: paths.dataDir,
        });
        void host?.close(0).then(onLost);
      },
    });
    await server.listen(paths.socketPath);
    host = makeHost(paths, lock, pg, server);
    return host;
  } catch (err) {
    await pg?.close().catch(() => {});
    forgetHost(paths.hostRecordPath);
    await lock.release();
    if (err instanceof PegasError) throw err;
    throw new PegasError(
      "STORE_UNAVAILABLE",
      `cannot open the embedded database at '${paths.dataDir}': ${(err as Error).message}`,
      {
        hint: "check that the dir is writable by this user and that the disk has free space; do not delete it: it holds the memory",
        cause: err,
      },
    );
  }
}

/**
 * Opens PGlite on the data dir, creating the cluster first when there is none (from the embedded template when
 * `template` is set and it fits, else by initdb). The assets and PGlite itself load lazily: a process that only
 * connects to another host never pays for them.
 */
async function openPgliteEngine(paths: PglitePaths, template: boolean): Promise<PGlite> {
  const started = performance.now();
  // The engine's modules load and compile while a new cluster is unpacked from the template.
  const assets = import("../../../platform/pglite-assets.ts");
  const loading = Promise.all([
    assets.then((m) => m.loadPgliteAssets(paths.cacheDir)),
    import("@electric-sql/pglite"),
    import("./durable-fs.ts"),
  ]);
  loading.catch(() => {}); // awaited below; a failure must not go unhandled while the cluster is unpacked
  // PostgreSQL's own output must never reach stdout, which carries MCP JSON-RPC.
  const toLog = (stream: string) => (line: string) => {
    log.debug("pglite output", { stream, line });
    return true;
  };
  // initdb.wasm is compiled only for a cluster made by initdb: PGlite reads it for nothing else.
  const create = async (dataDir: string, initdb = false) => {
    const [loaded, { PGlite }, { DURABLE_START_PARAMS, DurableNodeFS }] = await loading;
    const { initdbWasmModule } = initdb ? await (await assets).loadPgliteAssets(paths.cacheDir, true) : loaded;
    return PGlite.create({
      // fsync for real, as on a server (durable-fs.ts): PGlite's default NodeFS and start parameters skip it.
      fs: new DurableNodeFS(dataDir),
      startParams: [...DURABLE_START_PARAMS],
      pgliteWasmModule: loaded.pgliteWasmModule,
      ...(initdbWasmModule ? { initdbWasmModule } : {}),
      fsBundle: loaded.fsBundle,
      extensions: { pg_trgm: loaded.pgTrgmUrl },
      onStdout: toLog("stdout"),
      onStderr: toLog("stderr"),
    });
  };
  await ensureCluster(paths.dataDir, async (dir) => {
    if (template && (await fromTemplate(dir))) return;
    await (await create(dir, true)).close();
  });
  const pg = await create(paths.dataDir);
  try {
    await pg.exec("CREATE EXTENSION IF NOT EXISTS pg_trgm");
  } catch (err) {
    await pg.close().catch(() => {});
    throw err;
  }
  log.debug("embedded database opened", { dataDir: paths.dataDir, ms: Math.round(performance.now() - started) });
  return pg;
}

/** Unpacks the embedded template into `dir` when this build has one that fits; true when it did. */
async function fromTemplate(dir: string): Promise<boolean> {
  const { embeddedTemplate } = await import("../../../platform/pglite-template.ts");
  const archive = await embeddedTemplate();
  if (!archive) return false;
  const { unpackTemplate } = await import("./template.ts");
  const manifest = unpackTemplate(archive, dir);
  if (manifest) log.debug("embedded database created from the template", { migrations: manifest.migrations.length });
  return manifest !== null;
}

function makeHost(paths: PglitePaths, lock: OwnershipLock, pg: PGlite, server: WireServer): PgliteHost {
  let closing: Promise<void> | undefined;
  const close = async (graceMs: number) => {
    await server.close(graceMs);
    await withTimeout(pg.close(), PGLITE_CLOSE_TIMEOUT_MS).catch((err) =>
      log.warn("embedded database did not close cleanly; the next start runs crash recovery", { err }),
    );
    try {
      unlinkSync(paths.socketPath); // before releasing the lock: afterwards the path may be a new owner's
    } catch {
      // already gone (the server may remove it on close)
    }
    forgetHost(paths.hostRecordPath);
    await lock.release();
  };
  return { close: (graceMs = 1000) => (closing ??= close(graceMs)) };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
