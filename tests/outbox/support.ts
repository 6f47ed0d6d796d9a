/**
 * Shared pieces of the outbox suites: a migrated database (a temporary PostgreSQL database, or PGlite in a temporary
 * dir) with its SqlOutbox, canonical rows written by plain SQL (fast enough for 10 000 events), outbox rows, and the
 * canonical state read back through `snapshot()` in the shape the recording sink holds.
 */
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { rmSync } from "node:fs";
import type { Sql } from "postgres";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";
import type { Database } from "../../src/adapters/sql/database.ts";
import { SqlOutbox } from "../../src/adapters/sql/outbox/outbox.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { vectorToBytes } from "../../src/adapters/sql/vector-bytes.ts";
import type { OutboxEntity } from "../../src/ports/projections/outbox.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import { applyChange, emptyState, type ProjectedState } from "../support/recording-sink.ts";
import { createTempPgDatabase } from "../support/pg.ts";
import { migratedPgliteDir } from "../support/services.ts";
import { readEveryOutboxRow } from "../support/outbox-reader.ts";

/** The embedding model of the suites. */
export const MODEL = "outbox-test-model";
/** Its dimension. */
export const DIM = 4;

/** A migrated database and its outbox. */
export interface OutboxDb {
  db: Database;
  sql: Sql<any>;
  outbox: SqlOutbox;
  /** The PostgreSQL URL (null on PGlite), for a second connection. */
  url: string | null;
  dispose(): Promise<void>;
}

/**
 * The hooks of a suite over one outbox database: opened (PostgreSQL or PGlite) before its tests and handed to `use`,
 * disposed after them, its outbox emptied before each test. @throws Error in beforeAll when PostgreSQL cannot be had.
 */
export function outboxHooks(backend: "postgres" | "pglite", use: (db: OutboxDb) => void): void {
  let db: OutboxDb | undefined;
  beforeAll(async () => {
    const opened = backend === "postgres" ? await openPgOutbox() : await openPgliteOutbox();
    if (typeof opened === "string") throw new Error(opened);
    db = opened;
    use(opened);
  }, 60_000);
  afterAll(async () => db?.dispose(), 30_000);
  beforeEach(async () => {
    await db!.sql`DELETE FROM pm_outbox`;
  });
}

/** A fresh, migrated temporary PostgreSQL database, or the reason why none can be had. */
export async function openPgOutbox(): Promise<OutboxDb | string> {
  const tmp = await createTempPgDatabase("pegas_outbox");
  if (typeof tmp === "string") return tmp;
  const db = openPostgres(tmp.url);
  await new SqlCanonicalStore(db).migrate();
  const outbox = new SqlOutbox(db);
  await readEveryOutboxRow(outbox); // the suites' recording sinks read every entity type
  return {
    db,
    sql: db.sql,
    outbox,
    url: tmp.url,
    async dispose() {
      await outbox.close();
      await db.close(0);
      await tmp.drop();
    },
  };
}

