/**
 * `rebuild` never drops a Qdrant collection of another dimension (it may hold another model's vectors, e.g. the
 * owner's `alicorn_atoms`) unless asked to with `recreate`; credentials in engine URLs never appear in messages.
 * The engine is the Qdrant REST stand-in (a test server, not Qdrant).
 */
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { redactConfig } from "../../src/config-redact.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { rebuildProjections } from "../../src/worker/projections.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { rejection } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";
import { suiteServices } from "../support/services.ts";

const skip = await pgSkipReason();
if (skip) console.error(`skipped rebuild refusal on PostgreSQL: ${skip}`);
const standin = await QdrantRestStandin.start();
standin.seedCollection("alicorn_atoms", { size: 1024, distance: "Cosine" });
const url = standin.url.replace("http://", "http://owner:s3cret@");
const suite = suiteServices(
  "postgres",
  { qdrant_url: url, qdrant_collection: "alicorn_atoms" },
  { skip, after: () => standin.stop() },
);

test.skipIf(Boolean(skip))(
  "a collection of another dimension is refused, not dropped; --recreate drops and refills it",
  async () => {
    const s = suite.services;
    await ingest(s, { text: "Палата № 6 — повесть Чехова. Ward No. 6 is a story by Chekhov.", title: "Палата" });
    const err = await rejection(rebuildProjections(s, "vector"));
    expect(err.code).toBe("INVALID_INPUT");
    expect(err.message).toContain("qdrant was not rebuilt");
    expect(err.message).toContain("1024");
    expect(err.hint).toContain("--recreate");
    expect(standin.requests.some((r) => r.method === "DELETE")).toBe(false);
    expect((standin.collections.get("alicorn_atoms")!.vectors as { size: number }).size).toBe(1024);
    // The password of the URL is never shown.
    const st = await stats(s);
    expect(JSON.stringify(st)).not.toContain("s3cret");
    expect(err.message).not.toContain("s3cret");

    const r = await rebuildProjections(s, "vector", () => {}, { recreate: true });
    expect((standin.collections.get("alicorn_atoms")!.vectors as { size: number }).size).toBe(s.embedder.dim);
    expect(r.projections[1].held).toEqual(r.projections[1].canonical);
  },
);

test("redacted config masks engine URL passwords and API keys; a Bolt port outside 1..65535 is refused", () => {
  const env = { HOME: "/tmp", XDG_CONFIG_HOME: "/tmp/pegas-no-config" };
  const cfg = loadConfig({
    env,
    flags: {
      qdrant_url: "http://a:pw1@127.0.0.1:6333",
      memgraph_url: "bolt://b:pw2@127.0.0.1:7687",
      qdrant_api_key: "k3y",
    },
  });
  const shown = JSON.stringify(redactConfig(cfg));
  for (const secret of ["pw1", "pw2", "k3y"]) expect(shown).not.toContain(secret);
  expect(() => loadConfig({ env, flags: { memgraph_url: "bolt://127.0.0.1:99999" } })).toThrow(/port outside/);
});
