/**
 * Doctor's checks of the canonical store: reached and its version (`database`), schema version and pending
 * migrations (`schema`, never applied here), stored embeddings (`embeddings`) and the outbox backlog (`outbox`).
 */
import { existsSync, readdirSync } from "node:fs";
import type { Database } from "../../adapters/sql/database.ts";
import type { Config } from "../../config.ts";
import { openDatabase, storeOver } from "../store.ts";
import { check, type DoctorCheck, failed, PROBE_TIMEOUT_MS, withTimeout } from "./check.ts";
import type { ActiveEmbedding } from "../models.ts";
import { checkEmbeddings } from "./embeddings.ts";

/** Opening the embedded database starts PGlite in this process (or reaches the process that hosts it): seconds, not a network probe. */
const EMBEDDED_OPEN_MS = 30_000;
/** An outbox row pending longer than this (s) means no worker applies the outbox. */
const STALE_BACKLOG_S = 300;

/** The store's checks and, when the schema is current, the open database (the caller closes it). */
export interface StoreProbe {
  checks: DoctorCheck[];
  db: Database | null;
}

const DB_HINT_PG = "start PostgreSQL, or fix PEGAS_DATABASE_URL (--database-url)";
const DB_HINT_EMBEDDED =
  "stop other pegas-memory processes that hang on this data dir, or set PEGAS_DATA_DIR (--data-dir)";

/** The database open and answering `SHOW server_version`, within the deadline; closed again on failure. */
async function openAndVersion(config: Config): Promise<{ db: Database; version: string }> {
  const ms = config.database_url ? PROBE_TIMEOUT_MS : EMBEDDED_OPEN_MS;
  const db = await withTimeout(openDatabase(config), ms, "the database", (late) => void late.close(0).catch(() => {}));
  try {
    const rows = await withTimeout(
      db.run((sql) => sql`SELECT current_setting('server_version') AS v`),
      ms,
      `the database at ${db.location}`,
    );
    return { db, version: String(rows[0].v) };
  } catch (err) {
    await db.close(0).catch(() => {});
    throw err;
  }
}

/** The `schema` check; `current` when nothing is pending. */
async function checkSchema(db: Database, config: Config): Promise<{ check: DoctorCheck; current: boolean }> {
  const status = await storeOver(db).maintenance.migrationStatus();
  const version = Math.max(0, ...status.applied);
  if (!status.pending.length)
    return { check: check("schema", "ok", `schema version ${version}, no pending migrations`), current: true };
  const what = `schema version ${version}; pending migration(s) ${status.pending.join(", ")}`;
  const c = config.migrate
    ? check("schema", "warn", `${what} (applied when a command opens the store, since migrate is on)`, {
        hint: "run `pegas-memory migrate`",
      })
    : check("schema", "fail", `${what}, and migrate is off: serve and every command refuse this database`, {
        hint: "run `pegas-memory migrate`",
      });
  return { check: c, current: false };
}

/** The `outbox` check: dead letters, or rows pending for long, are warnings. */
async function checkOutbox(db: Database): Promise<DoctorCheck> {
  const outbox = storeOver(db).openOutbox();
  try {
    const b = await outbox.backlog();
    const age = b.oldestPendingAgeS === null ? "" : `, oldest ${Math.round(b.oldestPendingAgeS)} s old`;
    const detail = `${b.pending} pending${age}, ${b.dead} dead`;
    if (b.dead > 0)
      return check("outbox", "warn", `${detail}: dead rows never reached a projection`, {
        hint: "fix the projection, then run `pegas-memory sync --once --retry-dead`",
      });
    if ((b.oldestPendingAgeS ?? 0) > STALE_BACKLOG_S) {
      return check("outbox", "warn", `${detail}: no worker is applying it`, {
        hint: "`serve` applies it in the background; or run `pegas-memory sync --once`",
      });
    }
    return check("outbox", "ok", detail);
  } finally {
    await outbox.close().catch(() => {});
  }
}

/** A data dir that is missing or empty has not been created yet: opening it would run initdb, which doctor does not do. */
function uncreatedDataDir(config: Config): boolean {
  if (config.database_url) return false;
  return !existsSync(config.data_dir) || readdirSync(config.data_dir).length === 0;
}

/**
 * Runs the store's checks. Never throws: an unreachable database is a failed `database` check and the checks that
 * need it say they were skipped. The database is left open (returned) only when its schema is current.
 */
export async function probeStore(config: Config, active: ActiveEmbedding): Promise<StoreProbe> {
  const skipped = (why: string) => ["schema", "embeddings", "outbox"].map((n) => check(n, "info", `skipped: ${why}`));
  if (uncreatedDataDir(config)) {
    const c = check("database", "warn", `embedded PostgreSQL (PGlite) at ${config.data_dir} does not exist yet`, {
      hint: "the first command creates it (`pegas-memory migrate` does nothing else); or set PEGAS_DATABASE_URL to use PostgreSQL",
    });
    return { checks: [c, ...skipped("no database yet")], db: null };
  }
  let opened: { db: Database; version: string };
  try {
    opened = await openAndVersion(config);
  } catch (err) {
    const where = config.database_url ? "" : `embedded database at ${config.data_dir}: `;
    return {
      checks: [
        failed("database", err, config.database_url ? DB_HINT_PG : DB_HINT_EMBEDDED, where),
        ...skipped("the database is unreachable"),
      ],
      db: null,
    };
  }
  const { db, version } = opened;
  const number = version.split(/\s/)[0];
  const what =
    db.kind === "pglite"
      ? `embedded PostgreSQL ${number} (PGlite) at ${db.location}`
      : `PostgreSQL ${version} at ${db.location}`;
  const checks = [check("database", "ok", what, { version: db.kind === "pglite" ? `${number} (PGlite)` : number })];
  try {
    const schema = await checkSchema(db, config);
    checks.push(schema.check);
    if (!schema.current) {
      await db.close(0);
      return { checks: [...checks, ...skipped("the schema lacks migrations").slice(1)], db: null };
    }
    checks.push(await checkEmbeddings(db, active).catch((err) => failed("embeddings", err, "see the database's log")));
    checks.push(await checkOutbox(db).catch((err) => failed("outbox", err, "see the database's log")));
    return { checks, db };
  } catch (err) {
    await db.close(0).catch(() => {});
    return { checks: [...checks, failed("schema", err, "see the database's log")], db: null };
  }
}
