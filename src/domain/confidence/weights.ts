/**
 * Weights of the confidence model (model.ts), in logit units per unit of each feature.
 *
 * FITTED by `bun bench/fit-confidence.ts` (L2-regularised logistic regression, λ = 1) on the tune half of
 * tests/confidence/statement-set.jsonl only (214 statements; the check half was frozen by digest in
 * tests/confidence/statement-set.test.ts before the fit): bias, corroborated, verified, contested. Tune half under
 * these weights: ECE 0.035, AUROC 0.860.
 *
 * SET BY RULE (every statement of the calibration set is stored the same way — one agent site of authority 0.5,
 * stated 0.5, verified — so no fit can tell these; each is chosen to move a typical atom by about the amount named):
 * stated 1 (the stated prior's logit passes through: a distiller's 0.8 adds +1.4), sources 1 (per unit of the
 * noisy-OR of the live sites' authorities: one 0.9 site adds +0.9), unsourced −0.5 (no live source at all),
 * unchecked −0.3 (memory_verify has not judged it yet), superseded −2.5 (a newer statement replaced it: below one half
 * even when verified), stale −2 (its source no longer says it), source_gone −1.5 (all its pages 404/410),
 * unrefreshed −0.3 (a URL source unchecked for half a year), age −0.3 per ln(1 + years), inferred +0.2 per derived
 * link (up to 3).
 */

/** The features of the model. */
export type FeatureName =
  | "stated"
  | "sources"
  | "unsourced"
  | "corroborated"
  | "verified"
  | "unchecked"
  | "contested"
  | "superseded"
  | "stale"
  | "source_gone"
  | "unrefreshed"
  | "age"
  | "inferred";

/** Features whose weights the fit sets (the others are set by rule, module doc). */
export const FITTED_FEATURES: readonly FeatureName[] = ["corroborated", "verified", "contested"];

/** A weight per feature plus the bias. */
export type ConfidenceWeights = Record<FeatureName, number> & { bias: number };

/** The weights in use. */
export const CONFIDENCE_WEIGHTS: Readonly<ConfidenceWeights> = {
  // fitted (tune half)
  bias: -1.23,
  corroborated: 0.58,
  verified: 3.7,
  contested: -1.1,
  // set by rule
  stated: 1,
  sources: 1,
  unsourced: -0.5,
  unchecked: -0.3,
  superseded: -2.5,
  stale: -2,
  source_gone: -1.5,
  unrefreshed: -0.3,
  age: -0.3,
  inferred: 0.2,
};
