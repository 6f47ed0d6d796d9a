/** CLI command of source freshness: `refresh [--older-than D] [--limit N]`, the re-check of fetched URL documents. */
import type { Config } from "../config.ts";
import { parseAge } from "../core/documents/freshness-policy.ts";
import { describeRefreshCounts, describeRefreshItem, refresh } from "../core/documents/refresh.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

/**
 * `refresh`: checks the fetched URL documents whose last check is older than `--older-than` (default 7d) with
 * conditional requests and prints what each check found. Exit 0 (a check that failed is retried by a later run).
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
  for (const i of r.items) out(describeRefreshItem(i));
  out(`refresh: ${describeRefreshCounts(r)}`);
  return 0;
}
