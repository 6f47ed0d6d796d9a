/**
 * `export [--out FILE] [--embeddings]` and `import <file|->`: the whole store as JSON Lines and back (see
 * src/core/export/format.ts). The export goes to FILE.tmp and is renamed to FILE only once complete, so a failed
 * export leaves no half file; the import is one transaction into an empty store (an export made by an older
 * pegas-memory is upgraded to this store's schema version in it), followed by the embedding backfill
 * that the in-process vector index needs when the file came without embeddings.
 */
import { createReadStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Config } from "../config.ts";
import { backfillEmbeddings } from "../core/projections/backfill.ts";
import { exportStore, type ExportSummary, type TextSink } from "../core/export/export.ts";
import { importStore, type ImportSummary } from "../core/export/import.ts";
import { PegasError, UsageError, invalidInput } from "../errors.ts";
import { openMigratedStore } from "../wiring/store.ts";
import type { Cli } from "./args.ts";
import { withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

/** Runs `fn` with an AbortSignal that SIGINT/SIGTERM abort. */
async function interruptible<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => ac.abort(new PegasError("CANCELLED", `interrupted by ${sig}`));
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await fn(ac.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** A sink on stdout that waits for 'drain' when the pipe is full. */
function stdoutSink(): TextSink {
  return {
    write: (text) =>
      new Promise((resolve, reject) => {
        process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Writes through `fn` into `path`.tmp, fsyncs and renames it to `path`; removes the .tmp when `fn` fails. */
async function toFileAtomically<T>(path: string, fn: (sink: TextSink) => Promise<T>): Promise<T> {
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, "w", 0o600).catch((err) => {
    throw invalidInput(`cannot write '${tmp}': ${(err as Error).message}`, "give --out a path in a writable directory");
  });
  try {
    const result = await fn({ write: async (text) => void (await fh.write(text)) });
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
    return result;
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
}

function printSummary(
  write: (line: string) => void,
  verb: string,
  s: { tables: Array<{ table: string; rows: number }>; rows: number; ms: number },
  extra: string,
): void {
  for (const t of s.tables) write(`${t.table.padEnd(24)} ${String(t.rows).padStart(9)}`);
  const rate = s.ms > 0 ? Math.round((s.rows / s.ms) * 1000) : s.rows;
  write(`${verb} ${s.rows} rows in ${s.ms} ms (${rate} rows/s)${extra}`);
}

/** `export [--out FILE] [--embeddings]`: data to FILE or stdout, rows per table to stderr. */
export async function runExport(config: Config, cli: Cli): Promise<number> {
  if (cli.positionals.length)
    throw invalidInput(
      `export takes no arguments, got '${cli.positionals.join(" ")}'`,
      "give the file with --out FILE",
    );
  const path = cli.values.out as string | undefined;
  const embeddings = Boolean(cli.values.embeddings);
  if (!path && process.stdout.isTTY)
    throw invalidInput("export writes the whole store: give --out FILE or redirect standard output");
  const store = await openMigratedStore(config);
  let summary: ExportSummary;
  try {
    summary = await interruptible((signal) =>
      path
        ? toFileAtomically(path, (sink) => exportStore(store.exports, sink, { embeddings, signal }))
        : exportStore(store.exports, stdoutSink(), { embeddings, signal }),
    );
  } finally {
    await store.close();
  }
  const err = (line: string) => process.stderr.write(`${line}\n`);
  if (cli.values.json) (path ? outJson : (v: unknown) => err(JSON.stringify(v)))(summary);
  else
    printSummary(
      err,
      "exported",
      summary,
      `, ${(summary.bytes / 1e6).toFixed(1)} MB${embeddings ? " with embeddings" : ""} to ${path ?? "standard output"}`,
    );
  return 0;
}

/** The lines of a file or of stdin (`-`), without their line ends; `close` lets go of the input when not read to its end. */
function linesOf(target: string): { lines: AsyncIterable<string>; close(): void } {
  const input = target === "-" ? process.stdin : createReadStream(target);
  const lines = createInterface({ input, crlfDelay: Infinity });
  return { lines, close: () => (lines.close(), input.destroy()) };
}

/**
 * Embeds the atoms that lack a vector of the active model: all of them after an import without embeddings, retracted
 * ones included (`forget --undo` may bring them back).
 */
async function followProjections(config: Config): Promise<void> {
  try {
    const n = await withServices(config, (s, signal) => {
      process.stderr.write(`embedding atoms that lack a vector of ${s.embedder.model}…\n`);
      return backfillEmbeddings(s, signal);
    });
    process.stderr.write(`embedded ${n} atom(s)\n`);
  } catch (err) {
    const e = err as PegasError;
    process.stderr.write(
      `warning: the import is stored, but embedding the atoms failed: ${e.userMessage ?? e.message}; ` +
        "run `pegas-memory rebuild vector` once the embedder is reachable (serve embeds the live atoms at start)\n",
    );
  }
  if (config.qdrant_url || config.memgraph_url) {
    process.stderr.write(
      "note: external projections are configured (Qdrant, Memgraph): run `pegas-memory rebuild all` to fill them from the imported store\n",
    );
  }
}

/**
 * `import <file|->`: loads an export into an empty store (an export of an older schema version is upgraded by the
 * later migrations), then embeds what lacks vectors; rows per table on stdout.
 */
export async function runImport(config: Config, cli: Cli): Promise<number> {
  const target = cli.positionals[0];
  if (!target || cli.positionals.length > 1)
    throw new UsageError("import needs exactly one file, or - for standard input", "see `pegas-memory import --help`");
  if (target !== "-") {
    const readable = await open(target, "r")
      .then((fh) => fh.close())
      .then(
        () => null,
        (err: Error) => err.message,
      );
    if (readable) throw invalidInput(`cannot read '${target}': ${readable}`);
  }
  const store = await openMigratedStore(config);
  const input = linesOf(target);
  let summary: ImportSummary;
  try {
    summary = await interruptible((signal) => importStore(store.exports, input.lines, { signal }));
  } finally {
    input.close();
    await store.close();
  }
  if (cli.values.json) outJson(summary);
  else {
    const from = `from ${summary.source.backend} (pegas-memory ${summary.source.pegas_memory_version}, ${summary.source.created_at})`;
    printSummary(out, "imported", summary, ` ${from}${summary.embeddings ? " with embeddings" : ""}`);
    if (summary.migrated.length) {
      out(
        `upgraded from schema version ${summary.schema_version} to ${summary.store_schema_version} (migration(s) ${summary.migrated.join(", ")} applied to the imported rows)`,
      );
    }
  }
  await followProjections(config);
  return 0;
}
