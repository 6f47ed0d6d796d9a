/**
 * `pegas-memory doctor` on the canonical store: a healthy embedded (PGlite) store held open by another "server", a
 * data dir not created yet (doctor must not create it), a healthy PostgreSQL database, PostgreSQL at a closed port,
 * pending migrations (doctor must not apply them), and stored vectors that do not fit the active model.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { createServices } from "../../src/wiring/services.ts";
import { closedPort } from "../support/bolt-standin.ts";
import { startOllamaStub, STUB_MODEL } from "../support/ollama-stub.ts";
import { createTempPgDatabase, pgSkipReason } from "../support/pg.ts";
import { openTestServices, type TestServices, testConfig } from "../support/services.ts";
import { checkOf, doctorJson, failures } from "./support.ts";

describe("doctor on the embedded store", () => {
  let t: TestServices;
  beforeAll(async () => {
    const opened = await openTestServices("pglite");
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
    await storeAtom(t.services, { type: "fact", claim: "Обсерватория Пулково основана в 1839 году." });
    await storeAtom(t.services, {
      type: "fact",
      claim: "The Pulkovo meridian was the prime meridian of Russian maps.",
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  test("a healthy store held by another process: exit 0, its version, schema, embeddings, nothing external", async () => {
    const { code, report, err } = await doctorJson(t.config);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(err).toBe("");
    const db = checkOf(report, "database");
    expect(db.level).toBe("ok");
    expect(db.version).toMatch(/^\d+(\.\d+)* \(PGlite\)$/);
    expect(db.detail).toContain(t.config.data_dir);
    expect(checkOf(report, "schema").detail).toMatch(/^schema version \d+, no pending migrations$/);
    const emb = checkOf(report, "embeddings");
    expect(emb.level).toBe("ok");
    expect(emb.detail).toContain("pegas-lexical-hash-v1-d256 (lexical, dim 256): 2 of 2 atom(s) embedded");
    for (const n of ["qdrant", "memgraph", "ollama", "search", "proxy", "projections"])
      expect(checkOf(report, n).level).toBe("info");
    expect(checkOf(report, "outbox").level).toBe("ok");
    expect(report.config.data_dir).toBe(t.config.data_dir);
  });

  test("another active model (a new local dimension): the atoms without its vectors are a warning, exit still 0", async () => {
    const { code, report } = await doctorJson({ ...t.config, local_embed_dim: 128 });
    expect(code).toBe(0);
    const emb = checkOf(report, "embeddings");
    expect(emb.level).toBe("warn");
    expect(emb.detail).toContain("0 of 2 atom(s) embedded");
    expect(emb.detail).toContain("pegas-lexical-hash-v1-d256 (dim 256) × 2");
    expect(emb.hint).toContain("rebuild vector");
  });

  test("a data dir that does not exist yet is a warning, and doctor does not create it", async () => {
    const parent = mkdtempSync(join(tmpdir(), "pegas-doctor-"));
    try {
      const dir = join(parent, "never");
      const { code, report } = await doctorJson(testConfig({ data_dir: dir, log_level: "warn" }));
      expect(code).toBe(0);
      expect(checkOf(report, "database").level).toBe("warn");
      expect(checkOf(report, "database").detail).toContain("does not exist yet");
      expect(checkOf(report, "schema").detail).toStartWith("skipped");
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("doctor on PostgreSQL", () => {
  let skip: string | null = null;
  beforeAll(async () => {
    skip = await pgSkipReason();
  });

  test("a healthy database: exit 0 with the server's version", async () => {
    if (skip) return console.warn(`skipped: ${skip}`);
    const tmp = await createTempPgDatabase("pegas_doctor");
    if (typeof tmp === "string") throw new Error(tmp);
    try {
      const config = testConfig({ database_url: tmp.url, log_level: "warn" });
      await (await createServices(config)).close();
      const probe = postgres(tmp.url, { max: 1 });
      const [{ server_version }] = await probe`SHOW server_version`;
      await probe.end();
      const { code, report } = await doctorJson(config);
      expect(code).toBe(0);
      const db = checkOf(report, "database");
      expect(db.version).toBe(String(server_version).split(" ")[0]);
      expect(db.detail).toStartWith(`PostgreSQL ${server_version} at postgres://`);
      expect(checkOf(report, "schema").level).toBe("ok");
      expect(checkOf(report, "embeddings").detail).toContain("0 of 0 atom(s) embedded");
    } finally {
      await tmp.drop();
    }
  });

  test("pending migrations: a failure when migrate is off, a warning when on; doctor applies none", async () => {
    if (skip) return console.warn(`skipped: ${skip}`);
    const tmp = await createTempPgDatabase("pegas_doctor_fresh");
    if (typeof tmp === "string") throw new Error(tmp);
    try {
      const off = await doctorJson(testConfig({ database_url: tmp.url, migrate: false, log_level: "warn" }));
      expect(off.code).toBe(1);
      expect(failures(off.report)).toEqual(["schema"]);
      const schema = checkOf(off.report, "schema");
      expect(schema.detail).toMatch(/^schema version 0; pending migration\(s\) 1, 2, .*migrate is off/);
      expect(schema.hint).toBe("run `pegas-memory migrate`");
      expect(off.err).toContain("doctor: schema: schema version 0; pending migration(s) 1, 2");
      expect(checkOf(off.report, "embeddings").detail).toStartWith("skipped");
      const on = await doctorJson(testConfig({ database_url: tmp.url, log_level: "warn" }));
      expect(on.code).toBe(0);
      expect(checkOf(on.report, "schema").level).toBe("warn");
      const probe = postgres(tmp.url, { max: 1 });
      const [{ n }] =
        await probe`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE 'pm\\_%'`;
      await probe.end();
      expect(n).toBe(0);
    } finally {
      await tmp.drop();
    }
  });

  test("PostgreSQL at a closed port: exit 1, the database named with a hint, the other checks still reported", async () => {
    const port = await closedPort();
    const url = `postgres://pegas:s3cret@127.0.0.1:${port}/nothing`;
    const { code, report, err } = await doctorJson(testConfig({ database_url: url, log_level: "warn" }));
    expect(code).toBe(1);
    expect(failures(report)).toEqual(["database"]);
    const db = checkOf(report, "database");
    expect(db.detail).toContain(`postgres://pegas:***@127.0.0.1:${port}/nothing`);
    expect(db.detail).toContain("ECONNREFUSED");
    expect(db.hint).toContain("PEGAS_DATABASE_URL");
    expect(JSON.stringify(report)).not.toContain("s3cret");
    expect(report.config.database_url).toBe(`postgres://pegas:***@127.0.0.1:${port}/nothing`);
    expect(checkOf(report, "schema").detail).toBe("skipped: the database is unreachable");
    expect(checkOf(report, "ollama").level).toBe("info");
    expect(err).toMatch(/^doctor: database: .*ECONNREFUSED.*PEGAS_DATABASE_URL/m);
  });

  test("vectors stored under the active Ollama model with another dimension fail the embeddings check", async () => {
    if (skip) return console.warn(`skipped: ${skip}`);
    const tmp = await createTempPgDatabase("pegas_doctor_dim");
    if (typeof tmp === "string") throw new Error(tmp);
    const stub = startOllamaStub({ dim: 8 });
    try {
      const local = testConfig({ database_url: tmp.url, log_level: "warn" });
      const s = await createServices(local);
      const atom = (await storeAtom(s, { type: "fact", claim: "Сатурн — шестая планета от Солнца." })).atom_id;
      await s.close();
      const sql = postgres(tmp.url, { max: 1 });
      await sql`INSERT INTO pm_atom_embedding (atom_id, model, dim, vector) VALUES (${atom}, ${STUB_MODEL}, 4, ${Buffer.alloc(16)})`;
      await sql.end();
      const config = testConfig({
        database_url: tmp.url,
        ollama_host: stub.url,
        embed_model: STUB_MODEL,
        embed_dim: 8,
        log_level: "warn",
      });
      const { code, report } = await doctorJson(config);
      expect(code).toBe(1);
      expect(failures(report)).toEqual(["embeddings"]);
      expect(checkOf(report, "embeddings").detail).toContain(
        "1 of dimension 4 stored under the active model, which is configured for dimension 8",
      );
      expect(checkOf(report, "ollama").version).toBe("0.0.0-stub");
      expect(checkOf(report, "ollama_models").level).toBe("ok");
      expect(stub.requests).toHaveLength(0); // no embedding was asked for: doctor loads no model
    } finally {
      await stub.stop();
      await tmp.drop();
    }
  });
});
