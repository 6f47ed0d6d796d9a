/**
 * calibration (issue 24 item 3): how well the explained confidence (src/domain/confidence) is calibrated on the
 * labelled statement set (tests/confidence/statement-set.jsonl: 402 statements made from the shared fixtures and
 * written by hand, Russian and English, check half frozen by digest before the weights were fitted on the tune half).
 * Procedure (bench/lib/calibration-run.ts): the fixtures store, each statement stored as an agent would, memory_verify
 * run on each, each statement's confidence read back. Reported per half: expected calibration error over 10 bins,
 * AUROC, log loss and the reliability table; beside them the two baselines the goals must reject: a constant
 * confidence (the tune half's share of true statements) and the stored `confidence` column alone.
 */
import {
  auroc,
  expectedCalibrationError,
  logLoss,
  reliabilityTable,
  type Scored,
} from "../../src/domain/confidence/metrics.ts";
import { type CalibrationRow, runCalibration, scoreRows } from "../lib/calibration-run.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** ECE, AUROC, log loss and the reliability table of scored items. */
export function calibrationFigures(items: readonly Scored[]) {
  return {
    n: items.length,
    true_share: r3(items.filter((i) => i.label).length / items.length),
    ece: r3(expectedCalibrationError(items, 10)),
    auroc: r3(auroc(items)),
    log_loss: r3(logLoss(items)),
    reliability: reliabilityTable(items, 10).map((b) => ({
      bin: `${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`,
      n: b.n,
      confidence: r3(b.confidence),
      accuracy: r3(b.accuracy),
    })),
  };
}

/** Figures of the model and of both baselines for one group of rows. */
function groupFigures(rows: ReturnType<typeof scoreRows>, constant: number) {
  return {
    model: calibrationFigures(rows.map((r) => ({ p: r.explained.value, label: r.item.label }))),
    constant: calibrationFigures(rows.map((r) => ({ p: constant, label: r.item.label }))),
    stored: calibrationFigures(rows.map((r) => ({ p: r.facts.stored, label: r.item.label }))),
  };
}

/** Per statement kind (check half): how many and the mean confidence, to read where the model is unsure. */
function byKind(rows: ReturnType<typeof scoreRows>) {
  const out: Record<string, { n: number; mean_confidence: number }> = {};
  for (const kind of new Set(rows.map((r) => r.item.kind))) {
    const of = rows.filter((r) => r.item.kind === kind);
    out[kind] = { n: of.length, mean_confidence: r3(of.reduce((s, r) => s + r.explained.value, 0) / of.length) };
  }
  return out;
}

async function run(): Promise<BenchOutcome> {
  const { rows, store_ms, verify_ms } = await runCalibration();
  const scored = scoreRows(rows as CalibrationRow[]);
  const half = (h: string) => scored.filter((r) => r.item.half === h);
  const tune = half("tune");
  const constant = r3(tune.filter((r) => r.item.label).length / tune.length);
  const groups: Record<string, ReturnType<typeof groupFigures>> = {};
  for (const [k, of] of [
    ["tune", tune],
    ["check", half("check")],
    ["check.en", half("check").filter((r) => r.item.lang === "en")],
    ["check.ru", half("check").filter((r) => r.item.lang === "ru")],
  ] as const)
    groups[k] = groupFigures(of, constant);
  const c = groups.check;
  const summary: SummaryRow[] = [
    { metric: "confidence, check half: ECE (10 bins)", value: c.model.ece, target: "≤ 0.1" },
    { metric: "confidence, check half: AUROC", value: c.model.auroc, target: "≥ 0.75" },
    {
      metric: "confidence, check half, en / ru: ECE · AUROC",
      value: `${groups["check.en"].model.ece} · ${groups["check.en"].model.auroc} / ${groups["check.ru"].model.ece} · ${groups["check.ru"].model.auroc}`,
    },
    {
      metric: `confidence, check half, constant ${constant} baseline: ECE · AUROC`,
      value: `${c.constant.ece} · ${c.constant.auroc}`,
    },
    {
      metric: "confidence, check half, stored column alone: ECE · AUROC",
      value: `${c.stored.ece} · ${c.stored.auroc}`,
    },
    { metric: "confidence, tune half: ECE · AUROC", value: `${groups.tune.model.ece} · ${groups.tune.model.auroc}` },
  ];
  return {
    params: {
      set: "tests/confidence/statement-set.jsonl (check half frozen by digest before the fit)",
      statements: rows.length,
      check: half("check").length,
      tune: tune.length,
      bins: 10,
      procedure: "fixtures store; memory_store each statement (fact, one agent site); memory_verify each; read back",
      judge: "heuristic",
    },
    results: { ...groups, by_kind_check: byKind(half("check")), store_ms, verify_ms },
    summary,
  };
}

/** The confidence calibration benchmark. */
export const calibrationBench: Benchmark = {
  name: "calibration",
  description: "confidence calibration: ECE and AUROC of the explained confidence on labelled statements (issue 24)",
  run,
};
