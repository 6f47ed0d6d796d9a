/**
 * `pegas-memory infer [--rule ID]... [--max-iterations N] [--max-new-edges N] [--json]`: memory_infer from the
 * command line. Prints per rule the edges added and the round of its last one, then the ignored rules with reasons
 * (JSON with --json). Returns the exit status (a cap hit is LIMIT_EXCEEDED, exit 65, nothing kept).
 */
import type { Config } from "../config.ts";
import { infer } from "../core/inference/infer.ts";
import type { Services } from "../core/services.ts";
import { invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

/** Opens services, runs `fn`, closes them (tests hand in their own). */
export type OpenServices = <T>(config: Config, fn: (s: Services, signal: AbortSignal) => Promise<T>) => Promise<T>;

function ruleIds(v: unknown): number[] | undefined {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).map((x) => {
    const n = Number(x);
    if (!Number.isSafeInteger(n) || n < 1)
      throw invalidInput(`--rule must be an atom id (a positive integer), got '${String(x)}'`);
    return n;
  });
}

/**
 * Runs the command; exit status 1 when a rule named with --rule was ignored (unknown, malformed, not a rule).
 * @throws PegasError INVALID_INPUT, LIMIT_EXCEEDED, STORE_UNAVAILABLE.
 */
export async function runInfer(config: Config, cli: Cli, open: OpenServices = withServices): Promise<number> {
  if (cli.positionals.length)
    throw invalidInput(
      `infer takes no arguments, got '${cli.positionals[0]}'`,
      "name rules with --rule ID (repeatable)",
    );
  const input = {
    ruleIds: ruleIds(cli.values.rule),
    maxIterations: intOption(cli, "max-iterations"),
    maxNewEdges: intOption(cli, "max-new-edges"),
  };
  const r = await open(config, (s, signal) => infer(s, input, signal));
  if (cli.values.json) {
    outJson({
      rules: r.applied.map((x) => ({
        rule_id: x.ruleAtomId,
        if: x.body,
        then: x.head,
        ...pick(r.rules.find((o) => o.ruleAtomId === x.ruleAtomId)),
      })),
      ignored: r.ignored.map((x) => ({ rule_id: x.ruleAtomId, reason: x.reason })),
      iterations: r.iterations,
      edges_added: r.edgesAdded,
      skipped: r.skipped,
      retracted: r.retracted,
      took_ms: r.tookMs,
    });
    return askedIgnored(input.ruleIds, r.ignored.length);
  }
  if (!r.applied.length) out("no rule to apply");
  for (const x of r.applied) {
    const o = pick(r.rules.find((y) => y.ruleAtomId === x.ruleAtomId));
    out(
      `rule ${x.ruleAtomId} (${x.body.join(" ∘ ")} → ${x.head}): ${o.edges_added} edge(s) added, last in round ${o.iterations}` +
        (o.skipped ? `, ${o.skipped} not storable` : ""),
    );
  }
  for (const x of r.ignored) out(`ignored rule ${x.ruleAtomId}: ${x.reason}`);
  if (r.retracted) out(`${r.retracted} inferred edge(s) retracted first: a premise had gone`);
  out(`fixpoint after ${r.iterations} round(s): ${r.edgesAdded} edge(s) added in ${(r.tookMs / 1000).toFixed(2)} s`);
  return askedIgnored(input.ruleIds, r.ignored.length);
}

/** Exit status: 1 when rules named with --rule were ignored (the user asked for them), else 0. */
function askedIgnored(asked: number[] | undefined, ignored: number): number {
  return asked?.length && ignored ? 1 : 0;
}

function pick(o: { edgesAdded: number; iterations: number; skipped: number } | undefined) {
  return { edges_added: o?.edgesAdded ?? 0, iterations: o?.iterations ?? 0, skipped: o?.skipped ?? 0 };
}
