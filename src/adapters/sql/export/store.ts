/**
 * The ExportStore over SQL (PostgreSQL and PGlite alike): an export reads one REPEATABLE READ snapshot page by page
 * (keyset pagination on the primary key, one page in memory); an import inserts batches through
 * jsonb_populate_recordset inside one transaction, each batch under a savepoint so that a refused batch is replayed
 * row by row to name the line at fault; an export of an older schema version is loaded into the empty store rebuilt
 * at that version (export-rebuild.ts), and the later migrations then run over its rows, in the same transaction.
 * Neither is retried on a lost connection: a stream cannot be read twice.
 */
import type { TransactionSql } from "postgres";
import { PegasError } from "../../../errors.ts";
import type {
  ExportRow,
  ExportSnapshot,
  ExportStore,
  ExportTable,
  ImportSession,
} from "../../../ports/store/export-store.ts";
import { type Database, isConnectionLost } from "../database.ts";
import { type CatalogTable, readCatalog, schemaVersionOf } from "./catalog.ts";
import { decodeValue, encodeRow, ident, selectExpr } from "./codec.ts";
import { REBUILDABLE, rebuildAt } from "./rebuild.ts";
import { applyMigrationsWithin, lockMigrations } from "../migrations.ts";
import { mapSqlError } from "../errors.ts";

type Tx = TransactionSql<any>;

function lookup(tables: CatalogTable[]): (t: ExportTable) => CatalogTable {
  const byName = new Map(tables.map((t) => [t.name, t]));
  return (t) => {
    const found = byName.get(t.name);
    if (!found) throw new PegasError("INTERNAL", `no table '${t.name}' in this store's catalog`);
    return found;
  };
}

/** The rows of `table` in primary-key order, `size` per page, encoded for the export. */
async function* pages(tx: Tx, table: CatalogTable, size: number): AsyncIterable<ExportRow[]> {
  const select = [...table.kinds].map(([name, kind]) => `${selectExpr(kind, name)} AS ${ident(name)}`).join(", ");
  const key = table.primary_key.map((c) => `t.${ident(c)}`).join(", ");
  const keyTypes = table.primary_key.map((c) => table.columns.find((x) => x.name === c)!.type);
  const head = `SELECT (SELECT row_to_json(pm_export_row.*)::text FROM (SELECT ${select}) pm_export_row) AS j FROM ${ident(table.name)} t`;
  const tail = `ORDER BY ${key} LIMIT ${size}`;
  const after = `WHERE (${key}) > (${keyTypes.map((ty, i) => `$${i + 1}::${ty}`).join(", ")})`;
  let last: string[] | null = null;
  for (;;) {
    const rows: Array<Record<string, unknown>> = await tx.unsafe(
      last ? `${head} ${after} ${tail}` : `${head} ${tail}`,
      last ?? [],
    );
    if (!rows.length) return;
    const out: ExportRow[] = rows.map((r) => encodeRow(JSON.parse(String(r.j)), table.kinds, table.name));
    yield out;
    if (rows.length < size) return;
    const lastRow: ExportRow = out[out.length - 1];
    last = table.primary_key.map((c): string => String(lastRow[c]));
  }
}

function refused(table: string, line: number, err: unknown): PegasError {
  const e = err as { message?: string; detail?: string };
  const detail = e.detail ? ` (${e.detail})` : "";
  return new PegasError(
    "INVALID_INPUT",
    `line ${line}: the database refused this ${table} row: ${e.message ?? String(err)}${detail}`,
    {
      hint: "the file was damaged or edited after the export; export the source store again",
      cause: err,
    },
  );
}

/** Inserts decoded rows; on refusal finds the first row refused alone and names its line. */
async function insertRows(tx: Tx, table: CatalogTable, rows: ExportRow[], lines: number[]): Promise<void> {
  rows.forEach((row, i) => {
    for (const [name, kind] of table.kinds) {
      const bad = decodeValue(row, name, kind);
      if (bad)
        throw new PegasError("INVALID_INPUT", `line ${lines[i]}: ${table.name} ${bad}`, {
          hint: "the file was damaged or edited; export the source store again",
        });
    }
  });
  const cols = [...table.kinds.keys()].map(ident).join(", ");
  const q = `INSERT INTO ${ident(table.name)} (${cols}) OVERRIDING SYSTEM VALUE
             SELECT ${cols} FROM jsonb_populate_recordset(NULL::${ident(table.name)}, $1::text::jsonb)`;
  try {
    await tx.savepoint((sp) => sp.unsafe(q, [JSON.stringify(rows)]));
  } catch (err) {
    if (isConnectionLost(err)) throw err;
    for (let i = 0; i < rows.length; i++) {
      try {
        await tx.savepoint((sp) => sp.unsafe(q, [JSON.stringify([rows[i]])]));
      } catch (rowErr) {
        if (isConnectionLost(rowErr)) throw rowErr;
        throw refused(table.name, lines[i], rowErr);
      }
    }
    throw refused(table.name, lines[0], err);
  }
}

