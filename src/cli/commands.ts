/**
 * CLI commands other than `serve`: each opens the services, does one job, prints, closes. Returns the exit status.
 */
import { readFileSync } from "node:fs";
import type { Config } from "../config.ts";
import { type IngestInput, type IngestResult, ingest } from "../core/documents/ingest.ts";
import type { DocumentResult } from "../core/documents/ingest-document.ts";
import { search } from "../core/search/search.ts";
import { stats } from "../core/projections/stats.ts";
import { type VerifyChange, revertStatusChange, verifyAtoms } from "../core/verify/verify.ts";
import { PegasError, UsageError, invalidInput, toPegasError } from "../errors.ts";
import type { Services } from "../core/services.ts";
import type { AtomType } from "../domain/atom.ts";
import { createServices } from "../wiring/services.ts";
import { openStore } from "../wiring/store.ts";
import type { Cli } from "./args.ts";
import { formatSearch, out, outJson, progressBar } from "./output.ts";

/** `migrate`: applies pending migrations. */
export async function runMigrate(config: Config, cli: Cli): Promise<number> {
  const store = await openStore(config);
  try {
    const applied = await store.maintenance.migrate();
    const status = await store.maintenance.migrationStatus();
    if (cli.values.json) outJson({ applied, schema_version: Math.max(0, ...status.applied), location: store.location });
    else
      out(
        applied.length
          ? `applied migration(s) ${applied.join(", ")} to ${store.location}`
          : `schema is up to date (version ${Math.max(0, ...status.applied)}) at ${store.location}`,
      );
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * Opens the services, runs `fn`, closes them. SIGINT/SIGTERM abort `fn` and close the database cleanly (in-flight
 * work gets 0.8 s, then is rolled back), so the next start needs no crash recovery.
 */
export async function withServices<T>(
  config: Config,
  fn: (s: Services, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const services = await createServices(config);
  const ac = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (ac.signal.aborted) return;
    ac.abort(new PegasError("CANCELLED", `interrupted by ${sig}`));
    void services.close(800);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const out = await fn(services, ac.signal);
    if (ac.signal.aborted) throw ac.signal.reason;
    return out;
  } catch (err) {
    throw ac.signal.aborted ? ac.signal.reason : err;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await services.close();
  }
}

/** What `ingest` read from one source named on the command line: its result, or the error that stopped it. */
type SourceOutcome = { source: string; result: IngestResult } | { source: string; error: PegasError };

const inputOf = (target: string, title: string | undefined, observed_at: string | undefined): IngestInput =>
  target === "-"
    ? { text: readFileSync(0, "utf8"), title, observed_at }
    : /^https?:\/\//i.test(target)
      ? { url: target, title, observed_at }
      : { path: target, title, observed_at };

/**
 * `ingest <path|url|->... [--title T]`: each source in turn over one opened store, one line per document; a source
 * that fails is reported and the others still run. Exit 1 when any source failed or gave no text; with one source its
 * error is thrown (its own exit status), as before several were taken.
 */
export async function runIngest(config: Config, cli: Cli): Promise<number> {
  const targets = cli.positionals;
  if (!targets.length)
    throw new UsageError("ingest needs a path, a URL, or - for standard input", "see `pegas-memory ingest --help`");
  const title = cli.values.title as string | undefined;
  const observedAt = cli.values["observed-at"] as string | undefined;
  const hint = "see `pegas-memory ingest --help`";
  if (title !== undefined && targets.length > 1)
    throw new UsageError("--title names one source; give one with it", hint);
  if (targets.filter((t) => t === "-").length > 1) throw new UsageError("standard input (-) can be read once", hint);
  const outcomes = await withServices(config, async (s, signal) => {
    const done: SourceOutcome[] = [];
    for (const [i, source] of targets.entries()) {
      const bar = progressBar(targets.length > 1 ? `ingest ${i + 1}/${targets.length}` : "ingest");
      try {
        const opts = { trustedPath: true, signal, onProgress: bar.onProgress };
        done.push({ source, result: await ingest(s, inputOf(source, title, observedAt), opts) });
      } catch (err) {
        if (signal.aborted || targets.length === 1) throw err;
        done.push({ source, error: toPegasError(err) });
      } finally {
        bar.done();
      }
    }
    return done;
  });
  if (cli.values.json) {
    const json = outcomes.map((o) =>
      "result" in o
        ? { source: o.source, ...o.result }
        : { source: o.source, error: o.error.code, message: o.error.userMessage },
    );
    outJson(targets.length === 1 ? json[0] : json);
  }
  let failed = false;
  for (const o of outcomes) {
    if ("error" in o) {
      failed = true;
      process.stderr.write(`error: ${o.source}: ${o.error.code}: ${o.error.userMessage}\n`);
      continue;
    }
    const r = o.result;
    if (!cli.values.json) for (const d of r.documents) out(formatDocument(d));
    for (const e of r.errors) process.stderr.write(`error: ${e.source}: ${e.code}: ${e.message}\n`);
    for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
    failed ||= r.errors.length > 0 || r.documents.some((d) => !d.stored);
  }
  return failed ? 1 : 0;
}

function formatDocument(d: DocumentResult): string {
  if (!d.stored) return `not stored: ${d.uri}: no text extracted`;
  if (d.unchanged) return `unchanged: ${d.uri} (document ${d.doc_id}, version ${d.version})`;
  return (
    `ingested ${d.uri} as document ${d.doc_id} v${d.version} (${d.kind}, ${d.sections} section(s)): ${d.chunks} chunks, ` +
    `${d.atoms_created} new atoms, ${d.atoms_existing} existing, ${d.atoms_near_duplicate} near-duplicates, ${d.atoms_staled} stale` +
    (d.atoms_superseded ? `, ${d.atoms_superseded} superseded` : "")
  );
}

/** `search <query…> [--k N] [--type T]`. */
export async function runSearch(config: Config, cli: Cli): Promise<number> {
  const query = cli.positionals.join(" ").trim();
  if (!query) throw new UsageError("search needs a query", "see `pegas-memory search --help`");
  const k = cli.values.k === undefined ? 10 : Number(cli.values.k);
  const types = cli.values.type as AtomType[] | undefined;
  const r = await withServices(config, (s, signal) => search(s, { query, k, types }, signal));
  if (cli.values.json) outJson(r);
  else out(formatSearch(r));
  return 0;
}

/** `stats`. */
export async function runStats(config: Config, cli: Cli): Promise<number> {
  const r = await withServices(config, (s) => stats(s));
  if (cli.values.json) outJson(r);
  else {
    out(`store: ${r.store.backend} ${r.store.location} (schema v${r.schema_version})`);
    out(
      `atoms: ${r.atoms.total} ${JSON.stringify(r.atoms.by_status)}  documents: ${r.documents.total}  chunks: ${r.chunks}  citations: ${r.citations}`,
    );
    out(
      `embedder: ${r.embedder.model} (${r.embedder.kind}, dim ${r.embedder.dim})  outbox: ${r.outbox.pending} pending, ${r.outbox.dead} dead`,
    );
    out(`links: ${r.links}  merges: ${r.merges}  quarantined chunks: ${r.quarantined_chunks}  traces: ${r.traces}`);
    for (const p of r.projections.external) {
      out(
        p.error
          ? `${p.name}: unreachable: ${p.error}`
          : `${p.name}: holds ${JSON.stringify(p.held)}, drift ${JSON.stringify(p.drift)}, lag ${p.lag_s} s`,
      );
    }
  }
  return 0;
}

/** A positive integer option `--name`, or undefined when absent. @throws PegasError INVALID_INPUT otherwise. */
export function intOption(cli: Cli, name: string): number | undefined {
  const v = cli.values[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw invalidInput(`--${name} must be a positive integer, got '${String(v)}'`);
  return n;
}

const formatChange = (c: VerifyChange): string =>
  `change ${c.change_id}: atom ${c.atom_id} ${c.from} → ${c.to}: ${c.reason}${c.evidence.length ? ` [evidence: ${c.evidence.join(", ")}]` : ""}`;

/** `verify [--atom N | --doc N] [--limit N]` or `verify --revert N`. */
export async function runVerify(config: Config, cli: Cli): Promise<number> {
  const [atom_id, doc_id, limit, revert] = ["atom", "doc", "limit", "revert"].map((n) => intOption(cli, n));
  if (revert !== undefined) {
    if (atom_id !== undefined || doc_id !== undefined || limit !== undefined) throw invalidInput("--revert goes alone");
    const r = await withServices(config, (s) => revertStatusChange(s, revert));
    if (cli.values.json) outJson(r);
    else out(`reverted change ${r.reverted.change_id} as ${formatChange(r.revert)}`);
    return 0;
  }
  const r = await withServices(config, (s, signal) => verifyAtoms(s, { atom_id, doc_id, limit, signal }));
  if (cli.values.json) outJson(r);
  else {
    for (const c of r.changes) out(formatChange(c));
    const v = r.verdicts;
    out(
      `verified ${r.checked} atom(s) with the ${r.judge} judge: ${r.changes_total} status change(s), ${r.confidence_raised} confidence raise(s); ` +
        `verdicts: ${v.new} new, ${v.duplicate} duplicate, ${v.corroborates} corroborates, ${v.contradicts} contradicts`,
    );
  }
  for (const w of r.warnings) process.stderr.write(`warning: ${w}\n`);
  return 0;
}
