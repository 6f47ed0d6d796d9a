/**
 * `pegas-memory import`: loads an export (src/core/export/format.ts) into an EMPTY store, in one transaction. The file
 * is read line by line and inserted in batches; a bad line, a schema version newer than the store's, a table that
 * differs from the store's, or a file cut short (no trailer, or counts that disagree) rolls everything back and the
 * error names the line. An export of an older schema version (an older pegas-memory) is loaded into the empty store
 * rebuilt at that version, then the later migrations upgrade the rows in the same transaction, so a backup survives
 * an upgrade. Id sequences are moved past the imported ids. The projections are not touched here: the
 * embedded index reads pm_atom_embedding at start; atoms imported without embeddings (retracted ones included: they
 * may be restored) need `backfillEmbeddings`, and external projections (Qdrant, Memgraph) a `rebuild all`.
 */
import { PegasError } from "../../errors.ts";
import {
  EMBEDDINGS_TABLE,
  type ExportRow,
  type ExportTable,
  type ImportSession,
  type ExportStore,
} from "../../ports/store/export-store.ts";
import { type ExportHeader, parseHeader, parseLine, sameTable } from "./format.ts";

/** Options of {@link importStore}. */
export interface ImportOptions {
  /** Most rows per INSERT (default 1000); a batch is also cut at 4 MB of JSON. */
  batchRows?: number;
  signal?: AbortSignal;
}

/**
 * What an import loaded: rows per table (file order), totals, the lines read, milliseconds taken, the header's facts,
 * and the migrations that upgraded the rows of an older export.
 */
export interface ImportSummary {
  /** Schema version of the export. */
  schema_version: number;
  /** Schema version of the store after the import (its own: the export's, upgraded when it was older). */
  store_schema_version: number;
  /** Migrations applied to the imported rows (ascending; empty when the export was at the store's version). */
  migrated: number[];
  embeddings: boolean;
  /** pegas-memory version, backend and time of the export. */
  source: { pegas_memory_version: string; backend: string; created_at: string };
  tables: Array<{ table: string; rows: number }>;
  rows: number;
  lines: number;
  ms: number;
}

const BATCH_BYTES = 4 << 20;

/**
 * Whether the export's schema version needs the target rebuilt at that version and upgraded afterwards (true), or
 * matches the target (false).
 * @throws PegasError INVALID_INPUT for an export newer than the target, older than the first version this build can
 *   rebuild, or older than a target this build cannot rebuild (a store migrated by a newer pegas-memory).
 */
function needsUpgrade(h: ExportHeader, session: ImportSession): boolean {
  const from = `line 1: the export is at schema version ${h.schema_version} (pegas-memory ${h.pegas_memory_version})`;
  const { first, latest } = session.rebuildable;
  if (h.schema_version === session.schemaVersion) return false;
  if (h.schema_version > session.schemaVersion) {
    throw new PegasError("INVALID_INPUT", `${from}, newer than this store at ${session.schemaVersion}`, {
      hint: `import it with pegas-memory ${h.pegas_memory_version} or a later version`,
    });
  }
  if (session.schemaVersion > latest) {
    throw new PegasError(
      "INVALID_INPUT",
      `${from}; this store is at ${session.schemaVersion}, past the schema versions this pegas-memory knows (${first} to ${latest}), so it cannot upgrade the export's rows`,
      {
        hint: "import it with the pegas-memory version that created this store, or into a store created by this version",
      },
    );
  }
  if (h.schema_version < first) {
    throw new PegasError(
      "INVALID_INPUT",
      `${from}, older than the schema versions this pegas-memory can upgrade (${first} to ${latest})`,
      {
        hint: `import it with pegas-memory ${h.pegas_memory_version} into an empty store, upgrade it with \`pegas-memory migrate\` of a version that knows schema version ${h.schema_version}, and export again`,
      },
    );
  }
  return true;
}

/** Checks the header's tables against the target's (`rebuilt` at the export's schema version when it was older). */
function checkHeader(h: ExportHeader, session: ImportSession, rebuilt: boolean): void {
  const at = rebuilt ? `a store at schema version ${session.schemaVersion}` : "this store";
  const hint = `the file was edited, or pegas-memory ${h.pegas_memory_version} had other tables at schema version ${h.schema_version}: import it with that version`;
  const target = new Map(session.tables.map((t) => [t.name, t]));
  for (const t of h.tables) {
    const mine = target.get(t.name);
    if (!mine)
      throw new PegasError("INVALID_INPUT", `line 1: the export has table ${t.name}, which ${at} lacks`, { hint });
    if (!sameTable(t, mine)) {
      throw new PegasError(
        "INVALID_INPUT",
        `line 1: table ${t.name} of the export has other columns than ${at} (${t.columns.map((c) => c.name).join(", ")} vs ${mine.columns.map((c) => c.name).join(", ")})`,
        { hint },
      );
    }
  }
  const listed = new Set(h.tables.map((t) => t.name));
  const missing = session.tables.filter((t) => !listed.has(t.name) && !(t.name === EMBEDDINGS_TABLE && !h.embeddings));
  if (missing.length)
    throw new PegasError(
      "INVALID_INPUT",
      `line 1: the export lacks table(s) ${missing.map((t) => t.name).join(", ")} of ${at}`,
      { hint },
    );
}

async function requireEmpty(session: ImportSession): Promise<void> {
  const busy = await session.nonEmptyTables();
  if (!busy.length) return;
  throw new PegasError(
    "INVALID_INPUT",
    `the target store is not empty: ${busy.map((b) => `${b.table} holds ${b.rows} row(s)`).join(", ")}`,
    {
      hint: "import into a new store: point --data-dir at a new directory, or --database-url at a new database",
    },
  );
}

