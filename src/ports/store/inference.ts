/**
 * Port of rule inference (memory_infer): forward chaining of chain rules over the one edge relation of DESIGN.md
 * (pm_edge: atom links, code dependencies, atom–symbol links over typed node ids) to a fixpoint, semi-naive
 * (Bancilhon & Ramakrishnan 1986; Ullman, "Principles of Database and Knowledge-Base Systems", vol. I, ch. 3), with
 * every derived edge stored with its justification and kept by a justification-based truth maintenance system
 * (Doyle 1979). The SQL adapter is src/adapters/sql/inference/store.ts.
 */
import type { ChainRule, RuleAtom } from "../../domain/inference/rules.ts";

/** Caps of one run; hitting one fails the run and keeps nothing of it. */
export interface InferLimits {
  /** Most evaluation rounds (each joins the last round's new edges with the relation). */
  maxIterations: number;
  /** Most edges derived by the run, all rules together. */
  maxNewEdges: number;
}

/** What one rule derived in a run. */
export interface RuleOutcome {
  ruleAtomId: number;
  /** Derived edges stored (an edge that already existed, extracted or inferred, is not stored again). */
  edgesAdded: number;
  /** The round in which the rule derived its last new edge (0: none); the run's fixpoint came one round later. */
  iterations: number;
  /** Derived edges whose endpoints no edge table can hold (e.g. symbol → atom), counted, not stored. */
  skipped: number;
}

/** A run's outcome. */
export interface InferOutcome {
  rules: RuleOutcome[];
  /** Rounds run, the last of which derived nothing (the fixpoint). */
  iterations: number;
  edgesAdded: number;
  skipped: number;
  /**
   * Inferred edges retracted before the run because a recorded premise was gone or had a retracted or stale atom
   * (and no other justification held them): the sweep that keeps a run's input true.
   */
  retracted: number;
  tookMs: number;
}

/** Inference over the canonical store. */
export interface InferenceStore {
  /**
   * The `logical_rule` atoms with these ids (all such atoms when `ids` is undefined), with ids that name no atom
   * reported in `missing`. Reads at most 1000 rules.
   */
  ruleAtoms(ids?: number[]): Promise<{ atoms: RuleAtom[]; missing: number[] }>;
  /**
   * Applies `rules` together to a fixpoint in ONE transaction: first inferred edges whose premises went are retracted
   * (see `retracted`), then derived edges are stored (inferred, source
   * 'inference', justification {rule, premises}) with their outbox rows, and the rules are recorded as applied
   * (truth maintenance re-derives with them). `onRound` hears of each round that stored edges.
   * @throws PegasError LIMIT_EXCEEDED (a cap was hit: nothing of the run is kept), STORE_UNAVAILABLE, CANCELLED.
   */
  infer(
    rules: ChainRule[],
    limits: InferLimits,
    signal?: AbortSignal,
    onRound?: (round: number, edgesSoFar: number) => void,
  ): Promise<InferOutcome>;
}
