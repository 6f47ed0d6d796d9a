/**
 * The outbox holds only rows some projection reads (migration 0014, src/adapters/sql/outbox/readers.ts): the embedded
 * default (no Qdrant, no Memgraph) queues nothing; a registered reader gets its entity types only; a reader no
 * process has seen for the retention period is dropped with its rows; and the migration empties the outbox of a store
 * written before it.
 */
import { describe, expect, test } from "bun:test";
import { MIGRATIONS } from "../../src/adapters/sql/migrations.ts";
import { SqlOutbox } from "../../src/adapters/sql/outbox/outbox.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { linkNodes } from "../../src/core/knowledge/link-forget.ts";
import { readerOf } from "../../src/ports/projections/outbox.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite", {}, { outboxReader: false });
const sql = () => (t.services.maintenance as SqlCanonicalStore).db.sql;

async function outboxTypes(): Promise<Record<string, number>> {
  const rows = await sql()`SELECT entity_type, count(*)::int AS n FROM pm_outbox GROUP BY 1 ORDER BY 1`;
  return Object.fromEntries(rows.map((r) => [r.entity_type, r.n]));
}

const TEXT =
  "Андрей Ефимыч Рагин служил врачом в городской больнице двадцать лет. The ward had twelve beds in 1892.\n\n" +
  "Иван Дмитрич Громов был судебным приставом. He was afraid of being arrested.";

describe("outbox readers (pglite)", () => {
  test("the embedded default queues nothing: an ingest and a link leave the outbox empty", async () => {
    const r = await ingest(t.services, { text: TEXT });
    expect(r.atoms_created).toBeGreaterThanOrEqual(2);
    const ids = (await sql()`SELECT id FROM pm_atom ORDER BY id LIMIT 2`).map((x) => Number(x.id));
    await linkNodes(t.services, { src: `atom:${ids[0]}`, dst: `atom:${ids[1]}`, kind: "related" });
    expect(await outboxTypes()).toEqual({});
    expect((await t.services.outbox.backlog()).pending).toBe(0);
  });

  test("a registered vector reader gets atom rows only; a graph reader every kind", async () => {
    const qdrant = readerOf({ name: "qdrant", entities: new Set(["atom"] as const) });
    expect(qdrant.entityTypes).toEqual(["atom"]);
    const first = await t.services.outbox.registerReaders([qdrant]);
    expect(first).toEqual({ added: ["qdrant"], storeHasAtoms: true }); // new, on a store with atoms: rebuild
    expect((await t.services.outbox.registerReaders([qdrant])).added).toEqual([]); // known: nothing missed
    await ingest(t.services, { text: `${TEXT}\n\nThe first version had one more line.` });
    expect(Object.keys(await outboxTypes())).toEqual(["atom"]);

    const memgraph = readerOf({
      name: "memgraph",
      entities: new Set(["atom", "document", "symbol", "entity", "edge"] as const),
    });
    expect([...memgraph.entityTypes].sort() as string[]).toEqual(
      [
        "atom",
        "atom_link",
        "atom_symbol_link",
        "code_dependency",
        "code_symbol",
        "document",
        "entity",
        "entity_mention",
      ].sort(),
    );
    // Another process, with Memgraph configured, registers it.
    const other = new SqlOutbox((t.services.maintenance as SqlCanonicalStore).db);
    await other.registerReaders([memgraph]);
    await other.close();
    await ingest(t.services, { text: `${TEXT}\n\nA second version with another line.` });
    const types = Object.keys(await outboxTypes());
    expect(types).toContain("document");
    for (const x of types) expect(memgraph.entityTypes).toContain(x as never);
  });

  test("a worker without a projection of its own claims nothing: the rows are another process's", async () => {
    const pending = (await t.services.outbox.backlog()).pending;
    expect(pending).toBeGreaterThan(0);
    const sinkless = new OutboxWorker({ outbox: t.services.outbox, sinks: [], model: t.services.embedder.model });
    expect(await sinkless.runOnce()).toEqual({ applied: 0, failed: 0, dead: 0, batches: 0 });
    expect((await t.services.outbox.backlog()).pending).toBe(pending);
  });

  test("a reader unseen for the retention period is dropped, its rows with it; processed rows past retention go", async () => {
    // memgraph was last seen 200 h ago by a process that no longer runs; this process registered qdrant itself.
    await sql()`UPDATE pm_outbox_reader SET seen_at = now() - interval '200 hours' WHERE name = 'memgraph'`;
    await sql()`UPDATE pm_outbox SET processed_at = now() - interval '200 hours'
                 WHERE id = (SELECT min(id) FROM pm_outbox WHERE entity_type = 'atom')`;
    const atomsPending = (
      await sql()`SELECT count(*)::int AS n FROM pm_outbox
                                       WHERE entity_type = 'atom' AND processed_at IS NULL`
    )[0].n;
    const worker = new OutboxWorker({
      outbox: t.services.outbox,
      sinks: [],
      model: t.services.embedder.model,
      retentionMs: 168 * 3_600_000,
    });
    const before = await outboxTypes();
    const graphOnly = Object.entries(before).reduce((n, [k, v]) => n + (k === "atom" ? 0 : v), 0);
    expect(graphOnly).toBeGreaterThan(0);
    expect(await worker.pruneIfDue()).toBe(graphOnly + 1);
    expect((await sql()`SELECT name FROM pm_outbox_reader ORDER BY name`).map((r) => r.name)).toEqual(["qdrant"]);
    expect(await outboxTypes()).toEqual({ atom: atomsPending });
  });

  test("the migration empties the outbox of a store written before it, and drops rows nobody reads at once", async () => {
    await sql()`DELETE FROM pm_outbox_reader`;
    await sql()`ALTER TABLE pm_outbox DISABLE RULE pm_outbox_unread`; // as a store before version 14
    await sql()`INSERT INTO pm_outbox (entity_type, entity_id, op, processed_at)
                SELECT 'code_dependency', g::text, 'upsert', CASE WHEN g % 2 = 0 THEN now() END
                  FROM generate_series(1, 500) g`;
    await sql()`ALTER TABLE pm_outbox ENABLE RULE pm_outbox_unread`;
    expect((await outboxTypes()).code_dependency).toBeGreaterThanOrEqual(500);
    const migration = MIGRATIONS.find((m) => m.name === "outbox_readers")!;
    await sql().begin((tx) => tx.unsafe(migration.sql)); // idempotent: it runs again on a migrated store
    expect(await outboxTypes()).toEqual({});
    await sql()`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', '1', 'upsert')`;
    expect(await outboxTypes()).toEqual({});
  });
});