/** Collects rows of the current table and inserts them in batches. */
class Batcher {
  private rows: ExportRow[] = [];
  private lines: number[] = [];
  private bytes = 0;
  private table: ExportTable | null = null;

  constructor(
    private readonly session: ImportSession,
    private readonly maxRows: number,
  ) {}

  async add(table: ExportTable, row: ExportRow, line: number, size: number): Promise<void> {
    if (this.table && this.table !== table) await this.flush();
    this.table = table;
    this.rows.push(row);
    this.lines.push(line);
    this.bytes += size;
    if (this.rows.length >= this.maxRows || this.bytes >= BATCH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.table && this.rows.length) await this.session.insert(this.table, this.rows, this.lines);
    this.rows = [];
    this.lines = [];
    this.bytes = 0;
  }
}

const bad = (line: number, what: string) =>
  new PegasError("INVALID_INPUT", `line ${line}: ${what}`, {
    hint: "the file is damaged or was edited; export the source store again",
  });

function checkRow(table: ExportTable, row: ExportRow, line: number): void {
  const keys = Object.keys(row);
  const cols = table.columns.map((c) => c.name);
  if (keys.length !== cols.length || cols.some((c) => !(c in row))) {
    const missing = cols.filter((c) => !(c in row));
    const extra = keys.filter((k) => !cols.includes(k));
    throw bad(
      line,
      `a ${table.name} row must have exactly its ${cols.length} columns${missing.length ? `; missing ${missing.join(", ")}` : ""}${extra.length ? `; unknown ${extra.join(", ")}` : ""}`,
    );
  }
}

function checkTrailer(rows: Record<string, number>, counts: Map<string, number>, line: number): void {
  for (const [table, n] of counts) {
    if (rows[table] !== n)
      throw bad(
        line,
        `the trailer counts ${rows[table] ?? "no"} ${table} row(s), the file holds ${n}: rows are missing`,
      );
  }
  const unknown = Object.keys(rows).filter((t) => !counts.has(t));
  if (unknown.length) throw bad(line, `the trailer counts table(s) ${unknown.join(", ")} the header does not list`);
}

/** Reads the rows after the header up to and including the trailer; returns rows per table and the lines read. */
async function loadRows(
  session: ImportSession,
  h: ExportHeader,
  lines: AsyncIterator<string>,
  opts: ImportOptions,
): Promise<{ counts: Map<string, number>; lineNo: number }> {
  const order = new Map(h.tables.map((t, i) => [t.name, i]));
  const counts = new Map(h.tables.map((t) => [t.name, 0]));
  const batch = new Batcher(session, opts.batchRows ?? 1000);
  let at = 0;
  for (let lineNo = 2; ; lineNo++) {
    const next = await lines.next();
    if (next.done)
      throw bad(
        lineNo - 1,
        "the file ends here without its trailer: it was cut short (an export that did not finish, or a copy that did not)",
      );
    if (opts.signal?.aborted)
      throw new PegasError("CANCELLED", `import cancelled at line ${lineNo}; nothing was stored`);
    const parsed = parseLine(next.value, lineNo);
    if (parsed.kind === "trailer") {
      await batch.flush();
      checkTrailer(parsed.rows, counts, lineNo);
      const after = await lines.next();
      if (!after.done) throw bad(lineNo + 1, "text after the trailer");
      return { counts, lineNo };
    }
    const index = order.get(parsed.table);
    if (index === undefined) throw bad(lineNo, `table ${JSON.stringify(parsed.table)} is not listed in the header`);
    if (index < at)
      throw bad(
        lineNo,
        `a ${parsed.table} row after rows of ${h.tables[at].name}: tables must follow the header's order`,
      );
    at = index;
    checkRow(h.tables[index], parsed.row, lineNo);
    counts.set(parsed.table, counts.get(parsed.table)! + 1);
    await batch.add(h.tables[index], parsed.row, lineNo, next.value.length);
  }
}

/**
 * Imports the export read from `lines` (the file's lines without their newlines) into `store`, which must hold no
 * row in any exportable table; all or nothing. An export made at an older schema version is loaded into the empty
 * store rebuilt at that version, and the later migrations then upgrade its rows, as `pegas-memory migrate` upgrades
 * an old store in place; the store ends at its own schema version.
 * @throws PegasError INVALID_INPUT naming the line (not an export, other format, a schema version newer than the
 *   store's or older than this build can upgrade, a damaged or cut file, a row the database refuses) or naming the
 *   tables that hold rows (or the outbox rows an upgrade would drop); CANCELLED; STORE_UNAVAILABLE.
 */
export async function importStore(
  store: ExportStore,
  lines: AsyncIterable<string>,
  opts: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const it = lines[Symbol.asyncIterator]();
  return store.importTransaction(async (session) => {
    const first = await it.next();
    if (first.done) throw bad(1, "the input is empty: not a pegas-memory export");
    const h = parseHeader(first.value);
    const upgrade = needsUpgrade(h, session);
    await requireEmpty(session);
    if (upgrade) await session.rebuildAt(h.schema_version);
    checkHeader(h, session, upgrade);
    const { counts, lineNo } = await loadRows(session, h, it, opts);
    await session.resetSequences(h.tables.map((t) => t.name));
    const migrated = upgrade ? await session.migrate() : [];
    const tables = [...counts].map(([table, rows]) => ({ table, rows }));
    return {
      schema_version: h.schema_version,
      store_schema_version: session.schemaVersion,
      migrated,
      embeddings: h.embeddings,
      source: { pegas_memory_version: h.pegas_memory_version, backend: h.backend, created_at: h.created_at },
      tables,
      rows: tables.reduce((n, t) => n + t.rows, 0),
      lines: lineNo,
      ms: Math.round(performance.now() - started),
    };
  });
}
