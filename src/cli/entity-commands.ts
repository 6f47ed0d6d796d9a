/**
 * CLI command `reindex entities|quantities [--restart] [--limit N]`: the resumable backfills of entity mentions
 * (issue 22) and of measurements (issue 24) for atoms stored before them.
 */
import type { Config } from "../config.ts";
import { backfillEntities } from "../core/entities/backfill.ts";
import { backfillQuantities } from "../core/quantities/backfill.ts";
import { invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

/** Progress on stderr at most every 500 ms. */
function progressPrinter(what = "entities"): (p: { atoms: number; lastAtomId: number }) => void {
  let last = 0;
  return (p) => {
    if (Date.now() - last < 500) return;
    last = Date.now();
    process.stderr.write(`reindex ${what}: ${p.atoms} atoms, up to atom ${p.lastAtomId}\n`);
  };
}

/** `reindex quantities`: reads the measurements of the atoms not yet scanned; prints what it added. */
async function reindexQuantities(config: Config, cli: Cli): Promise<number> {
  const r = await withServices(config, (s, signal) =>
    backfillQuantities(s.quantities, {
      restart: Boolean(cli.values.restart),
      maxAtoms: intOption(cli, "limit"),
      signal,
      onProgress: progressPrinter("quantities"),
    }),
  );
  if (cli.values.json) outJson(r);
  else
    out(
      `reindex quantities: ${r.atoms} atom(s) read after atom ${r.resumedAfter}, ${r.quantitiesAdded} measurement(s) added; ${r.finished ? "done" : `stopped at atom ${r.lastAtomId}, run again to resume`}`,
    );
  return 0;
}

/** `reindex entities|quantities`: extracts what the atoms not yet scanned hold; prints what it added. */
export async function runReindex(config: Config, cli: Cli): Promise<number> {
  const what = cli.positionals.length === 1 ? cli.positionals[0] : "";
  if (what === "quantities") return reindexQuantities(config, cli);
  if (what !== "entities")
    throw invalidInput(
      `reindex needs 'entities' or 'quantities', got '${cli.positionals.join(" ")}'`,
      "pegas-memory reindex entities",
    );
  const r = await withServices(config, (s, signal) =>
    backfillEntities(s.entities, {
      restart: Boolean(cli.values.restart),
      maxAtoms: intOption(cli, "limit"),
      signal,
      onProgress: progressPrinter(),
    }),
  );
  if (cli.values.json) outJson(r);
  else
    out(
      `reindex entities: ${r.atoms} atom(s) read after atom ${r.resumedAfter}, ${r.mentionsAdded} mention(s) and ${r.entitiesCreated} entit${r.entitiesCreated === 1 ? "y" : "ies"} added, ${r.merged} alias merge(s); ${r.finished ? "done" : `stopped at atom ${r.lastAtomId}, run again to resume`}`,
    );
  return 0;
}
