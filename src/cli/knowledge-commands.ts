/**
 * CLI commands of the knowledge layer besides `verify`: `distill --retry` (quarantined chunks) and `unmerge`.
 */
import type { Config } from "../config.ts";
import { retryQuarantine } from "../core/documents/quarantine.ts";
import { UsageError, invalidInput } from "../errors.ts";
import { createServices } from "../wiring/services.ts";
import type { Cli } from "./args.ts";
import { out, outJson } from "./output.ts";

function positiveInt(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw invalidInput(`${what} must be a positive integer, got '${String(value)}'`);
  return n;
}

/** `distill --retry [--doc N] [--limit N]`: distills quarantined chunks again. Exit 1 when some still fail. */
export async function runDistill(config: Config, cli: Cli): Promise<number> {
  if (!cli.values.retry)
    throw invalidInput(
      "distill needs --retry",
      "`pegas-memory distill --retry [--doc N] [--limit N]` retries quarantined chunks",
    );
  const services = await createServices(config);
  try {
    const r = await retryQuarantine(services, {
      doc_id: positiveInt(cli.values.doc, "--doc"),
      limit: positiveInt(cli.values.limit, "--limit"),
    });
    if (cli.values.json) outJson(r);
    else {
      out(
        `retried ${r.retried} quarantined chunk(s) with ${r.distiller}: ${r.resolved} stored (${r.atoms_created} new atoms, ` +
          `${r.atoms_existing} existing, ${r.atoms_near_duplicate} merged), ${r.failed.length} failed again`,
      );
      for (const f of r.failed)
        out(`  entry ${f.quarantine_id} (document ${f.doc_id}): ${f.reason}, ${f.attempts} attempt(s)`);
    }
    return r.failed.length ? 1 : 0;
  } finally {
    await services.close();
  }
}

/** `unmerge <merge_id>`: undoes a near-duplicate merge (the absorbed atom becomes a candidate again). */
export async function runUnmerge(config: Config, cli: Cli): Promise<number> {
  const id = positiveInt(cli.positionals[0], "the merge id");
  if (id === undefined) throw new UsageError("unmerge needs a merge id", "memory_store reports `merge.merge_id`");
  const services = await createServices(config);
  try {
    const m = await services.atomWrites.undoMerge(id);
    if (cli.values.json) outJson(m);
    else out(`merge ${m.id} undone: atom ${m.absorbedAtomId} is a candidate again, apart from atom ${m.keptAtomId}`);
    return 0;
  } finally {
    await services.close();
  }
}