async function nonEmptyTables(tx: Tx, tables: CatalogTable[]): Promise<Array<{ table: string; rows: number }>> {
  const [any] = await tx.unsafe(
    `SELECT ${tables.map((t, i) => `EXISTS (SELECT 1 FROM ${ident(t.name)}) AS t${i}`).join(", ")}`,
  );
  const out = [];
  for (const [i, t] of tables.entries()) {
    if (!any[`t${i}`]) continue;
    const [c] = await tx.unsafe(`SELECT count(*)::int8 AS n FROM ${ident(t.name)}`);
    out.push({ table: t.name, rows: Number(c.n) });
  }
  return out;
}

/** Sets each sequence owned by a column of `tables` so that its next value is one past the column's largest value. */
async function resetSequences(tx: Tx, tables: string[]): Promise<void> {
  const owned = await tx.unsafe(
    `
    SELECT c.relname::text AS tbl, a.attname::text AS col, pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS seq
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relname = ANY($1::text[]) AND a.attnum > 0 AND NOT a.attisdropped`,
    [tables],
  );
  for (const r of owned) {
    if (!r.seq) continue;
    await tx.unsafe(
      `SELECT setval($1::regclass, COALESCE((SELECT max(${ident(String(r.col))}) FROM ${ident(String(r.tbl))}), 0) + 1, false)`,
      [r.seq],
    );
  }
}

/** ExportStore over a {@link Database}. */
export class SqlExportStore implements ExportStore {
  constructor(private readonly db: Database) {}

  async snapshot<T>(opts: { embeddings: boolean }, fn: (snap: ExportSnapshot) => Promise<T>): Promise<T> {
    try {
      return (await this.db.sql.begin("isolation level repeatable read read only", async (tx) => {
        await tx`SET LOCAL TimeZone = 'UTC'`;
        const tables = await readCatalog(tx, opts.embeddings);
        const find = lookup(tables);
        const snap: ExportSnapshot = {
          schemaVersion: await schemaVersionOf(tx),
          backend: this.db.kind,
          tables: tables.map(({ name, columns, primary_key }) => ({ name, columns, primary_key })),
          pages: (t, size) => pages(tx, find(t), size),
        };
        return fn(snap);
      })) as T;
    } catch (err) {
      throw mapSqlError(err, "export the store");
    }
  }

  async importTransaction<T>(fn: (session: ImportSession) => Promise<T>): Promise<T> {
    try {
      return (await this.db.sql.begin(async (tx) => {
        let tables = await readCatalog(tx, true);
        await tx.unsafe(`LOCK TABLE ${tables.map((t) => ident(t.name)).join(", ")} IN EXCLUSIVE MODE`);
        let find = lookup(tables);
        let version = await schemaVersionOf(tx);
        const reread = async () => {
          tables = await readCatalog(tx, true);
          find = lookup(tables);
          version = await schemaVersionOf(tx);
        };
        const session: ImportSession = {
          get schemaVersion() {
            return version;
          },
          rebuildable: REBUILDABLE,
          get tables() {
            return tables.map(({ name, columns, primary_key }) => ({ name, columns, primary_key }));
          },
          nonEmptyTables: () => nonEmptyTables(tx, tables),
          insert: (t, rows, lines) => insertRows(tx, find(t), rows, lines),
          resetSequences: (names) => resetSequences(tx, names),
          rebuildAt: async (v) => {
            await lockMigrations(tx); // from here to the commit, a migrator waits for the schema this import rebuilds
            await rebuildAt(tx, v);
            await reread();
          },
          migrate: async () => {
            const done = await applyMigrationsWithin(tx);
            await reread();
            return done;
          },
        };
        return fn(session);
      })) as T;
    } catch (err) {
      throw mapSqlError(err, "import into the store");
    }
  }
}
