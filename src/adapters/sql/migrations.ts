/**
 * Schema migrations: SQL files of migrations/ embedded in the executable (Bun text imports), applied in version
 * order inside one transaction under a transaction-scoped advisory lock, recorded in `pm_schema_migrations`.
 * Every migration is additive and idempotent (`IF NOT EXISTS`), so a half-known state is safe to re-run. An import of
 * an export made at an older schema version (src/adapters/sql/export/rebuild.ts) replays them: the first ones on the
 * empty store, the later ones over the imported rows, so a migration's data rewrite must work on any rows it finds.
 */
import type { Sql, TransactionSql } from "postgres";
import type { SqlLike } from "./database.ts";
import init0001 from "../../../migrations/0001_init.sql" with { type: "text" };
import knowledge0002 from "../../../migrations/0002_knowledge.sql" with { type: "text" };
import traces0003 from "../../../migrations/0003_traces.sql" with { type: "text" };
import verifyQueue0004 from "../../../migrations/0004_verify_queue.sql" with { type: "text" };
import outboxWorker0005 from "../../../migrations/0005_outbox_worker.sql" with { type: "text" };
import graphIndexes0006 from "../../../migrations/0006_graph_indexes.sql" with { type: "text" };
import code0007 from "../../../migrations/0007_code.sql" with { type: "text" };
import inference0008 from "../../../migrations/0008_inference.sql" with { type: "text" };
import gaps0009 from "../../../migrations/0009_gaps.sql" with { type: "text" };
import codeResolvePending0010 from "../../../migrations/0010_code_resolve_pending.sql" with { type: "text" };
import codeWriteIndexes0011 from "../../../migrations/0011_code_write_indexes.sql" with { type: "text" };
import codeSearchStems0012 from "../../../migrations/0012_code_search_stems.sql" with { type: "text" };
import documentTitleTsv0013 from "../../../migrations/0013_document_title_tsv.sql" with { type: "text" };
import outboxReaders0014 from "../../../migrations/0014_outbox_readers.sql" with { type: "text" };
import entities0015 from "../../../migrations/0015_entities.sql" with { type: "text" };
import atomTime0016 from "../../../migrations/0016_atom_time.sql" with { type: "text" };
import supersession0017 from "../../../migrations/0017_supersession.sql" with { type: "text" };
import urlFreshness0018 from "../../../migrations/0018_url_freshness.sql" with { type: "text" };
import atomQuantities0019 from "../../../migrations/0019_atom_quantities.sql" with { type: "text" };
import { sha256Hex } from "../../domain/hash.ts";
import { log } from "../../log.ts";

/** One embedded migration. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration known to this build, ascending. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "init", sql: init0001 },
  { version: 2, name: "knowledge", sql: knowledge0002 },
  { version: 3, name: "traces", sql: traces0003 },
  { version: 4, name: "verify_queue", sql: verifyQueue0004 },
  { version: 5, name: "outbox_worker", sql: outboxWorker0005 },
  { version: 6, name: "graph_indexes", sql: graphIndexes0006 },
  { version: 7, name: "code", sql: code0007 },
  { version: 8, name: "inference", sql: inference0008 },
  { version: 9, name: "gaps", sql: gaps0009 },
  { version: 10, name: "code_resolve_pending", sql: codeResolvePending0010 },
  { version: 11, name: "code_write_indexes", sql: codeWriteIndexes0011 },
  { version: 12, name: "code_search_stems", sql: codeSearchStems0012 },
  { version: 13, name: "document_title_tsv", sql: documentTitleTsv0013 },
  { version: 14, name: "outbox_readers", sql: outboxReaders0014 },
  { version: 15, name: "entities", sql: entities0015 },
  { version: 16, name: "atom_time", sql: atomTime0016 },
  { version: 17, name: "supersession", sql: supersession0017 },
  { version: 18, name: "url_freshness", sql: urlFreshness0018 },
  { version: 19, name: "atom_quantities", sql: atomQuantities0019 },
];

/** Version of the latest migration this build knows: the schema version of a store it creates or upgrades. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Key of the advisory lock that serializes migrators ("pegasmig" folded into an int8). */
const MIGRATION_LOCK_KEY = 0x7065676173n;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS pm_schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  checksum   text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** Versions recorded as applied (empty when the table does not exist yet). */
export async function appliedVersions(sql: SqlLike): Promise<Map<number, string>> {
  const [exists] = await sql`SELECT to_regclass('pm_schema_migrations') IS NOT NULL AS ok`;
  if (!exists.ok) return new Map();
  const rows = await sql`SELECT version, checksum FROM pm_schema_migrations`;
  return new Map(rows.map((r) => [Number(r.version), String(r.checksum)]));
}

/**
 * Takes the migrators' advisory lock for the rest of transaction `tx`: another migrator (or an import that rebuilds
 * the schema) waits until `tx` ends.
 */
export async function lockMigrations(tx: TransactionSql<any>): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
}

/**
 * Applies, inside the caller's transaction `tx` (which should hold {@link lockMigrations}), every migration of this
 * build not yet recorded whose version is at most `upTo` (default: all), in version order, recording each. No
 * migration may need to run outside a transaction (CREATE INDEX CONCURRENTLY, VACUUM): they all run in one. Returns
 * the versions applied by this call, ascending.
 */
export async function applyMigrationsWithin(
  tx: TransactionSql<any>,
  upTo = Number.POSITIVE_INFINITY,
): Promise<number[]> {
  await tx.unsafe(CREATE_TABLE);
  const applied = await appliedVersions(tx);
  const done: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version > upTo) break;
    const checksum = sha256Hex(m.sql);
    if (applied.has(m.version)) {
      warnIfEdited(m, applied.get(m.version)!);
      continue;
    }
    await tx.unsafe(m.sql).simple();
    await tx`INSERT INTO pm_schema_migrations (version, name, checksum) VALUES (${m.version}, ${m.name}, ${checksum})`;
    done.push(m.version);
  }
  return done;
}

/** Warns when the recorded checksum of applied migration `m` is not this build's (the file was edited since). */
function warnIfEdited(m: Migration, recorded: string): void {
  if (recorded !== sha256Hex(m.sql))
    log.warn("applied migration differs from this build's", { version: m.version, name: m.name });
}

/**
 * Applies pending migrations in one transaction; concurrent migrators wait on the advisory lock and then find
 * nothing left to do. Returns the versions applied by this call. A store that already records every migration of
 * this build (every start but the first after an upgrade) is only read: two catalog reads, no transaction, no lock
 * (migrations are never undone, so what is recorded stays applied).
 */
export async function applyMigrations(sql: Sql<any>): Promise<number[]> {
  const applied = await appliedVersions(sql);
  if (MIGRATIONS.every((m) => applied.has(m.version))) {
    for (const m of MIGRATIONS) warnIfEdited(m, applied.get(m.version)!);
    return [];
  }
  return sql.begin(async (tx) => {
    await lockMigrations(tx);
    return applyMigrationsWithin(tx);
  }) as Promise<number[]>;
}
