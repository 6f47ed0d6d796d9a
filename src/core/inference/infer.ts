/**
 * memory_infer: forward chaining of the `logical_rule` atoms (domain/inference/rules.ts) over the one edge relation to a
 * fixpoint, semi-naive, in one transaction (the store's `infer`). Rules that cannot be applied are reported with the
 * reason and never applied; a cap hit fails the whole run and keeps nothing.
 */
import { PegasError } from "../../errors.ts";
import type { InferenceStore, InferOutcome } from "../../ports/store/inference.ts";
import { type ChainRule, type IgnoredRule, isChainRule, parseRule } from "../../domain/inference/rules.ts";

/** Default and largest caps. */
export const DEFAULT_MAX_ITERATIONS = 50;
export const MAX_MAX_ITERATIONS = 10_000;
export const DEFAULT_MAX_NEW_EDGES = 100_000;
export const MAX_MAX_NEW_EDGES = 10_000_000;
/** Most rule ids per call. */
export const MAX_RULE_IDS = 1000;

/** Input of {@link infer}. */
export interface InferInput {
  /** Rule atoms to apply (default: every logical_rule atom). */
  ruleIds?: number[];
  maxIterations?: number;
  maxNewEdges?: number;
}

/** Result of {@link infer}: the store's outcome plus the rules applied and those ignored with their reasons. */
export interface InferResult extends InferOutcome {
  applied: ChainRule[];
  ignored: IgnoredRule[];
}

function intIn(name: string, v: number | undefined, def: number, max: number): number {
  if (v === undefined) return def;
  if (!Number.isInteger(v) || v < 1 || v > max)
    throw new PegasError("INVALID_INPUT", `${name} must be an integer in 1..${max}, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * Applies the rules (see the module comment); `onRound` hears of each round that stored edges (progress).
 * @throws PegasError INVALID_INPUT (bad ids or caps), LIMIT_EXCEEDED (a cap was hit; nothing kept), CANCELLED,
 * STORE_UNAVAILABLE.
 */
export async function infer(
  s: { inference: InferenceStore },
  input: InferInput,
  signal?: AbortSignal,
  onRound?: (round: number, edgesSoFar: number) => void,
): Promise<InferResult> {
  const maxIterations = intIn("max_iterations", input.maxIterations, DEFAULT_MAX_ITERATIONS, MAX_MAX_ITERATIONS);
  const maxNewEdges = intIn("max_new_edges", input.maxNewEdges, DEFAULT_MAX_NEW_EDGES, MAX_MAX_NEW_EDGES);
  const ids = input.ruleIds === undefined ? undefined : [...new Set(input.ruleIds)];
  if (ids && (!ids.length || ids.length > MAX_RULE_IDS || ids.some((id) => !Number.isSafeInteger(id) || id < 1))) {
    throw new PegasError(
      "INVALID_INPUT",
      `rule_ids must be 1..${MAX_RULE_IDS} positive integers, got ${JSON.stringify(input.ruleIds).slice(0, 200)}`,
      {
        hint: "omit rule_ids to apply every logical_rule atom",
      },
    );
  }
  const { atoms, missing } = await s.inference.ruleAtoms(ids);
  const parsed = atoms.map(parseRule);
  const applied = parsed.filter(isChainRule);
  const ignored = [
    ...parsed.filter((r): r is IgnoredRule => !isChainRule(r)),
    ...missing.map((id) => ({ ruleAtomId: id, reason: `no atom '${id}'` })),
  ];
  const out = await s.inference.infer(applied, { maxIterations, maxNewEdges }, signal, onRound);
  return { ...out, applied, ignored };
}
