/** SqlOutbox.resolve / snapshot / canonicalCounts on PostgreSQL: the current canonical state of every entity type. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setLogLevel } from "../../src/log.ts";
import type { OutboxRow } from "../../src/ports/projections/outbox.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import { pgSkipReason } from "../support/pg.ts";
import {
  canonicalState,
  MODEL,
  openPgOutbox,
  type OutboxDb,
  seedAtoms,
  seedDocument,
  seedLinks,
  seedSymbol,
  vec,
} from "./support.ts";

const skip = await pgSkipReason();

function rows(...entities: Array<[OutboxRow["entityType"], number | string]>): OutboxRow[] {
  return entities.map(([entityType, id], i) => ({
    id: i + 1,
    entityType,
    entityId: String(id),
    op: "upsert",
    attempts: 1,
    createdAt: 0,
  }));
}

describe.skipIf(skip !== null)("SqlOutbox resolve and snapshot (postgres)", () => {
  let t: OutboxDb;
  const ids = {} as Record<string, number>;
  beforeAll(async () => {
    const opened = await openPgOutbox();
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
    const sql = t.sql;
    ids.doc = await seedDocument(sql, "file:///live.txt", "Live");
    ids.gone = await seedDocument(sql, "file:///gone.txt", null);
    await sql`UPDATE pm_document SET status = 'retracted' WHERE id = ${ids.gone}`;
    [ids.a1] = await seedAtoms(sql, 1, { docId: ids.doc });
    [ids.a2] = await seedAtoms(sql, 1, { vectors: false });
    [ids.a3] = await seedAtoms(sql, 1, { status: "retracted" });
    [ids.a4] = await seedAtoms(sql, 1, { vectors: false, status: "verified" });
    await sql`INSERT INTO pm_atom_embedding (atom_id, model, dim, vector) VALUES (${ids.a4}, 'other-model', 1, ${Buffer.alloc(4)})`;
    [ids.l1, ids.l2, ids.l3] = await seedLinks(sql, [
      [ids.a1, ids.a2],
      [ids.a1, ids.a3],
      [ids.a2, ids.a4],
    ]);
    await sql`DELETE FROM pm_atom_link WHERE id = ${ids.l3}`;
    await sql`UPDATE pm_atom_link SET inferred = true, source = 'inference', justification = '{"rule":"r"}' WHERE id = ${ids.l1}`;
    ids.s1 = await seedSymbol(sql, "alpha");
    ids.s2 = await seedSymbol(sql, "beta", "src/b.ts");
    const [sl1, sl2] = await sql`
      INSERT INTO pm_atom_symbol_link (atom_id, symbol_id, kind) VALUES (${ids.a1}, ${ids.s1}, 'defines'), (${ids.a3}, ${ids.s1}, 'defines')
      RETURNING id`;
    ids.sl1 = Number(sl1.id);
    ids.sl2 = Number(sl2.id);
    const deps = await sql`
      INSERT INTO pm_code_dependency (repo, src_symbol_id, src_module, dst_symbol_id, dst_name, kind) VALUES
        ('repo', ${ids.s1}, NULL, ${ids.s2}, 'beta', 'calls'),
        ('repo', NULL, 'src/b.ts', NULL, 'lodash', 'imports')
      RETURNING id`;
    [ids.d1, ids.d2] = deps.map((r) => Number(r.id));
  }, 60_000);
  afterAll(async () => t?.dispose(), 30_000);

  test("atoms: payload and vector of the model; null when retracted or absent; one change per distinct atom", async () => {
    const changes = await t.outbox.resolve(
      rows(["atom", ids.a1], ["atom", ids.a2], ["atom", ids.a1], ["atom", ids.a3], ["atom", ids.a4], ["atom", 999_999]),
      MODEL,
    );
    expect(changes).toEqual([
      {
        entity: "atom",
        id: ids.a1,
        state: {
          type: "fact",
          status: "candidate",
          docId: ids.doc,
          confidence: expect.any(Number),
          lang: "en",
          vector: vec(ids.a1),
        },
      },
      {
        entity: "atom",
        id: ids.a2,
        state: {
          type: "fact",
          status: "candidate",
          docId: null,
          confidence: expect.any(Number),
          lang: "en",
          vector: null,
        },
      },
      { entity: "atom", id: ids.a3, state: null },
      { entity: "atom", id: ids.a4, state: expect.objectContaining({ status: "verified", vector: null }) },
      { entity: "atom", id: 999_999, state: null },
    ]);
    const [c] = await t.sql`SELECT confidence FROM pm_atom WHERE id = ${ids.a1}`;
    expect((changes[0] as { state: { confidence: number } }).state.confidence).toBe(Number(c.confidence));
  });

  test("documents and symbols: their fields; null when retracted or absent", async () => {
    const changes = await t.outbox.resolve(
      rows(["document", ids.doc], ["document", ids.gone], ["code_symbol", ids.s2], ["code_symbol", 999_999]),
      MODEL,
    );
    expect(changes).toEqual([
      { entity: "document", id: ids.doc, state: { uri: "file:///live.txt", title: "Live", kind: "text" } },
      { entity: "document", id: ids.gone, state: null },
      { entity: "symbol", id: ids.s2, state: { repo: "repo", path: "src/b.ts", name: "beta", kind: "function" } },
      { entity: "symbol", id: 999_999, state: null },
    ]);
  });

  test("edges of the three tables: typed ids as in pm_edge; null when gone or an endpoint atom is retracted", async () => {
    const changes = await t.outbox.resolve(
      rows(
        ["code_dependency", ids.d2],
        ["atom_link", ids.l1],
        ["atom_link", ids.l2],
        ["atom_link", ids.l3],
        ["atom_symbol_link", ids.sl1],
        ["atom_symbol_link", ids.sl2],
        ["code_dependency", ids.d1],
      ),
      MODEL,
    );
    const edge = (key: string, src: string, dst: string, kind: string, extra: object = {}) => ({
      entity: "edge",
      key,
      state: { src, dst, kind, confidence: expect.any(Number), inferred: false, source: "extraction", ...extra },
    });
    expect(changes as unknown[]).toEqual([
      edge(`pm_atom_link:${ids.l1}`, `atom:${ids.a1}`, `atom:${ids.a2}`, "reference", {
        inferred: true,
        source: "inference",
      }),
      { entity: "edge", key: `pm_atom_link:${ids.l2}`, state: null },
      { entity: "edge", key: `pm_atom_link:${ids.l3}`, state: null },
      edge(`pm_atom_symbol_link:${ids.sl1}`, `atom:${ids.a1}`, `symbol:${ids.s1}`, "defines"),
      { entity: "edge", key: `pm_atom_symbol_link:${ids.sl2}`, state: null },
      edge(`pm_code_dependency:${ids.d1}`, `symbol:${ids.s1}`, `symbol:${ids.s2}`, "calls"),
      edge(`pm_code_dependency:${ids.d2}`, "module:src/b.ts", "name:lodash", "imports"),
    ]);
    // Every live edge equals its row of the pm_edge view, field for field.
    const view =
      await t.sql`SELECT origin || ':' || origin_id AS key, src, dst, kind, confidence, inferred, source FROM pm_edge`;
    for (const c of changes) {
      if (c.entity !== "edge" || !c.state) continue;
      const { key, ...v } = view.find((r) => r.key === c.key)!;
      expect(c.state).toEqual({ ...v, confidence: Number(v.confidence) } as never);
    }
  });

  test("entity ids that are no id are skipped (with a warning), not fatal", async () => {
    setLogLevel("error");
    try {
      expect(await t.outbox.resolve(rows(["atom", "abc"], ["atom", "-1"], ["atom", ids.a2]), MODEL)).toEqual([
        expect.objectContaining({ entity: "atom", id: ids.a2 }),
      ]);
    } finally {
      setLogLevel("info");
    }
    expect(await t.outbox.resolve([], MODEL)).toEqual([]);
  });

  test("snapshot pages every live entity in key order, in the shapes of resolve; counts match", async () => {
    const all = await canonicalState(t.outbox, ["atom", "document", "symbol", "edge"], 2);
    expect([...all.atom.keys()]).toEqual([ids.a1, ids.a2, ids.a4]);
    expect([...all.document.keys()]).toEqual([ids.doc]);
    expect([...all.symbol.keys()]).toEqual([ids.s1, ids.s2]);
    expect([...all.edge.keys()]).toEqual([
      `pm_atom_link:${ids.l1}`,
      `pm_atom_symbol_link:${ids.sl1}`,
      `pm_code_dependency:${ids.d1}`,
      `pm_code_dependency:${ids.d2}`,
    ]);
    const resolved = await t.outbox.resolve(
      rows(["atom", ids.a1], ["atom_link", ids.l1], ["code_dependency", ids.d2]),
      MODEL,
    );
    for (const c of resolved as Array<ProjectionChange & { state: unknown }>) {
      expect(c.entity === "edge" ? all.edge.get(c.key) : (all[c.entity] as Map<number, unknown>).get(c.id)).toEqual(
        c.state as never,
      );
    }
    expect(await t.outbox.canonicalCounts(MODEL)).toEqual({
      atom: 3,
      atom_vectors: 1,
      document: 1,
      symbol: 2,
      entity: 0,
      edge: 4,
    });
    expect((await t.outbox.canonicalCounts("other-model")).atom_vectors).toBe(1);
    const first = await t.outbox.snapshot("edge", null, 3, MODEL);
    expect(first.next).toBe(`pm_code_dependency:${ids.d1}`);
    const rest = await t.outbox.snapshot("edge", first.next, 3, MODEL);
    expect(rest).toEqual({ changes: [expect.objectContaining({ key: `pm_code_dependency:${ids.d2}` })], next: null });
  });
});
