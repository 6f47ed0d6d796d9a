/**
 * ExportStore port: the canonical tables read out whole as portable rows, and loaded back into an empty store, for
 * `pegas-memory export` / `import` (src/core/export/export.ts, src/core/export/import.ts). The adapter (src/adapters/sql/export*.ts)
 * finds the tables in the database catalog and encodes each value as JSON that restores it exactly.
 */

/** The canonical embeddings table: exported only on request (`--embeddings`); the atoms suffice to recompute it. */
export const EMBEDDINGS_TABLE = "pm_atom_embedding";

/** A column as exported: its name and PostgreSQL type as `format_type` spells it ("bigint", "text[]", "jsonb", …). */
export interface ExportColumn {
  name: string;
  type: string;
}

/**
 * An exported table: its columns in table order (generated columns and per-transaction stamps such as `change_xid`
 * left out: the target computes them) and its primary key columns, the order of its rows.
 */
export interface ExportTable {
  name: string;
  columns: ExportColumn[];
  primary_key: string[];
}

/**
 * A row as JSON values keyed by column name: numbers, strings, booleans, null, and JSON for json/jsonb. bigint, real,
 * double and numeric are numbers when the number prints back as PostgreSQL's text, else that text (2^53 + 1, -0, NaN);
 * bytea is base64; timestamps are ISO 8601 strings in UTC (to the microsecond); arrays are JSON arrays; tsvector and
 * uuid are their PostgreSQL text.
 */
export type ExportRow = Record<string, unknown>;

/** A read-only consistent view of the store (one snapshot) for the length of an export. */
export interface ExportSnapshot {
  /** Latest migration applied to the store. */
  readonly schemaVersion: number;
  /** Which backend it is ("postgres" or "pglite"), for the header. */
  readonly backend: string;
  /** Tables to export in an order that satisfies foreign keys (referenced tables first). */
  readonly tables: ExportTable[];
  /** The rows of `table` in primary-key order, `pageSize` at a time (keyset pagination: one page in memory). */
  pages(table: ExportTable, pageSize: number): AsyncIterable<ExportRow[]>;
}

/**
 * The target of an import, inside its one transaction. An export made at an older schema version is loaded by
 * rebuilding the empty target at that version ({@link ImportSession.rebuildAt}), inserting the rows, then applying the
 * later migrations to them ({@link ImportSession.migrate}).
 */
export interface ImportSession {
  /** Latest migration applied to the target, as it stands now (it changes with rebuildAt and migrate). */
  readonly schemaVersion: number;
  /** Schema versions at which this build can rebuild an empty target (its first migration's to its latest's), inclusive. */
  readonly rebuildable: { readonly first: number; readonly latest: number };
  /**
   * Every table an export may carry (embeddings included), in foreign-key order, from the target's catalog as it
   * stands now (after rebuildAt: that version's tables).
   */
  readonly tables: ExportTable[];
  /** Tables that hold rows already (with their row counts); an import needs none. */
  nonEmptyTables(): Promise<Array<{ table: string; rows: number }>>;
  /**
   * Inserts `rows` of `table` (as exported; at least one), the k-th of which came from line `lines[k]` of the file.
   * @throws PegasError INVALID_INPUT naming the line of the first row the database refused, and why.
   */
  insert(table: ExportTable, rows: ExportRow[], lines: number[]): Promise<void>;
  /** Moves every id sequence of the given tables past the largest id imported. */
  resetSequences(tables: string[]): Promise<void>;
  /**
   * Drops the EMPTY target's schema objects and applies the migrations up to `version` (within `rebuildable`), so
   * that its tables are that version's. Call only after nonEmptyTables() found none.
   * @throws PegasError INVALID_INPUT when the target's outbox holds rows (the drop would lose them); INTERNAL for a
   *   version outside `rebuildable`.
   */
  rebuildAt(version: number): Promise<void>;
  /** Applies the migrations after `schemaVersion`, up to the latest, to the rows now in the target; returns their versions. */
  migrate(): Promise<number[]>;
}

/** Export and import over the canonical store. */
export interface ExportStore {
  /**
   * Runs `fn` on one read-only snapshot of the store (every table as of one moment). `embeddings` adds
   * pm_atom_embedding to the tables.
   * @throws PegasError INTERNAL for a table whose column types cannot be carried exactly or that has no primary key;
   *   STORE_UNAVAILABLE.
   */
  snapshot<T>(opts: { embeddings: boolean }, fn: (snap: ExportSnapshot) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one transaction on the target with every exportable table locked against writers; commits when
   * `fn` resolves, rolls everything back when it throws (the error passes through).
   */
  importTransaction<T>(fn: (session: ImportSession) => Promise<T>): Promise<T>;
}
