/**
 * Concurrent HTTP clients against `serve --http` run as its own process (`bun main.ts`), on the embedded store
 * and on PostgreSQL: 8 MCP clients (one session each) search in English and Russian and store distinct claims for
 * 5 s; no call fails, none is merged as a duplicate, and /metrics counted exactly the calls made (one memory_stats
 * opens the database first). Then the server is stopped with SIGTERM (exit 0) and started again on the same store,
 * and every stored atom is read back by id with its claim and a sample is found by search: what was acknowledged
 * survived a restart. The read-back also checks atoms a store was answered with (existing or merged): one that was
 * retracted or does not exist counts as lost. Correctness only: speed is the http_load benchmark's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { closeHttpClient, connectHttpClient, runHttpLoad, verifyStored, warmUp } from "../../bench/lib/http-load.ts";
import {
  type HttpServerProc,
  restartHttpServer,
  type ServerCommand,
  startHttpServer,
} from "../../bench/lib/http-server-proc.ts";
import { isolatedEnv } from "../support/binary.ts";
import { createTempPgDatabase, pgSkipReason } from "../support/pg.ts";
import { openTestServices } from "../support/services.ts";
import { parseExposition, sampleValue } from "./metrics-exposition.ts";

const ROOT = resolve(import.meta.dir, "../..");
const CLIENTS = 8;
const DURATION_MS = 3_000;
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

function serverCommand(): ServerCommand {
  const home = mkdtempSync(join(tmpdir(), "pegas-http-load-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return { argv: [process.execPath, join(ROOT, "main.ts")], env: isolatedEnv(home), cwd: home };
}

/** Stops the server at the end whatever happens (a no-op once it has exited). */
function tracked(srv: HttpServerProc): HttpServerProc {
  cleanups.push(async () => void (await srv.stop(5_000)));
  return srv;
}

async function scrape(url: string) {
  const res = await fetch(`${url}/metrics`);
  expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
  const m = parseExposition(await res.text());
  return { m, calls: (tool: string, outcome: string) => sampleValue(m, "pegas_tool_calls_total", { tool, outcome }) };
}

const pgSkip = await pgSkipReason();

for (const backend of ["pglite", "postgres"] as const) {
  describe.skipIf(backend === "postgres" && pgSkip !== null)(`${CLIENTS} HTTP clients on ${backend}`, () => {
    test("no errors, no merges, metrics count every call; after a clean restart no lost writes", async () => {
      const dbArgs = backend === "pglite" ? await pgliteArgs() : await postgresArgs();
      const cmd = serverCommand();
      const srv = tracked(await startHttpServer(cmd, dbArgs));
      await warmUp(srv.url);
      const load = await runHttpLoad({
        url: srv.url,
        clients: CLIENTS,
        durationMs: DURATION_MS,
        minCallsPerClient: 6,
        storeShare: 0.5,
        runTag: `test-${backend}`,
        seed: 3,
      });
      expect(load.errors).toEqual([]);
      expect(load.merged).toEqual([]);
      expect(load.stored.length).toBeGreaterThan(CLIENTS);
      expect((load.latencyMs.memory_search ?? []).length).toBeGreaterThan(CLIENTS);
      expect(new Set(load.stored.map((s) => s.atomId)).size).toBe(load.stored.length);

      const before = await scrape(srv.url);
      expect(before.calls("memory_store", "ok")).toBe(load.stored.length);
      expect(before.calls("memory_search", "ok")).toBe(load.latencyMs.memory_search.length);
      expect(before.calls("memory_store", "error") + before.calls("memory_search", "error")).toBe(0);
      expect(before.calls("memory_stats", "ok")).toBe(1);
      expect(sampleValue(before.m, "pegas_ingest_atoms_total", { tool: "memory_store", result: "created" })).toBe(
        load.stored.length,
      );
      expect(sampleValue(before.m, "pegas_store_up")).toBe(1);

      // Durability: the reads go to a new process on the same store, after a clean stop (exit 0).
      const again = tracked(await restartHttpServer(srv, cmd, dbArgs));
      const verify = await verifyStored(again.url, load, { clients: CLIENTS, searchSample: 20 });
      expect(verify.readErrors).toEqual([]);
      expect(verify.lost).toEqual([]);
      expect(verify.searchSampled).toBeGreaterThan(0);
      expect(verify.searchFound).toBe(verify.searchSampled);
      const after = await scrape(again.url);
      expect(after.calls("memory_get", "ok")).toBe(load.stored.length);
      expect(after.calls("memory_search", "ok")).toBe(verify.searchSampled);
      expect(after.calls("memory_get", "error") + after.calls("memory_search", "error")).toBe(0);
      expect(after.calls("memory_store", "ok")).toBe(0);

      // Answers of merged or existing stores are read back too: a retracted or missing atom is a lost write.
      const c = await connectHttpClient(again.url);
      const claim = (n: number) => `The lighthouse keeper logs the ${n}th ship of the night [${backend}-merged]`;
      const ids: number[] = [];
      for (const n of [1, 2]) {
        const r = await c.client.callTool({ name: "memory_store", arguments: { type: "fact", claim: claim(n) } });
        ids.push((r.structuredContent as { atom_id: number }).atom_id);
      }
      const forgot = await c.client.callTool({
        name: "memory_forget",
        arguments: { atom_ids: [ids[1]], reason: "load test: a retracted merge target" },
      });
      expect(forgot.isError).toBeFalsy();
      await closeHttpClient(c);
      const merged = [
        { claim: claim(1), atomId: ids[0], nearDuplicateOf: null },
        { claim: claim(2), atomId: ids[1], nearDuplicateOf: null },
        { claim: "an answer naming no atom", atomId: 987_654_321, nearDuplicateOf: null },
      ];
      const checked = await verifyStored(again.url, { stored: [], merged }, { clients: 2, searchSample: 0 });
      expect(checked.mergedChecked).toBe(3);
      expect(checked.readErrors).toEqual([]);
      expect(checked.lost.map((l) => l.atomId).sort((a, b) => a - b)).toEqual([ids[1], 987_654_321]);
      expect(checked.lost.every((l) => l.why.startsWith("merged/existing answer: "))).toBe(true);
      expect(await again.stop()).toBe(0);
    }, 180_000);
  });
}
