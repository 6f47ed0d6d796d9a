/** CLI command of entities: `reindex entities [--restart] [--limit N]`, the resumable backfill of mentions. */
import type { Config } from "../config.ts";
import { backfillEntities } from "../core/entities/backfill.ts";
import { invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

/** Progress on stderr at most every 500 ms. */
function progressPrinter(): (p: { atoms: number; lastAtomId: number }) => void {
  let last = 0;
  return (p) => {
    if (Date.now() - last < 500) return;
    last = Date.now();
    process.stderr.write(`reindex entities: ${p.atoms} atoms, up to atom ${p.lastAtomId}\n`);
  };
}

/** `reindex entities`: extracts mentions of the atoms not yet scanned; prints what it added. */
export async function runReindex(config: Config, cli: Cli): Promise<number> {
  if (cli.positionals.length !== 1 || cli.positionals[0] !== "entities")
    throw invalidInput(`reindex needs 'entities', got '${cli.positionals.join(" ")}'`, "pegas-memory reindex entities");
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
