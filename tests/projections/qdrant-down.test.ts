/**
 * Acceptance: with QDRANT_URL pointing at a closed port, ingests succeed, memory_search still answers and says it is
 * degraded, the outbox backlog grows; when the projection comes back, the backlog drains to zero and nothing is lost.
 * The projection is the Qdrant REST stand-in (a test server, not Qdrant), stopped and started on the same port.
 */
import { expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { drainOutbox } from "../../src/worker/projections.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";
import { fixture, suiteServices } from "../support/services.ts";

const standin = await QdrantRestStandin.start();
await standin.stop(); // the port is now closed: connections are refused
const suite = suiteServices(
  "pglite",
  { qdrant_url: standin.url, qdrant_timeout_ms: 2000 },
  { after: () => standin.stop() },
);

test("Qdrant down: writes succeed, search degrades, backlog grows, then drains when it returns", async () => {
  const s = suite.services;
  const r = await ingest(s, { path: fixture("text/ru_chekhov_palata_no6.txt") }, { trustedPath: true });
  expect(r.errors).toEqual([]);
  expect(r.documents[0].atoms_created).toBeGreaterThan(100);

  const hits = await search(s, { query: "больничная палата", k: 5 });
  expect(hits.hits.length).toBe(5);
  expect(hits.degraded).toContain("qdrant unavailable");
  expect(hits.degraded).toContain("embedded-flat");

  // The worker tries, fails, and keeps every row (none acked, none dead after one try).
  const before = await s.outbox.backlog();
  expect(before.pending).toBeGreaterThan(r.documents[0].atoms_created);
  expect(await drainOutbox(s)).toBe(0);
  expect((await s.outbox.backlog()).pending).toBe(before.pending);
  const down = await stats(s);
  expect(down.projections.external[0]).toMatchObject({ name: "qdrant", held: null });
  expect(down.projections.external[0].error).toContain(standin.url);

  // Back on the same port: the rows become due after their backoff and drain to zero; Qdrant holds every vector.
  await standin.start();
  const deadline = Date.now() + 20_000;
  while ((await s.outbox.backlog()).pending > 0 && Date.now() < deadline) {
    await drainOutbox(s);
    await Bun.sleep(250);
  }
  const after = await stats(s);
  expect(after.outbox).toMatchObject({ pending: 0, dead: 0 });
  const q = after.projections.external[0];
  expect(q.error).toBeUndefined();
  expect(q.drift).toEqual({ atom: 0 });
  expect(q.held?.atom).toBe(after.embeddings[s.embedder.model]);
}, 120_000);
