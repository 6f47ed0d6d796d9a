/**
 * `pegas-memory export`: every canonical table but the outbox (embeddings on request) as JSON Lines
 * (src/core/export/format.ts), read from one snapshot of the store page by page and written as it is read, so a
 * table is never held whole in memory.
 */
import { PegasError } from "../../errors.ts";
import type { ExportStore } from "../../ports/store/export-store.ts";
import { VERSION } from "../../version.ts";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, headerLine, rowLine, trailerLine } from "./format.ts";

/** Where an export goes: `write` resolves once the text is accepted (backpressure). */
export interface TextSink {
  write(text: string): Promise<void>;
}

/** Options of {@link exportStore}. */
export interface ExportOptions {
  /** Include pm_atom_embedding (vectors of every model stored; the bulk of the file). */
  embeddings: boolean;
  /** Rows read per query (default 1000). */
  pageSize?: number;
  signal?: AbortSignal;
}

/** What an export wrote: rows per table (in file order), totals, bytes written, milliseconds taken. */
export interface ExportSummary {
  schema_version: number;
  embeddings: boolean;
  tables: Array<{ table: string; rows: number }>;
  rows: number;
  bytes: number;
  ms: number;
}

/** Default rows per page. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Writes the export of `store` to `sink`: header, rows table by table, trailer.
 * @throws PegasError CANCELLED when `opts.signal` aborts, INTERNAL for a table that cannot be carried exactly,
 *   STORE_UNAVAILABLE; whatever the sink throws passes through. The sink then holds a partial file without trailer.
 */
export async function exportStore(store: ExportStore, sink: TextSink, opts: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const pageSize = opts.pageSize ?? EXPORT_PAGE_SIZE;
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    await sink.write(text);
  };
  return store.snapshot({ embeddings: opts.embeddings }, async (snap) => {
    await write(
      `${headerLine({
        format: EXPORT_FORMAT,
        format_version: EXPORT_FORMAT_VERSION,
        schema_version: snap.schemaVersion,
        pegas_memory_version: VERSION,
        created_at: new Date().toISOString(),
        backend: snap.backend,
        embeddings: opts.embeddings,
        tables: snap.tables,
      })}\n`,
    );
    const counts: Record<string, number> = {};
    for (const table of snap.tables) {
      counts[table.name] = 0;
      for await (const page of snap.pages(table, pageSize)) {
        if (opts.signal?.aborted)
          throw new PegasError(
            "CANCELLED",
            `export cancelled in table ${table.name}; the output has no trailer and cannot be imported`,
          );
        await write(page.map((row) => `${rowLine(table.name, row)}\n`).join(""));
        counts[table.name] += page.length;
      }
    }
    await write(`${trailerLine(counts)}\n`);
    const tables = Object.entries(counts).map(([table, rows]) => ({ table, rows }));
    return {
      schema_version: snap.schemaVersion,
      embeddings: opts.embeddings,
      tables,
      rows: tables.reduce((n, t) => n + t.rows, 0),
      bytes,
      ms: Math.round(performance.now() - started),
    };
  });
}
