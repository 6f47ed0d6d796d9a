/**
 * Concurrent HTTP clients against `serve --http` run as its own process (`bun src/main.ts`), on the embedded store
 * and on PostgreSQL: 8 MCP clients (one session each) search in English and Russian and store distinct claims for
 * 5 s; no call fails, every stored atom is read back by id with its claim, none is merged as a duplicate, a sample is
 * found by search, and /metrics counted exactly the calls made (one memory_stats opens the database first). Correctness only: speed is the http_load benchmark's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runHttpLoad, verifyStored, warmUp } from "../../bench/lib/http-load.ts";
import { type HttpServerProc, startHttpServer } from "../../bench/lib/http-server-proc.ts";
import { isolatedEnv } from "../support/binary.ts";
import { createTempPgDatabase, pgSkipReason } from "../support/pg.ts";
import { openTestServices } from "../support/services.ts";
import { parseExposition, sampleValue } from "./metrics-exposition.ts";

const ROOT = resolve(import.meta.dir, "../..");
const CLIENTS = 8;
const DURATION_MS = 5_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 60_000);

/** A migrated embedded data dir (a copy of the test template), removed at the end. */
async function pgliteArgs(): Promise<string[]> {
  const t = await openTestServices("pglite");
  if (typeof t === "string") throw new Error(t);
  await t.services.close(0);
  cleanups.push(() => rmSync(t.config.data_dir, { recursive: true, force: true }));
  return ["--data-dir", t.config.data_dir];
}

async function postgresArgs(): Promise<string[]> {
  const db = await createTempPgDatabase("pegas_http_load");
  if (typeof db === "string") throw new Error(db);
  cleanups.push(() => db.drop());
  return ["--database-url", db.url];
}

async function spawnServer(dbArgs: string[]): Promise<HttpServerProc> {
  const home = mkdtempSync(join(tmpdir(), "pegas-http-load-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const srv = await startHttpServer({ argv: [process.execPath, join(ROOT, "src/main.ts")], env: isolatedEnv(home), cwd: home }, dbArgs);
  cleanups.push(async () => void (await srv.stop(5_000)));
  return srv;
}

const pgSkip = await pgSkipReason();

for (const backend of ["pglite", "postgres"] as const) {
  describe.skipIf(backend === "postgres" && pgSkip !== null)(`${CLIENTS} HTTP clients on ${backend}`, () => {
    test("no errors, no lost writes, no merges, metrics count every call", async () => {
      const srv = await spawnServer(backend === "pglite" ? await pgliteArgs() : await postgresArgs());
      await warmUp(srv.url);
      const load = await runHttpLoad({ url: srv.url, clients: CLIENTS, durationMs: DURATION_MS, storeShare: 0.5, runTag: `test-${backend}`, seed: 3 });
      expect(load.errors).toEqual([]);
      expect(load.merged).toEqual([]);
      expect(load.stored.length).toBeGreaterThan(CLIENTS);
      expect((load.latencyMs.memory_search ?? []).length).toBeGreaterThan(CLIENTS);
      expect(new Set(load.stored.map((s) => s.atomId)).size).toBe(load.stored.length);

      const verify = await verifyStored(srv.url, load.stored, { clients: CLIENTS, searchSample: 20 });
      expect(verify.readErrors).toEqual([]);
      expect(verify.lost).toEqual([]);
      expect(verify.searchSampled).toBeGreaterThan(0);
      expect(verify.searchFound).toBe(verify.searchSampled);

      const res = await fetch(`${srv.url}/metrics`);
      expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
      const m = parseExposition(await res.text());
      const calls = (tool: string, outcome: string) => sampleValue(m, "pegas_tool_calls_total", { tool, outcome });
      expect(calls("memory_store", "ok")).toBe(load.stored.length);
      expect(calls("memory_search", "ok")).toBe(load.latencyMs.memory_search.length + verify.searchSampled);
      expect(calls("memory_get", "ok")).toBe(load.stored.length);
      expect(calls("memory_store", "error") + calls("memory_search", "error") + calls("memory_get", "error")).toBe(0);
      expect(calls("memory_stats", "ok")).toBe(1);
      expect(sampleValue(m, "pegas_ingest_atoms_total", { tool: "memory_store", result: "created" })).toBe(load.stored.length);
      expect(sampleValue(m, "pegas_store_up")).toBe(1);
      expect(await srv.stop()).toBe(0);
    }, 120_000);
  });
}
