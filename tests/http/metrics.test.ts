/**
 * GET /metrics' text (src/http/metrics.ts): real tool calls through an in-process MCP client over the embedded store
 * show up as counts by tool and outcome, latency histograms and ingest counters; the whole text is strict Prometheus
 * exposition; outbox and projection-lag gauges follow the store (through a 5 s cache), and a store that does not
 * answer is `pegas_store_up 0`. Counters are process-wide, so every check compares a scrape before and after.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { METRICS_CONTENT_TYPE, renderMetrics } from "../../src/http/metrics.ts";
import type { ProjectionSink } from "../../src/ports/projections/projection-sink.ts";
import { suiteMcpClient, toolCalls } from "../support/mcp-client.ts";
import { fixture, openTestServices, suiteServices } from "../support/services.ts";
import { parseExposition, sampleValue } from "./metrics-exposition.ts";

const repo = mkdtempSync(join(tmpdir(), "pegas-metrics-repo-"));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const t = suiteServices("pglite", { ingest_roots: [repo] });
const mcp = suiteMcpClient(t);
const { call, ok } = toolCalls(mcp);

const scrape = async (maxAgeMs?: number) => parseExposition(await renderMetrics(t.services, maxAgeMs));
const calls = (m: Awaited<ReturnType<typeof scrape>>, tool: string, outcome: string) =>
  sampleValue(m, "pegas_tool_calls_total", { tool, outcome });
const atoms = (m: Awaited<ReturnType<typeof scrape>>, tool: string, result: string) =>
  sampleValue(m, "pegas_ingest_atoms_total", { tool, result });

describe("metrics exposition", () => {
  test("tool calls by outcome, latency and ingest counters after real calls", async () => {
    const before = await scrape();
    const claim = `The Volga flows into the Caspian Sea (metrics test ${Date.now()})`;
    const first = await ok("memory_store", { type: "fact", claim });
    const again = await ok("memory_store", { type: "fact", claim });
    expect([first.created, again.created, again.atom_id]).toEqual([true, false, first.atom_id]);
    await ok("memory_search", { query: "Volga Caspian" });
    await ok("memory_search", { query: "куда впадает Волга" });
    const missing = await call("memory_get", { atom_id: 987_654_321 });
    expect(missing.isError).toBe(true);
    const ingested = await ok("memory_ingest", {
      text: "Палата № 6 стоит во дворе больницы. The ward has five patients.\n\nАндрей Ефимыч — врач.",
    });
    expect(ingested.atoms_created).toBeGreaterThan(0);
    const after = await scrape();

    expect(calls(after, "memory_store", "ok") - calls(before, "memory_store", "ok")).toBe(2);
    expect(calls(after, "memory_search", "ok") - calls(before, "memory_search", "ok")).toBe(2);
    expect(calls(after, "memory_get", "error") - calls(before, "memory_get", "error")).toBe(1);
    expect(calls(after, "memory_get", "ok") - calls(before, "memory_get", "ok")).toBe(0);
    expect(calls(after, "memory_ingest", "ok") - calls(before, "memory_ingest", "ok")).toBe(1);
    const count = (m: typeof after, tool: string) => sampleValue(m, "pegas_tool_call_duration_seconds_count", { tool });
    expect(count(after, "memory_store") - count(before, "memory_store")).toBe(2);
    expect(count(after, "memory_get") - count(before, "memory_get")).toBe(1);
    const sum = (m: typeof after) => sampleValue(m, "pegas_tool_call_duration_seconds_sum", { tool: "memory_ingest" });
    expect(sum(after)).toBeGreaterThan(sum(before));
    expect(atoms(after, "memory_store", "created") - atoms(before, "memory_store", "created")).toBe(1);
    expect(atoms(after, "memory_store", "existing") - atoms(before, "memory_store", "existing")).toBe(1);
    expect(atoms(after, "memory_ingest", "created") - atoms(before, "memory_ingest", "created")).toBe(
      ingested.atoms_created,
    );
    const docs = (m: typeof after) => sampleValue(m, "pegas_ingest_documents_total");
    expect(docs(after) - docs(before)).toBe(1);
  });

  test("memory_store_code's code atoms are counted", async () => {
    mkdirSync(join(repo, "pkg"), { recursive: true });
    writeFileSync(
      join(repo, "pkg", "geo.py"),
      'def river_length(name):\n    """Length of a river in km."""\n    return {"Volga": 3530}.get(name)\n\nclass Lake:\n    """A lake with its depth in metres."""\n    depth = 1642\n',
    );
    const before = await scrape();
    const out = await ok("memory_store_code", { path: repo, repo: "metrics-test" });
    expect(out.atoms.created).toBeGreaterThan(0);
    const after = await scrape();
    expect(atoms(after, "memory_store_code", "created") - atoms(before, "memory_store_code", "created")).toBe(
      out.atoms.created,
    );
    expect(atoms(after, "memory_store_code", "existing") - atoms(before, "memory_store_code", "existing")).toBe(
      out.atoms.existing,
    );
    expect(calls(after, "memory_store_code", "ok") - calls(before, "memory_store_code", "ok")).toBe(1);
  });

  test("the whole text follows the format and the naming conventions", async () => {
    expect(METRICS_CONTENT_TYPE).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    const m = await scrape(0);
    for (const [name, f] of m) {
      expect(name).toMatch(/^(pegas|process)_[a-z_]+$/);
      expect(f.help.length).toBeGreaterThan(10);
      if (f.type === "counter") expect(name).toEndWith("_total");
      if (f.type === "histogram") expect(name).toEndWith("_seconds");
    }
    expect(sampleValue(m, "process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
    expect(sampleValue(m, "pegas_uptime_seconds")).toBeGreaterThan(0);
    expect(sampleValue(m, "pegas_store_up")).toBe(1);
    // While the database is not open (it failed to open, or is still opening): the process's own metrics and
    // pegas_store_up 0, so that an alert on it fires for a store that never came up.
    const early = parseExposition(await renderMetrics(null));
    expect([...early.keys()].filter((n) => /outbox|store_up|projection/.test(n))).toEqual(["pegas_store_up"]);
    expect(sampleValue(early, "pegas_store_up")).toBe(0);
    expect(early.has("pegas_tool_calls_total")).toBe(true);
  });

  test("outbox gauges follow the store through the cache; lag per external projection", async () => {
    await ok("memory_store", {
      type: "fact",
      claim: `Lake Baikal holds a fifth of the world's fresh surface water (${Date.now()})`,
    });
    const backlog = await t.services.outbox.backlog();
    expect(backlog.pending).toBeGreaterThan(0);
    const fresh = await scrape(0);
    expect(sampleValue(fresh, "pegas_outbox_pending")).toBe(backlog.pending);
    expect(sampleValue(fresh, "pegas_outbox_dead")).toBe(backlog.dead);

    // Dead-letter one row: the cached scrape still shows the old figures, a fresh read the new ones.
    const [row] = await t.services.outbox.claim(1, 60_000, "metrics-test");
    expect(
      await t.services.outbox.fail([row.id], "metrics-test", "test", { maxAttempts: 1, baseMs: 1, maxMs: 1 }),
    ).toEqual({ retried: 0, dead: 1 });
    const cached = await scrape();
    expect(sampleValue(cached, "pegas_outbox_dead")).toBe(backlog.dead);
    const reread = await scrape(0);
    expect(sampleValue(reread, "pegas_outbox_dead")).toBe(backlog.dead + 1);
    expect(sampleValue(reread, "pegas_outbox_pending")).toBe(backlog.pending - 1);

    // No external projection on the embedded default: no lag series. With two, one series each, = the oldest row's age.
    expect(reread.get("pegas_projection_lag_seconds")?.samples ?? []).toEqual([]);
    const sinks = [{ name: "qdrant" }, { name: "memgraph" }] as unknown as ProjectionSink[];
    // The age read just before and just after the scrape bound the lag it shows, whatever the reads took.
    const ageBefore = (await t.services.outbox.backlog()).oldestPendingAgeS ?? -1;
    const withSinks = parseExposition(await renderMetrics({ ...t.services, sinks }));
    const ageAfter = (await t.services.outbox.backlog()).oldestPendingAgeS ?? -1;
    for (const projection of ["qdrant", "memgraph"]) {
      const lag = sampleValue(withSinks, "pegas_projection_lag_seconds", { projection });
      expect(lag).toBeGreaterThanOrEqual(ageBefore - 0.001);
      expect(lag).toBeLessThanOrEqual(ageAfter + 0.001);
    }
  });

  test("a store that does not answer is pegas_store_up 0, not an error", async () => {
    const other = await openTestServices("pglite");
    if (typeof other === "string") throw new Error(other);
    await other.dispose();
    const m = parseExposition(await renderMetrics(other.services));
    expect(sampleValue(m, "pegas_store_up")).toBe(0);
    expect(m.has("pegas_outbox_pending")).toBe(false);
  });

  test("a call the client cancels counts as cancelled, not as an error", async () => {
    const before = await scrape();
    const text = readFileSync(fixture("text/en_gutenberg_8868_botchan.txt"), "utf8");
    const ac = new AbortController();
    const pending = mcp.client.callTool({ name: "memory_ingest", arguments: { text } }, undefined, {
      signal: ac.signal,
      timeout: 60_000,
    });
    setTimeout(() => ac.abort("test"), 50);
    await expect(pending).rejects.toThrow();
    let after = await scrape();
    for (
      let i = 0;
      i < 200 && calls(after, "memory_ingest", "cancelled") === calls(before, "memory_ingest", "cancelled");
      i++
    ) {
      await Bun.sleep(100);
      after = await scrape();
    }
    expect(calls(after, "memory_ingest", "cancelled") - calls(before, "memory_ingest", "cancelled")).toBe(1);
    expect(calls(after, "memory_ingest", "error") - calls(before, "memory_ingest", "error")).toBe(0);
  });

  test("the reader used here rejects text Prometheus would reject", () => {
    const h = (lines: string[]) => ["# HELP h_seconds x", "# TYPE h_seconds histogram", ...lines].join("\n");
    const good = [
      'h_seconds_bucket{le="0.1"} 1',
      'h_seconds_bucket{le="+Inf"} 2',
      "h_seconds_sum 0.3",
      "h_seconds_count 2",
    ];
    expect(parseExposition(h(good)).get("h_seconds")?.samples.length).toBe(4);
    expect(() => parseExposition(h(['h_seconds_bucket{le="0.1"} 3', ...good.slice(1)]))).toThrow("cumulative");
    expect(() => parseExposition(h([...good.slice(0, 3), "h_seconds_count 3"]))).toThrow("+Inf");
    expect(() => parseExposition(h([good[0], ...good.slice(2)]))).toThrow("+Inf");
    expect(() => parseExposition("c_total 1")).toThrow("HELP and TYPE");
    expect(() => parseExposition("# HELP c_total x\n# TYPE c_total counter\nc_total -1")).toThrow("negative");
    expect(() => parseExposition('# HELP g x\n# TYPE g gauge\ng{a="1} 1')).toThrow();
    const split = '# HELP a x\n# TYPE a gauge\n# HELP b x\n# TYPE b gauge\na 1\nb 1\na{l="2"} 1';
    expect(() => parseExposition(split)).toThrow("contiguous");
  });
});
