/**
 * A full disk under the embedded database (simulated: no small file system can be mounted here). Writes of the data
 * files failing with ENOSPC (node:fs's writeSync, which PGlite's NODEFS calls, made to fail for files of the data dir)
 * give STORE_UNAVAILABLE with a hint to free space, leave no part of the document, and the store works as soon as
 * there is room again. With too little free space (statfs made to report it) a write is refused before it starts, so
 * that the write-ahead log never meets a full disk (PostgreSQL PANICs there, and the embedded one never answers again).
 */
import { afterEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import { join } from "node:path";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { rejectsWith } from "../support/errors.ts";
import { suiteMcpClient, toolCalls } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const tools = toolCalls(suiteMcpClient(t));
const sql = () => (t.services.maintenance as SqlCanonicalStore).db.sql;

const realWriteSync = fs.writeSync;
const realStatfsSync = fs.statfsSync;
afterEach(() => {
  fs.writeSync = realWriteSync;
  fs.statfsSync = realStatfsSync;
});

/** Makes writes to files under `<data dir>/<under>` fail with ENOSPC; returns a counter of the failed writes. */
function failWritesUnder(under: string): { failed: number } {
  const root = join(t.config.data_dir!, under);
  const count = { failed: 0 };
  fs.writeSync = ((fd: number, ...rest: unknown[]) => {
    let path = "";
    try {
      path = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {}
    if (path.startsWith(root)) {
      count.failed++;
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), {
        code: "ENOSPC",
        errno: -28,
      });
    }
    return (realWriteSync as (...a: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync;
  return count;
}

/** Makes the data dir's file system report `freeBytes` free. */
function reportFree(freeBytes: number): void {
  fs.statfsSync = ((path: fs.PathLike, opts?: fs.StatFsOptions) => {
    const st = realStatfsSync(path, opts as never) as fs.StatsFs;
    return { ...st, bavail: Math.floor(freeBytes / st.bsize) };
  }) as typeof fs.statfsSync;
}

/** The rows of the tables an ingest writes. */
async function rowCounts(): Promise<Record<string, number>> {
  const [r] = await sql()`
    SELECT (SELECT count(*) FROM pm_document)::int AS documents, (SELECT count(*) FROM pm_chunk)::int AS chunks,
           (SELECT count(*) FROM pm_atom)::int AS atoms, (SELECT count(*) FROM pm_citation)::int AS citations,
           (SELECT count(*) FROM pm_atom_embedding)::int AS embeddings`;
  return { ...r };
}

/** About 60 KB of a real novel: enough pages that storing it must extend the data files. */
const NOVEL = fs
  .readFileSync(join(import.meta.dir, "../../../shared/fixtures/text/en_gutenberg_8868_botchan.txt"), "utf8")
  .slice(0, 60_000);

describe("a full disk under the embedded database", () => {
  test("data files that cannot grow: STORE_UNAVAILABLE, nothing half-written, and it works once there is room", async () => {
    await ingest(t.services, { text: "Warm-up: crows winter in the city and eat bread by the river." });
    const before = await rowCounts();
    const writes = failWritesUnder("base");
    const err = await rejectsWith(ingest(t.services, { text: NOVEL, title: "Botchan" }), "STORE_UNAVAILABLE");
    expect(writes.failed).toBeGreaterThan(0);
    expect(err.message).toContain("disk is full");
    expect(err.hint).toContain("free disk space");
    fs.writeSync = realWriteSync;
    expect(await rowCounts()).toEqual(before); // the transaction was rolled back whole

    const r = await ingest(t.services, { text: NOVEL, title: "Botchan" });
    expect(r.atoms_created).toBeGreaterThan(10);
    const hits = await search(t.services, { query: "Botchan", k: 3, doc_id: r.doc_id!, log_miss: false });
    expect(hits.hits.length).toBeGreaterThan(0);
  }, 120_000);

  test("too little free space: refused before writing, over the core and MCP alike; fine again with room", async () => {
    const before = await rowCounts();
    reportFree(10 * 1024 * 1024);
    const writes = failWritesUnder(""); // nothing may be written to the data dir at all
    const err = await rejectsWith(
      ingest(t.services, { text: "Magpies nest in the park beside the hospital every spring." }),
      "STORE_UNAVAILABLE",
    );
    expect(err.message).toContain("10.0 MiB free in");
    expect(err.message).toContain(t.config.data_dir!);
    expect(err.hint).toContain("free disk space");
    const stored = await tools.call("memory_store", { type: "fact", claim: "Magpies nest in the park in spring." });
    expect(stored.isError).toBe(true);
    expect(tools.text(stored)).toContain("STORE_UNAVAILABLE");
    expect(tools.text(stored)).toContain("disk of the embedded database is full");
    expect(writes.failed).toBe(0);
    fs.writeSync = realWriteSync;
    fs.statfsSync = realStatfsSync;
    expect(await rowCounts()).toEqual(before);
    expect(
      (await tools.ok("memory_store", { type: "fact", claim: "Magpies nest in the park in spring." })).atom_id,
    ).toBeNumber();
  }, 60_000);
});
