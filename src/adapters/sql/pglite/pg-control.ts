/**
 * Reads the cluster state from `global/pg_control`, so the owner can tell (and log) whether the previous owner
 * shut PGlite down cleanly or crash recovery is about to run.
 */
import { openSync, readSync, closeSync } from "node:fs";
import { join } from "node:path";

/** PostgreSQL's DBState enum (src/include/catalog/pg_control.h), in order. */
const STATES = [
  "starting up",
  "shut down",
  "shut down in recovery",
  "shutting down",
  "in crash recovery",
  "in archive recovery",
  "in production",
] as const;

/** A cluster state as pg_controldata names it. */
export type ClusterState = (typeof STATES)[number];

/**
 * The state recorded in `<dataDir>/global/pg_control`: "shut down" after a clean close, "in production" while open
 * or after a crash; null when there is no cluster yet or the file is unreadable. Reads 20 bytes; never throws.
 */
export function clusterState(dataDir: string): ClusterState | null {
  let fd: number | undefined;
  try {
    fd = openSync(join(dataDir, "global", "pg_control"), "r");
    const head = Buffer.alloc(20);
    if (readSync(fd, head, 0, 20, 0) < 20) return null;
    // uint64 system_identifier, uint32 pg_control_version, uint32 catalog_version_no, then int32 state
    // (little-endian: PGlite is WASM32).
    return STATES[head.readInt32LE(16)] ?? null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
