/**
 * `pegas-memory research [--gap ID] [--max-urls N] [--budget-s S] [--json]`: the research runner (core/gaps/research.ts)
 * over the SearxNG-compatible backend at `search_url` (PEGAS_SEARCH_URL). Progress goes to stderr, the summary to
 * stdout (JSON with --json). Exit 0 when every gap it took ended answered, 1 when some stay open. SIGINT/SIGTERM
 * cancel it (what was stored stays, the attempt is recorded).
 */
import type { Config } from "../config.ts";
import { research, type ResearchResult } from "../core/gaps/research.ts";
import { invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { withServices } from "./commands.ts";
import { out, outJson, progressBar } from "./output.ts";
import { makeWebSearch } from "../wiring/services.ts";

/** Timeout of one request to the search backend (ms). */
const SEARCH_TIMEOUT_MS = 20_000;

function intOption(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw invalidInput(`${what} must be an integer, got '${String(value)}'`);
  return n;
}

function summary(r: ResearchResult): string {
  const lines = r.gaps.map((g) => {
    const tried = g.sources.map(
      (s) =>
        `    ${s.outcome.padEnd(7)} ${s.url}${s.doc_id !== null ? ` (document ${s.doc_id}, ${s.atoms_created} new atom(s))` : ""}${s.error ? ` — ${s.error}` : ""}`,
    );
    const head =
      g.status === "answered"
        ? `gap ${g.gap_id} answered by atom(s) ${g.answered_by.join(", ")} (${g.decided_by})`
        : `gap ${g.gap_id} still open`;
    return [
      `${head}: ${g.question}`,
      ...(g.search_error ? [`    search failed: ${g.search_error}`] : []),
      ...tried,
    ].join("\n");
  });
  const foot =
    `${r.answered} of ${r.gaps.length} gap(s) answered, ${r.urls_fetched} URL(s) tried in ${(r.took_ms / 1000).toFixed(1)} s` +
    `${r.budget_exhausted ? " (budget exhausted)" : ""} via ${r.backend}`;
  return [...(lines.length ? lines : ["no open gaps"]), foot].join("\n");
}

/** `research`: see the module doc. @throws PegasError INVALID_INPUT (no search_url, bad options), NOT_FOUND, CANCELLED. */
export async function runResearch(config: Config, cli: Cli): Promise<number> {
  const web = await makeWebSearch(config, SEARCH_TIMEOUT_MS);
  if (!web) {
    throw invalidInput(
      "research needs a search backend, and search_url (PEGAS_SEARCH_URL) is not set",
      "set PEGAS_SEARCH_URL to a SearxNG instance with the json format enabled",
    );
  }
  const input = {
    gapId: intOption(cli.values.gap, "--gap"),
    maxUrls: intOption(cli.values["max-urls"], "--max-urls"),
    budgetS: intOption(cli.values["budget-s"], "--budget-s"),
  };
  const bar = progressBar("research", { everyMs: 0 });
  return withServices(config, async (services, signal) => {
    const r = await research(services, web, { ...input, signal, onProgress: bar.onProgress }).finally(bar.done);
    if (cli.values.json) outJson(r);
    else out(summary(r));
    return r.gaps.every((g) => g.status === "answered") ? 0 : 1;
  });
}
