/**
 * CLI commands of research gaps: `gaps [--status S] [--limit N]` (list, with suggested gaps from repeated search
 * misses) and `gap-add <question> [--reason R] [--priority P]`. Each opens the services, prints, closes.
 */
import type { Config } from "../config.ts";
import { addGap, listGaps } from "../core/gaps/gaps.ts";
import { UsageError, invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";
import type { GapRow, GapStatus } from "../core/services.ts";

function intOption(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw invalidInput(`${what} must be an integer, got '${String(value)}'`);
  return n;
}

function gapLine(g: GapRow): string {
  const repeats = Number(g.metadata.repeat_count ?? 0);
  const tries = Number(g.metadata.attempt_count ?? 0);
  const extra = [repeats ? `asked ${repeats + 1}×` : "", tries ? `${tries} research attempt(s)` : ""]
    .filter(Boolean)
    .join(", ");
  const answer = g.metadata.answer as { atom_ids?: number[] } | undefined;
  const by = answer?.atom_ids?.length ? ` — answered by atom(s) ${answer.atom_ids.join(", ")}` : "";
  return `[gap ${g.id}, priority ${g.priority}, ${g.status}] ${g.question}${extra ? ` (${extra})` : ""}${by}${g.reason ? `\n     why: ${g.reason}` : ""}`;
}

/** `gaps [--status open|answered|dismissed|all] [--limit N] [--json]`: gaps most urgent first, then suggested gaps. */
export async function runGaps(config: Config, cli: Cli): Promise<number> {
  const status = (cli.values.status as GapStatus | "all" | undefined) ?? "open";
  const limit = intOption(cli.values.limit, "--limit");
  return withServices(config, async (services) => {
    const r = await listGaps(services, { status, limit });
    if (cli.values.json) {
      outJson(r);
      return 0;
    }
    out(r.gaps.length ? r.gaps.map(gapLine).join("\n") : `no ${status === "all" ? "" : `${status} `}gaps`);
    if (r.total > r.gaps.length) out(`(${r.total - r.gaps.length} more: raise --limit)`);
    if (r.suggested.length) {
      out(`\nsuggested gaps (searches that missed repeatedly; add one with gap-add):`);
      for (const s of r.suggested)
        out(`  «${s.query}» — missed ${s.misses}×, best score ${s.best_score.toFixed(2)}, last ${s.last_at}`);
    }
    return 0;
  });
}

/** `gap-add <question> [--reason R] [--priority P] [--json]`: adds a gap, or raises the open gap it repeats. */
export async function runGapAdd(config: Config, cli: Cli): Promise<number> {
  const question = cli.positionals.join(" ").trim();
  if (!question)
    throw new UsageError("gap-add needs a question", 'pegas-memory gap-add "What …?" [--reason R] [--priority 1..5]');
  const priority = intOption(cli.values.priority, "--priority");
  return withServices(config, async (services) => {
    const r = await addGap(services, { question, reason: cli.values.reason as string | undefined, priority });
    if (cli.values.json) outJson(r);
    else if (r.created) out(`added ${gapLine(r.gap)}`);
    else
      out(
        `repeats gap ${r.gap.id} (${r.decided_by}): priority ${r.previous_priority} → ${r.gap.priority}\n${gapLine(r.gap)}`,
      );
    return 0;
  });
}
