/** CLI command of source freshness: `refresh [--older-than D] [--limit N]`, the re-check of fetched URL documents. */
import type { Config } from "../config.ts";
import { parseAge } from "../core/documents/freshness-policy.ts";
import { refresh } from "../core/documents/refresh.ts";
import { describeRefreshCounts, refreshLines } from "../core/documents/refresh-report.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

/**
 * `refresh`: checks the fetched URL documents whose last check is older than `--older-than` (default 7d) with
 * conditional requests and prints what each check found, then the pages still waiting for the retry time of an
 * earlier failed check (with their next attempt). Exit 0 (a check that failed is retried by a later run).
 */
export async function runRefresh(config: Config, cli: Cli): Promise<number> {
  const age = cli.values["older-than"];
  const r = await withServices(config, (s, signal) =>
    refresh(s, {
      olderThanS: typeof age === "string" ? parseAge(age) : undefined,
      limit: intOption(cli, "limit"),
      signal,
    }),
  );
  if (cli.values.json) {
    outJson(r);
    return 0;
  }
  for (const line of refreshLines(r)) out(line);
  out(`refresh: ${describeRefreshCounts(r)}`);
  return 0;
}
