/**
 * Acceptance: two `pegas-memory sync` processes (the compiled executable) on one PostgreSQL apply each of 10,000
 * outbox events exactly once. The external projection is the Qdrant REST stand-in (a test server in this process,
 * not Qdrant), which counts upserts per point id; every outbox row must end acked after one claim.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { pointIdOf } from "../../src/adapters/qdrant/ids.ts";
import { isolatedBinary, isolatedEnv } from "../support/binary.ts";
import { createTempPgDatabase, pgSkipReason, type TempDb } from "../support/pg.ts";
import { QdrantRestStandin } from "../support/qdrant-standin.ts";

const EVENTS = 10_000;
const DIM = 256;
const skip = await pgSkipReason();
if (skip) console.error(`skipped two sync workers: ${skip}`);

/** 10,000 atoms with a vector of the local embedder's model and one outbox row each, written by SQL in bulk. */
async function seed(url: string): Promise<void> {
  const db = openPostgres(url);
  try {
    await new SqlCanonicalStore(db).migrate();
    const sql = db.sql;
    await sql`INSERT INTO pm_atom (type, claim, content, content_hash, search_tsv)
              SELECT 'fact', 'claim ' || g, 'content ' || g, md5('a' || g), to_tsvector('pegas', 'claim ' || g)
                FROM generate_series(1, ${EVENTS}) g`;
    // Unit vector e_(id mod dim): little-endian float32 1.0 is 00 00 80 3f.
    await sql`INSERT INTO pm_atom_embedding (atom_id, model, dim, vector)
              SELECT id, ${`pegas-lexical-hash-v1-d${DIM}`}, ${DIM},
                     decode(repeat('00000000', (id % ${DIM})::int) || '0000803f' || repeat('00000000', ${DIM - 1} - (id % ${DIM})::int), 'hex')
                FROM pm_atom`;
    await sql`DELETE FROM pm_outbox`;
    // Qdrant as the sync processes register it: rows no projection reads are never stored.
    await sql`INSERT INTO pm_outbox_reader (name, entity_types) VALUES ('qdrant', '{atom}')`;
    await sql`INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT 'atom', id::text, 'upsert' FROM pm_atom ORDER BY id`;
  } finally {
    await db.close(0);
  }
}

describe.skipIf(Boolean(skip))("two sync workers on one PostgreSQL", () => {
  let tmp: TempDb;
  let standin: QdrantRestStandin;

  beforeAll(async () => {
    const t = await createTempPgDatabase("pegas_sync2");
    if (typeof t === "string") throw new Error(t);
    tmp = t;
    standin = await QdrantRestStandin.start();
    await seed(tmp.url);
  });

  afterAll(async () => {
    await standin?.stop();
    await tmp?.drop();
  });

  test("each of 10,000 events is applied exactly once", async () => {
    const { dir, bin } = await isolatedBinary();
    const env = isolatedEnv(dir, { PEGAS_DATABASE_URL: tmp.url, QDRANT_URL: standin.url, PEGAS_LOG_LEVEL: "warn" });
    const workers = [0, 1].map(() => Bun.spawn([bin, "sync"], { env, stdout: "pipe", stderr: "pipe" }));
    const sql = postgres(tmp.url, { max: 1, onnotice: () => {} });
    try {
      const deadline = Date.now() + 90_000;
      let pending = EVENTS;
      while (pending > 0 && Date.now() < deadline) {
        await Bun.sleep(200);
        [{ pending }] = (await sql`SELECT count(*)::int AS pending FROM pm_outbox WHERE processed_at IS NULL`) as any;
      }
      for (const w of workers) w.kill("SIGTERM");
      const codes = await Promise.all(workers.map((w) => w.exited));
      const stderr = await Promise.all(workers.map((w) => new Response(w.stderr).text()));
      expect({ pending, codes }).toEqual({ pending: 0, codes: [0, 0] });
      expect(stderr.join("")).not.toContain('"level":"error"');
      // Every row acked after exactly one claim, and both processes took part.
      const [rows] =
        (await sql`SELECT count(*)::int AS n, max(attempts) AS max_attempts, count(DISTINCT claim_token)::int AS tokens,
                                       count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead FROM pm_outbox`) as any;
      expect(rows).toEqual({ n: EVENTS, max_attempts: 1, tokens: 2, dead: 0 });
      // Every point upserted exactly once.
      const counts = [...standin.upsertsByPoint.values()];
      expect(counts.length).toBe(EVENTS);
      expect(counts.every((c) => c === 1)).toBe(true);
      const ids = await sql`SELECT id FROM pm_atom ORDER BY id LIMIT 3`;
      for (const r of ids) expect(standin.upsertsByPoint.get(pointIdOf(Number(r.id)))).toBe(1);
    } finally {
      for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
      await sql.end({ timeout: 1 });
    }
  }, 180_000);
});
