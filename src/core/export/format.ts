/**
 * The file format of `pegas-memory export` (JSON Lines, UTF-8, one JSON object per line):
 * 1. a header: `{"format":"pegas-memory-export","format_version":1,"schema_version":10,"pegas_memory_version":"0.1.0",
 *    "created_at":"…Z","backend":"pglite","embeddings":false,"tables":[{"name":"pm_document","columns":[{"name":"id",
 *    "type":"bigint"},…],"primary_key":["id"]},…]}` — tables in the order their rows follow (referenced tables first);
 * 2. one line per row: `{"table":"pm_atom","row":{"id":1,"claim":"…",…}}` — every listed column, values as the
 *    ExportRow of src/ports/store/export-store.ts describes;
 * 3. a trailer: `{"trailer":{"rows":{"pm_document":14,…}}}` — rows per table, so that a cut file is detected.
 * `schema_version` is the source store's latest migration, and the tables are that version's: a pegas-memory of a
 * later schema version imports the file into its store rebuilt at that version and upgrades the rows with its later
 * migrations (src/core/export/import.ts); an earlier one refuses it.
 */
import { z } from "zod";
import { PegasError } from "../../errors.ts";
import type { ExportTable } from "../../ports/store/export-store.ts";

/** The format's name, the header's `format`. */
export const EXPORT_FORMAT = "pegas-memory-export";
/** The format's version; a reader refuses any other. */
export const EXPORT_FORMAT_VERSION = 1;

const TableSchema = z.object({
  name: z.string().min(1),
  columns: z.array(z.object({ name: z.string().min(1), type: z.string().min(1) })).min(1),
  primary_key: z.array(z.string().min(1)).min(1),
});

const HeaderSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  format_version: z.number().int(),
  schema_version: z.number().int().nonnegative(),
  pegas_memory_version: z.string(),
  created_at: z.string(),
  backend: z.string(),
  embeddings: z.boolean(),
  tables: z.array(TableSchema),
});

/** The first line of an export. */
export type ExportHeader = z.infer<typeof HeaderSchema>;

const TrailerSchema = z
  .object({ trailer: z.object({ rows: z.record(z.string(), z.number().int().nonnegative()) }) })
  .strict();

/** The last line of an export: rows per table. */
export type ExportTrailer = z.infer<typeof TrailerSchema>;

/** One parsed line after the header. */
export type ExportLine =
  | { kind: "row"; table: string; row: Record<string, unknown> }
  | { kind: "trailer"; rows: Record<string, number> };

const damaged = (line: number, what: string) =>
  new PegasError("INVALID_INPUT", `line ${line}: ${what}`, {
    hint: "the file is damaged, cut short or not an export of pegas-memory; export the source store again",
  });

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw damaged(line, `not valid JSON (${(err as Error).message})`);
  }
}

/** The header line, a {@link ExportHeader}. @throws PegasError INVALID_INPUT for anything else. */
export function parseHeader(text: string): ExportHeader {
  const v = parseJson(text, 1);
  if (!v || typeof v !== "object" || (v as { format?: unknown }).format !== EXPORT_FORMAT) {
    throw damaged(1, `not a ${EXPORT_FORMAT} header`);
  }
  const version = (v as { format_version?: unknown }).format_version;
  if (version !== EXPORT_FORMAT_VERSION) {
    throw new PegasError(
      "INVALID_INPUT",
      `line 1: export format version ${JSON.stringify(version)}; this pegas-memory reads version ${EXPORT_FORMAT_VERSION}`,
      {
        hint: "import it with the pegas-memory version named in the header (pegas_memory_version)",
      },
    );
  }
  const parsed = HeaderSchema.safeParse(v);
  if (!parsed.success)
    throw damaged(
      1,
      `malformed header (${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")})`,
    );
  return parsed.data;
}

/** A line after the header: a row of a table or the trailer. @throws PegasError INVALID_INPUT naming the line. */
export function parseLine(text: string, line: number): ExportLine {
  const v = parseJson(text, line) as Record<string, unknown> | null;
  if (v && typeof v === "object" && !Array.isArray(v)) {
    if ("trailer" in v) {
      const t = TrailerSchema.safeParse(v);
      if (!t.success) throw damaged(line, "malformed trailer");
      return { kind: "trailer", rows: t.data.trailer.rows };
    }
    const keys = Object.keys(v);
    const row = v.row;
    if (keys.length === 2 && typeof v.table === "string" && row && typeof row === "object" && !Array.isArray(row)) {
      return { kind: "row", table: v.table, row: row as Record<string, unknown> };
    }
  }
  throw damaged(line, 'expected {"table": …, "row": {…}} or the trailer');
}

/** The header line (no newline). */
export function headerLine(h: ExportHeader): string {
  return JSON.stringify(h);
}

/** A row line (no newline). */
export function rowLine(table: string, row: Record<string, unknown>): string {
  return `{"table":${JSON.stringify(table)},"row":${JSON.stringify(row)}}`;
}

/** The trailer line (no newline). */
export function trailerLine(rows: Record<string, number>): string {
  return JSON.stringify({ trailer: { rows } } satisfies ExportTrailer);
}

/** Whether two table descriptions agree (name, columns with types in order, primary key). */
export function sameTable(a: ExportTable, b: ExportTable): boolean {
  return (
    JSON.stringify([a.name, a.columns.map((c) => [c.name, c.type]), a.primary_key]) ===
    JSON.stringify([b.name, b.columns.map((c) => [c.name, c.type]), b.primary_key])
  );
}
