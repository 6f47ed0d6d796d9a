/**
 * Free disk space before a write to the embedded database. PostgreSQL refuses a data file that cannot grow with an
 * ordinary error (SQLSTATE 53100, disk_full: the transaction is rolled back), but a WAL that cannot be written ends
 * it with PANIC (PostgreSQL manual, "Disk Full Failure", 29.2 in version 15: "If the disk holding the WAL files grows
 * full, database server panic and consequent shutdown might occur"), and the embedded PostgreSQL then never answers
 * again (seen: one WAL write failing with ENOSPC hung the process). So a write is refused before it starts when
 * the data dir's file system lacks room for it plus a reserve for the WAL; the server of a `database_url` is left to
 * its own operator.
 */
import fs from "node:fs";
import { PegasError } from "../../../errors.ts";
import type { Database } from "../database.ts";

/** Room always kept free for the WAL: three segments of 16 MiB (a checkpoint may need a new one before it recycles). */
export const WAL_RESERVE_BYTES = 48 * 1024 * 1024;

/**
 * Bytes on disk per byte of input text: the heap row (and TOAST), the full-text vector, the GIN and btree index
 * entries, and the WAL that carries all of them, with full-page images after a checkpoint. An over-estimate on
 * purpose: refusing a write that would have fitted costs a retry after freeing space; a write that does not fit
 * costs the store.
 */
export const BYTES_ON_DISK_PER_INPUT_BYTE = 8;

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Refuses a write of about `inputBytes` bytes of text to an embedded database whose file system has less free space
 * than {@link WAL_RESERVE_BYTES} plus `inputBytes` × {@link BYTES_ON_DISK_PER_INPUT_BYTE}. Does nothing for PostgreSQL
 * or when the free space cannot be read (the write then meets the disk as it is).
 * @throws PegasError STORE_UNAVAILABLE naming the data dir, the free and the needed space, with a hint to free space.
 */
export function checkDiskSpace(db: Pick<Database, "kind" | "location">, inputBytes: number, what: string): void {
  if (db.kind !== "pglite") return;
  let free: number;
  try {
    const st = fs.statfsSync(db.location);
    free = Number(st.bavail) * Number(st.bsize);
  } catch {
    return;
  }
  const need = WAL_RESERVE_BYTES + Math.max(0, inputBytes) * BYTES_ON_DISK_PER_INPUT_BYTE;
  if (free >= need) return;
  throw new PegasError(
    "STORE_UNAVAILABLE",
    `the disk of the embedded database is full: ${mib(free)} free in ${db.location}, less than the ${mib(need)} needed to ${what} (the write-ahead log's reserve of ${mib(WAL_RESERVE_BYTES)} included)`,
    { hint: "free disk space there (or move data_dir to a larger disk), then retry: nothing of this call was stored" },
  );
}
