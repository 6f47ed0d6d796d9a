/**
 * Rebuilding an EMPTY store at an older schema version, so that `pegas-memory import` can load an export made by an
 * older pegas-memory into that version's tables and then upgrade the rows with the later migrations, exactly as
 * `pegas-memory migrate` upgrades an old store in place. Runs inside the import's one transaction: a failure rolls
 * the drop back too, and the store is as it was.
 *
 * The rebuild drops every object of the current schema named `pm_*` that the migrations create (views, tables with
 * their indexes, triggers and sequences, free sequences, functions and procedures, types), the migration bookkeeping
 * included, then applies the migrations up to the export's version. Objects not named `pm_*` (the `pegas` text search
 * configuration, the pg_trgm extension) are kept: the migrations create them only when missing.
 */
import type { TransactionSql } from "postgres";
import { PegasError } from "../../../errors.ts";
import { ident } from "./codec.ts";
import { applyMigrationsWithin, MIGRATIONS } from "../migrations.ts";

type Tx = TransactionSql<any>;

const SCHEMA_OID = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())";

/** Schema versions an empty store can be rebuilt at by this build: its first migration's to its latest's. */
export const REBUILDABLE = { first: MIGRATIONS[0].version, latest: MIGRATIONS[MIGRATIONS.length - 1].version } as const;

/** Names (quoted) of the `pm_*` relations of the current schema of the given relkinds, partitions left out. */
async function relations(tx: Tx, kinds: Array<"v" | "m" | "f" | "r" | "p" | "S">): Promise<string[]> {
  const rows = await tx.unsafe(`
    SELECT c.relname::text AS name FROM pg_class c
     WHERE c.relnamespace = ${SCHEMA_OID} AND c.relkind IN (${kinds.map((k) => `'${k}'`).join(", ")}) AND NOT c.relispartition
       AND c.relname LIKE 'pm\\_%' ORDER BY 1`);
  return rows.map((r) => ident(String(r.name)));
}

async function dropAll(tx: Tx, what: string, names: string[]): Promise<void> {
  if (names.length) await tx.unsafe(`DROP ${what} IF EXISTS ${names.join(", ")}`);
}

/**
 * Drops the `pm_*` objects of the current schema (see the module comment). Refuses, before dropping anything, when the
 * outbox holds rows: they are work for the projections that the drop would lose.
 * @throws PegasError INVALID_INPUT naming the outbox's row count; a database error when an object not named `pm_*`
 *   depends on one (a view of the user's): nothing is dropped then (the transaction fails).
 */
export async function dropSchemaObjects(tx: Tx): Promise<void> {
  const [outbox] = await tx`SELECT to_regclass('pm_outbox') IS NOT NULL AS ok`;
  if (outbox.ok) {
    const [{ n }] = await tx`SELECT count(*)::int AS n FROM pm_outbox`;
    if (Number(n) > 0) {
      throw new PegasError(
        "INVALID_INPUT",
        `the target store's outbox holds ${n} row(s) of earlier writes; an import from an older schema version rebuilds the empty store's tables and would lose them`,
        {
          hint: "import into a new store: point --data-dir at a new directory, or --database-url at a new database",
        },
      );
    }
  }
  await dropAll(tx, "VIEW", await relations(tx, ["v"]));
  await dropAll(tx, "MATERIALIZED VIEW", await relations(tx, ["m"]));
  await dropAll(tx, "FOREIGN TABLE", await relations(tx, ["f"]));
  await dropAll(tx, "TABLE", await relations(tx, ["r", "p"]));
  await dropAll(tx, "SEQUENCE", await relations(tx, ["S"]));
  const routines = await tx.unsafe(
    `SELECT p.oid::regprocedure::text AS sig FROM pg_proc p WHERE p.pronamespace = ${SCHEMA_OID} AND p.proname LIKE 'pm\\_%'`,
  );
  await dropAll(
    tx,
    "ROUTINE",
    routines.map((r) => String(r.sig)),
  );
  const types = await tx.unsafe(`
    SELECT format('%I', t.typname) AS name FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
     WHERE t.typnamespace = ${SCHEMA_OID} AND t.typname LIKE 'pm\\_%' AND t.typtype IN ('c', 'd', 'e', 'r')
       AND (t.typrelid = 0 OR c.relkind = 'c')`);
  await dropAll(
    tx,
    "TYPE",
    types.map((r) => String(r.name)),
  );
}

/**
 * Makes the empty store of transaction `tx` a store at schema version `version`: {@link dropSchemaObjects}, then the
 * migrations up to `version` (recorded in pm_schema_migrations). The caller holds the migrators' lock.
 * @throws PegasError INTERNAL for a version outside {@link REBUILDABLE}; see {@link dropSchemaObjects}.
 */
export async function rebuildAt(tx: Tx, version: number): Promise<void> {
  if (version < REBUILDABLE.first || version > REBUILDABLE.latest) {
    throw new PegasError(
      "INTERNAL",
      `cannot rebuild a store at schema version ${version}: this build knows versions ${REBUILDABLE.first} to ${REBUILDABLE.latest}`,
    );
  }
  await dropSchemaObjects(tx);
  await applyMigrationsWithin(tx, version);
}