/** A fresh, migrated PGlite in a temporary dir. */
export async function openPgliteOutbox(): Promise<OutboxDb> {
  const dir = await migratedPgliteDir("pegas-outbox-"); // initdb once per run, not per test
  const db = await openPglite({ dataDir: dir });
  await new SqlCanonicalStore(db).migrate();
  const outbox = new SqlOutbox(db);
  await readEveryOutboxRow(outbox); // the suites' recording sinks read every entity type
  return {
    db,
    sql: db.sql,
    outbox,
    url: null,
    async dispose() {
      await outbox.close();
      await db.close(0);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A deterministic unit vector. */
export function vec(seed: number): Float32Array {
  const v = Float32Array.from({ length: DIM }, (_, i) => Math.sin(seed * 1.7 + i) + 0.01);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

let unique = 0;

/** Inserts `n` atoms (a vector of {@link MODEL} each unless `vectors` is false); returns their ids ascending. */
export async function seedAtoms(
  sql: Sql<any>,
  n: number,
  opts: { vectors?: boolean; docId?: number | null; status?: string } = {},
): Promise<number[]> {
  const tag = `${process.pid}-${++unique}`;
  const rows = await sql`
    INSERT INTO pm_atom (type, claim, content, content_hash, confidence, status, doc_id, lang, search_tsv)
    SELECT 'fact', 'claim ' || g, 'content ' || g, ${tag} || '-' || g, 0.25 + (g % 3) * 0.25, ${opts.status ?? "candidate"},
           ${opts.docId ?? null}::bigint, 'en', to_tsvector('pegas', 'claim ' || g)
      FROM generate_series(1, ${n}::int) g
    RETURNING id`;
  const ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  if (opts.vectors !== false) {
    for (let i = 0; i < ids.length; i += 1000) {
      const values = ids
        .slice(i, i + 1000)
        .map((id) => ({ atom_id: id, model: MODEL, dim: DIM, vector: vectorToBytes(vec(id)) }));
      await sql`INSERT INTO pm_atom_embedding ${sql(values as any, "atom_id", "model", "dim", "vector")}`;
    }
  }
  return ids;
}

/** Inserts a document; returns its id. */
export async function seedDocument(sql: Sql<any>, uri: string, title: string | null = "A title"): Promise<number> {
  const [r] = await sql`INSERT INTO pm_document (kind, uri, title) VALUES ('text', ${uri}, ${title}) RETURNING id`;
  return Number(r.id);
}

/** Inserts atom links `[src, dst]` of `kind`; returns their ids in the given order. */
export async function seedLinks(sql: Sql<any>, pairs: Array<[number, number]>, kind = "reference"): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < pairs.length; i += 1000) {
    const values = pairs
      .slice(i, i + 1000)
      .map(([s, d]) => ({ src_atom_id: s, dst_atom_id: d, kind, confidence: 0.75 }));
    const rows =
      await sql`INSERT INTO pm_atom_link ${sql(values as any, "src_atom_id", "dst_atom_id", "kind", "confidence")} RETURNING id`;
    ids.push(...rows.map((r) => Number(r.id)));
  }
  return ids;
}

/** Inserts a code symbol; returns its id. */
export async function seedSymbol(sql: Sql<any>, name: string, path = "src/a.ts"): Promise<number> {
  const [r] = await sql`
    INSERT INTO pm_code_symbol (repo, path, language, name, qualified_name, kind, line_start, line_end)
    VALUES ('repo', ${path}, 'typescript', ${name}, ${`a.${name}`}, 'function', 1, 9) RETURNING id`;
  return Number(r.id);
}

/** Appends outbox rows for entities of one type (one INSERT statement); returns the row ids. */
export async function enqueue(
  sql: Sql<any>,
  type: OutboxEntity | string,
  ids: Array<number | string>,
  op: "upsert" | "delete" = "upsert",
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 2000) {
    const values = ids.slice(i, i + 2000).map((id) => ({ entity_type: type, entity_id: String(id), op }));
    // Ids drawn first: pm_outbox takes no RETURNING (migration 13's rule).
    const drawn = (
      await sql`SELECT nextval('pm_outbox_id_seq')::int AS id FROM generate_series(1, ${values.length}::int)`
    ).map((r) => Number(r.id));
    const rows = values.map((v, j) => ({ ...v, id: drawn[j] }));
    await sql`INSERT INTO pm_outbox ${sql(rows as any, "id", "entity_type", "entity_id", "op")}`;
    out.push(...drawn);
  }
  return out;
}

/** Every live entity of the kinds given, read page by page through `snapshot()`. */
export async function canonicalState(
  outbox: SqlOutbox,
  entities: Array<ProjectionChange["entity"]> = ["atom", "document", "symbol", "edge"],
  page = 500,
  model = MODEL,
): Promise<ProjectedState> {
  const state = emptyState();
  for (const entity of entities) {
    for (let cursor: string | null = null; ; ) {
      const p = await outbox.snapshot(entity, cursor, page, model);
      for (const c of p.changes) applyChange(state, c);
      if (!p.next) break;
      cursor = p.next;
    }
  }
  return state;
}

/** Pending, processed and dead row counts of the outbox. */
export async function rowCounts(sql: Sql<any>): Promise<{ pending: number; processed: number; dead: number }> {
  const [r] = await sql`
    SELECT count(*) FILTER (WHERE processed_at IS NULL AND dead_at IS NULL) AS pending,
           count(*) FILTER (WHERE processed_at IS NOT NULL) AS processed,
           count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead
      FROM pm_outbox`;
  return { pending: Number(r.pending), processed: Number(r.processed), dead: Number(r.dead) };
}

/**
 * A small canonical world with outbox rows for all of it: `docs` documents, `atoms` atoms with vectors (one in five
 * retracted, one in seven without a vector), a chain of links between consecutive atoms, two symbols with a link and
 * a dependency. Returns the atom ids.
 */
export async function seedWorld(sql: Sql<any>, atoms: number, docs = 3): Promise<number[]> {
  const docIds: number[] = [];
  for (let i = 0; i < docs; i++) docIds.push(await seedDocument(sql, `file:///world-${process.pid}-${++unique}.txt`));
  const atomIds = await seedAtoms(sql, atoms, { docId: docIds[0] });
  await sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ANY(${atomIds.filter((_, i) => i % 5 === 4)}::bigint[])`;
  await sql`DELETE FROM pm_atom_embedding WHERE atom_id = ANY(${atomIds.filter((_, i) => i % 7 === 6)}::bigint[])`;
  const links = await seedLinks(
    sql,
    atomIds.slice(1).map((id, i) => [atomIds[i], id]),
  );
  const s1 = await seedSymbol(sql, `f${unique}`);
  const s2 = await seedSymbol(sql, `g${unique}`);
  const [sl] =
    await sql`INSERT INTO pm_atom_symbol_link (atom_id, symbol_id, kind) VALUES (${atomIds[0]}, ${s1}, 'defines') RETURNING id`;
  const [dep] = await sql`INSERT INTO pm_code_dependency (repo, src_symbol_id, dst_symbol_id, dst_name, kind)
                          VALUES ('repo', ${s1}, ${s2}, 'g', 'calls') RETURNING id`;
  await enqueue(sql, "document", docIds);
  await enqueue(sql, "atom", atomIds);
  await enqueue(sql, "atom_link", links);
  await enqueue(sql, "code_symbol", [s1, s2]);
  await enqueue(sql, "atom_symbol_link", [Number(sl.id)]);
  await enqueue(sql, "code_dependency", [Number(dep.id)]);
  return atomIds;
}

/** Makes every pending row due now (ends leases and backoffs), as if the clock moved on. */
export async function makeDue(sql: Sql<any>): Promise<void> {
  await sql`UPDATE pm_outbox SET available_at = now() WHERE processed_at IS NULL AND dead_at IS NULL`;
}
