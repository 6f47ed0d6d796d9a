/**
 * Early start of the embedded database's engine: the CLI and the server call {@link prewarmDatabase} as soon as they
 * know a command will open the store, before they load the modules of the services. PGlite's WebAssembly is then
 * inflated and compiled (≈ 0.3 CPU-s, partly on the engine's own compiler threads) while that loading runs, instead
 * of after it. This module loads nothing of the store itself.
 */
import type { Config } from "../config.ts";
import { readHost } from "../adapters/sql/pglite/host-process.ts";
import { hostRecordOf } from "../adapters/sql/pglite/paths.ts";

/**
 * Starts compiling PGlite when `config` names an embedded data dir that no running process hosts (this process
 * will likely host it; a client of another host never needs the engine, unless it takes over). Resolves once the
 * work is under way: await it before importing the services, or their module loading (which holds the event loop)
 * runs first. Never rejects: a failure here shows again, with its proper error, when the database opens.
 */
export async function prewarmDatabase(config: Config): Promise<void> {
  if (config.database_url) return;
  try {
    const record = hostRecordOf(config.data_dir, config.runtime_dir); // creates nothing: a bad command writes nothing
    const host = record && readHost(record);
    if (host && host.state !== "gone") return;
    (await import("../platform/pglite-assets.ts")).prewarmPgliteAssets();
  } catch {
    // reported by the open
  }
}
