/**
 * Two workers on two separate PostgreSQL connections drain 10 000 events at once: every event is claimed once,
 * applied once and acked, and the projection equals the canonical tables.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";
import type { Database } from "../../src/adapters/sql/database.ts";
import { SqlOutbox } from "../../src/adapters/sql/outbox/outbox.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { pgSkipReason } from "../support/pg.ts";
import { RecordingSink } from "../support/recording-sink.ts";
import {
  canonicalState,
  enqueue,
  MODEL,
  openPgOutbox,
  type OutboxDb,
  rowCounts,
  seedAtoms,
  seedDocument,
  seedLinks,
} from "./support.ts";

const skip = await pgSkipReason();

describe.skipIf(skip !== null)("two outbox workers at once (postgres)", () => {
  let t: OutboxDb;
  const dbs: Database[] = [];
  const outboxes: SqlOutbox[] = [];
  beforeAll(async () => {
    const opened = await openPgOutbox();
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
    for (let i = 0; i < 2; i++) {
      const db = openPostgres(t.url!, { max: 2 });
      dbs.push(db);
      outboxes.push(new SqlOutbox(db));
    }
  }, 60_000);
  afterAll(async () => {
    for (const o of outboxes) await o.close();
    for (const db of dbs) await db.close(0);
    await t?.dispose();
  }, 30_000);

  test("10 000 events: each applied exactly once, every row acked, projection equals canonical", async () => {
    const atoms = await seedAtoms(t.sql, 8000);
    await t.sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ANY(${atoms.filter((_, i) => i % 10 === 3)}::bigint[])`;
    const links = await seedLinks(
      t.sql,
      Array.from({ length: 1000 }, (_, i) => [atoms[i], atoms[i + 1]] as [number, number]),
    );
    const docRows = await t.sql`
      INSERT INTO pm_document (kind, uri, title)
      SELECT 'web', 'https://example.org/' || g, 'Page ' || g FROM generate_series(1, 999) g RETURNING id`;
    const docs = [...docRows.map((r) => Number(r.id)), await seedDocument(t.sql, "file:///untitled.txt", null)];
    await enqueue(t.sql, "atom", atoms);
    await enqueue(t.sql, "atom_link", links);
    await enqueue(t.sql, "document", docs);
    expect((await rowCounts(t.sql)).pending).toBe(10_000);

    const shared = new RecordingSink("shared");
    const own = [new RecordingSink("w1"), new RecordingSink("w2")];
    const workers = outboxes.map(
      (outbox, i) => new OutboxWorker({ outbox, sinks: [shared, own[i]], model: MODEL, token: `w${i + 1}` }),
    );
    // ≈ 1 s here; a bad claim plan would take minutes and outlast the test's time limit.
    const results = await Promise.all(workers.map((w) => w.runOnce()));

    expect(results[0].applied + results[1].applied).toBe(10_000);
    expect(results.every((r) => r.applied > 0 && r.failed === 0 && r.dead === 0)).toBe(true);
    expect(await rowCounts(t.sql)).toEqual({ pending: 0, processed: 10_000, dead: 0 });
    const [claims] =
      await t.sql`SELECT count(*) FILTER (WHERE attempts <> 1)::int AS reclaimed, count(DISTINCT claim_token)::int AS tokens FROM pm_outbox`;
    expect(claims).toEqual({ reclaimed: 0, tokens: 2 });
    // Per entity: one application in the shared projection, and in exactly one of the workers' own ones.
    expect(shared.applied.size).toBe(10_000);
    expect([...shared.applied.values()].every((n) => n === 1)).toBe(true);
    for (const [key] of shared.applied) expect((own[0].applied.get(key) ?? 0) + (own[1].applied.get(key) ?? 0)).toBe(1);
    const canon = await canonicalState(t.outbox, ["atom", "document", "symbol", "edge"], 2000);
    expect(shared.state).toEqual(canon);
  }, 120_000);
});
