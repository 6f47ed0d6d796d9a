/**
 * The tables of `pegas-memory export`, read from the database catalog rather than listed by hand, so that a table a
 * later migration adds is carried without anyone remembering to: every ordinary table of the current schema named
 * `pm_*`, but the outbox and its readers (work queued for the projections, not knowledge) and the migration bookkeeping; embeddings
 * only on request. Tables come in foreign-key order (referenced first), from the catalog's foreign keys.
 */
import { PegasError } from "../../../errors.ts";
import { EMBEDDINGS_TABLE, type ExportTable } from "../../../ports/store/export-store.ts";
import type { SqlLike } from "../database.ts";
import { type ColumnInfo, type ColumnKind, columnKind } from "./codec.ts";

/**
 * Tables never exported: the outbox and its readers (the projections the source's processes had configured; the
 * target's register themselves), and the migration bookkeeping (the target's own migrations write it).
 */
export const NOT_EXPORTED: ReadonlySet<string> = new Set(["pm_outbox", "pm_outbox_reader", "pm_schema_migrations"]);

/** An exported table with how each of its carried columns travels. */
export interface CatalogTable extends ExportTable {
  /** Kind of each exported column, in column order. */
  kinds: Map<string, ColumnKind>;
  /** Columns the target recomputes (generated columns, transaction stamps). */
  skipped: string[];
}

const SCHEMA_OID = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())";

async function tableNames(sql: SqlLike): Promise<string[]> {
  const rows = await sql.unsafe(`
    SELECT c.relname::text AS name FROM pg_class c
     WHERE c.relnamespace = ${SCHEMA_OID} AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname LIKE 'pm\\_%'
     ORDER BY c.relname`);
  return rows.map((r) => String(r.name)).filter((n) => !NOT_EXPORTED.has(n));
}

async function columnsOf(sql: SqlLike, names: string[]): Promise<Map<string, ColumnInfo[]>> {
  const rows = await sql.unsafe(
    `
    SELECT c.relname::text AS tbl, a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS type,
           t.typname::text AS typname, a.attgenerated::text <> '' AS generated
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
     WHERE c.relnamespace = ${SCHEMA_OID} AND c.relname = ANY($1::text[]) AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
    [names],
  );
  const out = new Map<string, ColumnInfo[]>(names.map((n) => [n, []]));
  for (const r of rows)
    out.get(String(r.tbl))!.push({
      name: String(r.name),
      type: String(r.type),
      typname: String(r.typname),
      generated: Boolean(r.generated),
    });
  return out;
}

async function constraintsOf(
  sql: SqlLike,
  names: string[],
): Promise<{ pk: Map<string, string[]>; refs: Map<string, Set<string>> }> {
  const pkRows = await sql.unsafe(
    `
    SELECT c.relname::text AS tbl, a.attname::text AS col
      FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
      CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
     WHERE con.contype = 'p' AND c.relnamespace = ${SCHEMA_OID} AND c.relname = ANY($1::text[])
     ORDER BY c.relname, k.ord`,
    [names],
  );
  const fkRows = await sql.unsafe(
    `
    SELECT c.relname::text AS tbl, r.relname::text AS ref
      FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid
     WHERE con.contype = 'f' AND c.relnamespace = ${SCHEMA_OID} AND c.relname = ANY($1::text[])`,
    [names],
  );
  const pk = new Map<string, string[]>();
  for (const r of pkRows) pk.set(String(r.tbl), [...(pk.get(String(r.tbl)) ?? []), String(r.col)]);
  const refs = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
  for (const r of fkRows) if (r.ref !== r.tbl) refs.get(String(r.tbl))!.add(String(r.ref));
  return { pk, refs };
}

/**
 * Orders `names` so that every table comes after the tables it references (ties by name, so the order is stable).
 * A reference to a table outside `names` is refused: its rows could not be restored.
 * @throws PegasError INTERNAL for a foreign-key cycle between tables or a reference to a table not exported.
 */
export function foreignKeyOrder(names: string[], refs: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const pending = new Set(names);
  const done: string[] = [];
  for (const [t, targets] of refs) {
    for (const r of targets) {
      if (!pending.has(r))
        throw new PegasError("INTERNAL", `cannot export ${t}: it references ${r}, which is not exported`, {
          hint: "export with --embeddings, or report it",
        });
    }
  }
  while (pending.size) {
    const ready = [...pending].filter((t) => [...(refs.get(t) ?? [])].every((r) => !pending.has(r))).sort();
    if (!ready.length)
      throw new PegasError(
        "INTERNAL",
        `cannot order tables ${[...pending].join(", ")}: their foreign keys form a cycle`,
      );
    for (const t of ready) {
      pending.delete(t);
      done.push(t);
    }
  }
  return done;
}

/**
 * The exportable tables in foreign-key order, each with its carried columns and primary key; `embeddings` false
 * leaves out pm_atom_embedding.
 * @throws PegasError INTERNAL for a column type with no exact encoding, a table without primary key, a primary key
 *   column that is not a number or a string, or a foreign-key cycle.
 */
export async function readCatalog(sql: SqlLike, embeddings: boolean): Promise<CatalogTable[]> {
  const names = (await tableNames(sql)).filter((n) => embeddings || n !== EMBEDDINGS_TABLE);
  const columns = await columnsOf(sql, names);
  const { pk, refs } = await constraintsOf(sql, names);
  return foreignKeyOrder(names, refs).map((name) => {
    const kinds = new Map<string, ColumnKind>();
    const skipped: string[] = [];
    const exported = [];
    for (const col of columns.get(name)!) {
      const kind = columnKind(name, col);
      if (kind === "skip") skipped.push(col.name);
      else {
        kinds.set(col.name, kind);
        exported.push({ name: col.name, type: col.type });
      }
    }
    const primary_key = pk.get(name) ?? [];
    if (!primary_key.length)
      throw new PegasError("INTERNAL", `cannot export ${name}: it has no primary key to page by`, {
        hint: "report it: every pm_* table needs one",
      });
    for (const k of primary_key) {
      if (!["native", "number"].includes(kinds.get(k) ?? "skip")) {
        throw new PegasError(
          "INTERNAL",
          `cannot export ${name}: its primary key column ${k} is not a number or a string`,
        );
      }
    }
    return { name, columns: exported, primary_key, kinds, skipped };
  });
}

/** Latest migration recorded in pm_schema_migrations (0 for a store never migrated). */
export async function schemaVersionOf(sql: SqlLike): Promise<number> {
  const [exists] = await sql`SELECT to_regclass('pm_schema_migrations') IS NOT NULL AS ok`;
  if (!exists.ok) return 0;
  const [row] = await sql`SELECT COALESCE(max(version), 0)::int AS v FROM pm_schema_migrations`;
  return Number(row.v);
}
