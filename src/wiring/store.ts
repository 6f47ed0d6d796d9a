/**
 * The canonical store opened alone, without the embedder, the projections or the models: for the commands and checks
 * that need only the schema, the export tables or the outbox (`migrate`, `export`, `import`, `doctor`). Like
 * src/wiring/services.ts (which builds on it), the only place where these adapters are chosen.
 */
import { openPostgres } from "../adapters/sql/postgres/open.ts";
import type { Database } from "../adapters/sql/database.ts";
import { SqlExportStore } from "../adapters/sql/export/store.ts";
import { SqlOutbox } from "../adapters/sql/outbox/outbox.ts";
import { SqlCanonicalStore } from "../adapters/sql/store.ts";
import type { Config } from "../config.ts";
import { PegasError } from "../errors.ts";
import type { OutboxStore } from "../ports/projections/outbox.ts";
import type { ExportStore } from "../ports/store/export-store.ts";
import type { StoreMaintenance } from "../ports/store/maintenance.ts";

/**
 * Opens the configured database (no query is sent yet for PostgreSQL; PGlite elects its host). A new embedded data
 * dir starts from the migrated template of the executable when migrations are on (with `migrate` off it gets a bare
 * cluster, and the schema check says to run `pegas-memory migrate`, as before).
 */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.database_url) return openPostgres(config.database_url);
  const { openPglite } = await import("../adapters/sql/pglite/open.ts");
  return openPglite({
    dataDir: config.data_dir,
    runtimeDir: config.runtime_dir,
    hostWaitMs: config.store_wait_ms,
    template: config.migrate,
  });
}

/**
 * Applies pending migrations when `migrate` is on; otherwise checks that none is pending.
 * @throws PegasError MIGRATION_REQUIRED (migrate off and a migration pending), STORE_UNAVAILABLE.
 */
export async function ensureSchema(store: StoreMaintenance, migrate: boolean): Promise<void> {
  if (migrate) {
    await store.migrate();
    return;
  }
  const status = await store.migrationStatus();
  if (status.pending.length) {
    throw new PegasError("MIGRATION_REQUIRED", `the database lacks migration(s) ${status.pending.join(", ")}`, {
      hint: "run `pegas-memory migrate`",
    });
  }
}

/** The canonical store's roles that need no models, over one open database. */
export interface StoreHandle {
  /** `postgres` or `pglite`. */
  readonly kind: Database["kind"];
  /** Where the database is, for messages (a URL without its password, or the data directory). */
  readonly location: string;
  /** Migrations and counters. */
  readonly maintenance: StoreMaintenance;
  /** The canonical tables read out whole, or loaded into an empty store. */
  readonly exports: ExportStore;
  /** A new outbox reader over the same database; the caller closes it (before the handle). */
  openOutbox(): OutboxStore;
  /** Closes the database: in-flight work gets `graceMs` (default: the driver's), then is cancelled. */
  close(graceMs?: number): Promise<void>;
}

/** The handle over an already open database (doctor opens it itself, under its own deadline). */
export function storeOver(db: Database): StoreHandle {
  return {
    kind: db.kind,
    location: db.location,
    maintenance: new SqlCanonicalStore(db),
    exports: new SqlExportStore(db),
    openOutbox: () => new SqlOutbox(db),
    close: (graceMs) => db.close(graceMs),
  };
}

/** Opens the configured database as a {@link StoreHandle}, schema untouched. */
export async function openStore(config: Config): Promise<StoreHandle> {
  return storeOver(await openDatabase(config));
}

/**
 * Opens the configured database with its schema made current as `createServices` does: migrations applied, or
 * (migrate off) checked. Closed again when that fails.
 * @throws PegasError MIGRATION_REQUIRED, STORE_UNAVAILABLE.
 */
export async function openMigratedStore(config: Config): Promise<StoreHandle> {
  const store = await openStore(config);
  try {
    await ensureSchema(store.maintenance, config.migrate);
    return store;
  } catch (err) {
    await store.close(0).catch(() => {});
    throw err;
  }
}
