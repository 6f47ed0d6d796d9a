/**
 * /readyz with Ollama configured: the embedder becomes required. Up when the model is pulled (a stand-in Ollama);
 * 503 naming the embedder when the model is gone, or when Ollama is unreachable at start (the database answered,
 * so it is reported up). The probe reads the model list only: it never embeds, so readiness polling loads no model.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHttpApp } from "../../src/http/app.ts";
import { setLogLevel } from "../../src/log.ts";
import { startOllamaStub, STUB_MODEL } from "../support/ollama-stub.ts";
import { createTempPgDatabase, pgSkipReason } from "../support/pg.ts";
import { pgliteRuntime, runtimeOf, type TestRuntime } from "./support.ts";

// Quieter while this file runs; restored after it, since every test file shares the one process logger.
beforeAll(() => setLogLevel("error"));
afterAll(() => setLogLevel("info"));
const stub = startOllamaStub();
const opened: TestRuntime[] = [];
const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.dispose()));
  await Promise.all(drops.map((d) => d()));
  await stub.stop();
});

type Body = {
  status: string;
  down: string[];
  dependencies: Record<string, { state: string; required: boolean; error?: string }>;
};

/** /readyz once the services are open (the first answer may only say that the database is still opening). */
async function readyz(app: ReturnType<typeof createHttpApp>["app"]): Promise<{ status: number; body: Body }> {
  for (let i = 0; ; i++) {
    const res = await app.request("/readyz");
    const body = (await res.json()) as Body;
    if (!/did not answer/.test(body.dependencies.database.error ?? "") || i === 5) return { status: res.status, body };
  }
}

describe("Ollama configured", () => {
  test("model pulled: embedder up and required; model gone: 503 naming the embedder; no embedding sent by the probe", async () => {
    const t = await pgliteRuntime({ ollama_host: stub.url, embed_model: STUB_MODEL, embed_dim: 768 });
    opened.push(t);
    const { app } = createHttpApp({ runtime: t.runtime });
    const up = await readyz(app);
    expect(up.status).toBe(200);
    expect(up.body.dependencies.embedder).toMatchObject({ state: "up", required: true });
    const embeds = stub.requests.length; // the services' own readiness probe at start
    await readyz(app);
    expect(stub.requests.length).toBe(embeds);

    stub.models = ["another-model"];
    const gone = await readyz(app);
    stub.models = [STUB_MODEL];
    expect(gone.status).toBe(503);
    expect(gone.body.down).toEqual(["embedder"]);
    expect(gone.body.dependencies.embedder.error).toContain(`model '${STUB_MODEL}' is not pulled`);
    expect(gone.body.dependencies.database.state).toBe("up");
  }, 60_000);

  test("Ollama unreachable when the services open: database up, embedder down, 503", async () => {
    const skip = await pgSkipReason();
    if (skip) return;
    const db = await createTempPgDatabase("pegas_readyz");
    if (typeof db === "string") throw new Error(db);
    drops.push(db.drop);
    const t = runtimeOf({ database_url: db.url, ollama_host: "http://127.0.0.1:1", embed_model: STUB_MODEL });
    opened.push(t);
    const { app } = createHttpApp({ runtime: t.runtime });
    const r = await readyz(app);
    expect(r.status).toBe(503);
    expect(r.body.down).toEqual(["embedder"]);
    expect(r.body.dependencies.database).toMatchObject({ state: "up", required: true });
    expect(r.body.dependencies.embedder.error).toContain("cannot reach Ollama");
  }, 60_000);
});
