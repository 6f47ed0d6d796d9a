/**
 * Graceful shutdown of the HTTP server: a long memory_ingest in flight when the runtime stops is cancelled within
 * ≈ 1 s (0.65 s grace, then abort, close, and up to 1 s for the answer), the client gets the cancellation as its answer, the listener stops
 * answering, and nothing of the document remains in the database (its transaction rolled back).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setLogLevel } from "../../src/log.ts";
import { createServices } from "../../src/wiring/services.ts";
import { fixture } from "../support/services.ts";
import { httpClient, httpServer } from "./support.ts";

// Quieter while this file runs; restored after it, since every test file shares the one process logger.
beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

test("stop during a long ingest over HTTP: cancelled within ≈ 1 s, nothing half-stored, listener closed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pegas-http-stop-"));
  const big = join(dir, "big.txt");
  const text = readFileSync(fixture("text/ru_chekhov_palata_no6.txt"), "utf8");
  writeFileSync(big, Array.from({ length: 50 }, (_, i) => text.replaceAll("Рагин", `Рагин${i}`)).join("\n\n"));
  const s = await httpServer({ ingest_roots: [dir] });
  try {
    const { client } = await httpClient(s.listener.url);
    await client.callTool({ name: "memory_stats", arguments: {} }); // the database is open
    const call = client
      .callTool({ name: "memory_ingest", arguments: { path: big } }, undefined, { timeout: 60_000 })
      .then(
        (r) => ({ result: r, error: null }),
        (e: unknown) => ({ result: null, error: e }),
      );
    await Bun.sleep(700);
    expect(s.runtime.calls.inflight.size).toBe(1);
    const t0 = performance.now();
    await s.runtime.stop("test");
    const stopMs = performance.now() - t0;
    const outcome = await call;
    const answeredMs = performance.now() - t0;
    console.warn(
      `http stop: done ${Math.round(stopMs)} ms after stop(), the client had its answer after ${Math.round(answeredMs)} ms`,
    );
    // The answer reaches the client before its session closes: no client is left waiting for its own timeout.
    expect(outcome.error).toBeNull();
    expect(outcome.result?.isError).toBe(true);
    expect(JSON.stringify(outcome.result?.content)).toContain(
      "CANCELLED: memory_ingest was cancelled because the server is shutting down",
    );
    expect(
      await fetch(`${s.listener.url}/healthz`).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");

    const services = await createServices(s.config);
    try {
      const stats = await services.maintenance.stats();
      expect(stats.documents.total).toBe(0);
      expect(stats.atoms.total).toBe(0);
    } finally {
      await services.close(0);
    }
  } finally {
    await s.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
