/**
 * `bun bench/fit-confidence.ts [--rows FILE]`: fits the weights of the confidence model (src/domain/confidence) on
 * the TUNE half of the labelled statement set only, and prints them for src/domain/confidence/weights.ts.
 *
 * Method: L2-regularised logistic regression (λ = {@link LAMBDA} on every weight but the bias) by Newton–Raphson,
 * over the features of the FITTED_FEATURES that vary on the tune half; every other feature (set by rule in
 * weights.ts) enters as a fixed offset. The facts come from the calibration procedure (bench/lib/calibration-run.ts)
 * or, with `--rows`, from a JSON file that procedure wrote (`{rows: CalibrationRow[]}`). The check half is never read.
 */
import { readFileSync } from "node:fs";
import { confidenceFeatures, sigmoid } from "../src/domain/confidence/model.ts";
import { CONFIDENCE_WEIGHTS, FITTED_FEATURES, type FeatureName } from "../src/domain/confidence/weights.ts";
import { auroc, expectedCalibrationError, logLoss } from "../src/domain/confidence/metrics.ts";
import { setLogLevel } from "../src/log.ts";
import { type CalibrationRow, runCalibration } from "./lib/calibration-run.ts";

/** The L2 penalty of the fit. */
export const LAMBDA = 1;

/** Solves A x = b (Gaussian elimination with partial pivoting; A is small and positive definite here). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * Fits bias and the weights of `names` on `rows` (others fixed at `fixed` as offsets).
 * @returns the fitted bias and weights.
 */
export function fitLogistic(rows: readonly CalibrationRow[], names: readonly FeatureName[], lambda = LAMBDA) {
  const data = rows.map((r) => {
    const feats = confidenceFeatures(r.facts);
    const x = [1, ...names.map((n) => feats.find((f) => f.code === n)?.x ?? 0)];
    const offset = feats
      .filter((f) => !names.includes(f.code))
      .reduce((s, f) => s + CONFIDENCE_WEIGHTS[f.code] * f.x, 0);
    return { x, offset, y: r.item.label ? 1 : 0 };
  });
  const d = names.length + 1;
  let w = Array(d).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = w.map((wi, j) => (j === 0 ? 0 : lambda * wi));
    const hess = Array.from({ length: d }, (_, i) =>
      Array.from({ length: d }, (_, j) => (i === j && i > 0 ? lambda : 0)),
    );
    for (const { x, offset, y } of data) {
      const p = sigmoid(offset + x.reduce((s, xi, j) => s + xi * w[j], 0));
      for (let i = 0; i < d; i++) {
        grad[i] += (p - y) * x[i];
        for (let j = 0; j < d; j++) hess[i][j] += p * (1 - p) * x[i] * x[j];
      }
    }
    const step = solve(hess, grad);
    w = w.map((wi, j) => wi - step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { bias: w[0], weights: Object.fromEntries(names.map((n, i) => [n, w[i + 1]])) as Record<FeatureName, number> };
}

async function main(): Promise<void> {
  setLogLevel("warn");
  const at = process.argv.indexOf("--rows");
  const rows: CalibrationRow[] =
    at > 0 ? JSON.parse(readFileSync(process.argv[at + 1], "utf8")).rows : (await runCalibration()).rows;
  const tune = rows.filter((r) => r.item.half === "tune");
  const varying = FITTED_FEATURES.filter((n) => {
    const xs = new Set(tune.map((r) => confidenceFeatures(r.facts).find((f) => f.code === n)?.x ?? 0));
    return xs.size > 1;
  });
  const fit = fitLogistic(tune, varying);
  const round = (x: number) => Math.round(x * 100) / 100;
  const scored = tune.map((r) => {
    const feats = confidenceFeatures(r.facts);
    const z = feats.reduce(
      (s, f) => s + (f.code in fit.weights ? fit.weights[f.code] : CONFIDENCE_WEIGHTS[f.code]) * f.x,
      fit.bias,
    );
    return { p: sigmoid(z), label: r.item.label };
  });
  process.stdout.write(
    `${JSON.stringify({ tune: tune.length, varying, bias: round(fit.bias), weights: Object.fromEntries(Object.entries(fit.weights).map(([k, v]) => [k, round(v)])), tune_ece: round(expectedCalibrationError(scored) * 1000) / 1000, tune_auroc: auroc(scored), tune_log_loss: logLoss(scored) }, null, 2)}\n`,
  );
}

if (import.meta.main) await main();
